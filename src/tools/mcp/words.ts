import type { McpStatus } from './types.ts';

/**
 * The sentences the screen and the tests share. Small on purpose: part of the first load.
 */

/** The fix when the browser blocked a server (CORS), in one sentence. */
export function browserBlockedSentence(host: string, origin: string): string {
  return `The browser blocked ${host}: the server must allow this origin (${origin}) and expose Mcp-Session-Id in its CORS headers.`;
}

/** How a connected server's protocol is shown: 'MCP 2026-07-28', 'MCP 2024-11-05 (HTTP+SSE)'. */
export function protocolLabel(status: Extract<McpStatus, { state: 'connected' }>): string {
  return `MCP ${status.protocolVersion}${status.transport === 'sse' ? ' (HTTP+SSE)' : ''}`;
}

/** The host of a server's address, as sentences name it (the address itself when it has none). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
