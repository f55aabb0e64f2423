import type { McpServer } from '../../domain/mcp-servers.ts';
import type { McpStatus } from '../../tools/mcp/types.ts';
import { protocolLabel } from '../../tools/mcp/words.ts';

/** '1 tool', '3 tools'. */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** How a server's row says where it stands, and whether that is a problem. */
export function mcpStatusLine(
  server: McpServer,
  status: McpStatus | undefined,
): { text: string; tone: 'ok' | 'muted' | 'problem' } {
  if (!server.enabled) return { text: 'Off: its tools are offered nowhere.', tone: 'muted' };
  switch (status?.state) {
    case undefined:
    case 'disconnected':
      return { text: 'Not connected yet: it connects when its tools are first needed.', tone: 'muted' };
    case 'connecting':
      return { text: 'Connecting…', tone: 'muted' };
    case 'connected': {
      // Its prompts are named too when it offers any: they show in the '/' list, not in its row.
      const { length } = status.prompts;
      const prompts = length > 0 ? ` and ${counted(length, 'prompt')}` : '';
      return {
        text: `Connected with ${counted(status.tools, 'tool')}${prompts}, ${protocolLabel(status)}.`,
        tone: 'ok',
      };
    }
    case 'needs-sign-in':
      return { text: status.message ?? 'Needs you to sign in.', tone: 'problem' };
    case 'signing-in':
      return { text: 'Signing in: finish in the window that opened.', tone: 'muted' };
    case 'failed':
      return { text: status.message, tone: 'problem' };
  }
}
