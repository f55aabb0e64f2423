import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../domain/mcp-servers.ts';
import type { McpPrompt, McpStatus } from '../../tools/mcp/types.ts';
import { mcpStatusLine } from './mcp-status.ts';

const server: McpServer = {
  id: 'mcp-test',
  name: 'Test',
  url: 'https://mcp.example/mcp',
  auth: 'none',
  enabled: true,
  disabledTools: [],
};

const prompt = (name: string): McpPrompt => ({ name, arguments: [] });

function connected(tools: number, prompts: number, transport: 'streamable-http' | 'sse' = 'streamable-http') {
  const status: McpStatus = {
    state: 'connected',
    tools,
    prompts: Array.from({ length: prompts }, (_, index) => prompt(`p${index}`)),
    protocolVersion: '2025-11-25',
    era: 'legacy',
    transport,
  };
  return mcpStatusLine(server, status);
}

describe('mcpStatusLine', () => {
  it('counts the tools of a server without prompts, as before', () => {
    expect(connected(3, 0)).toEqual({ text: 'Connected with 3 tools, MCP 2025-11-25.', tone: 'ok' });
    expect(connected(1, 0).text).toBe('Connected with 1 tool, MCP 2025-11-25.');
    expect(connected(0, 0).text).toBe('Connected with 0 tools, MCP 2025-11-25.');
  });

  it('counts its prompts too when it offers some, each noun in the right number', () => {
    expect(connected(3, 2).text).toBe('Connected with 3 tools and 2 prompts, MCP 2025-11-25.');
    expect(connected(1, 1).text).toBe('Connected with 1 tool and 1 prompt, MCP 2025-11-25.');
    expect(connected(0, 3, 'sse').text).toBe(
      'Connected with 0 tools and 3 prompts, MCP 2025-11-25 (HTTP+SSE).',
    );
  });

  it('says a switched-off server is off, whatever its status', () => {
    expect(mcpStatusLine({ ...server, enabled: false }, { state: 'connecting' })).toEqual({
      text: 'Off: its tools are offered nowhere.',
      tone: 'muted',
    });
  });
});
