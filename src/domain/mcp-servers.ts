/**
 * MCP servers the user connected: where each is, how it signs in, and which of its tools are off.
 * Its secrets (a token, headers, OAuth tokens) are not here: they are kept like API keys
 * (`mcpSecretKey`), never exported or backed up, sealed with them when keys are protected.
 */

/** How requests to a server are authorised. */
export type McpAuth = 'none' | 'bearer' | 'headers' | 'oauth';

export interface McpServer {
  /** Also its ToolSource id and the `server` of its calls: `mcp-…`, never 'builtin'. */
  id: string;
  /** How the user knows it: the name they gave, or the URL's host. */
  name: string;
  /** The server's MCP endpoint (Streamable HTTP, or the old HTTP+SSE one). */
  url: string;
  auth: McpAuth;
  /** OAuth: a client id registered for this app beforehand; without one the app registers itself. */
  clientId?: string;
  /** Off: none of its tools is offered in any conversation. */
  enabled: boolean;
  /** Its tools switched off everywhere, by the server's own tool name. */
  disabledTools: string[];
}

/** At most this many servers are kept (a bound on what start-up reads and connects). */
export const maxMcpServers = 50;

/** The key under which a server's token or headers are kept with the API keys. */
export const mcpSecretKey = (serverId: string) => `mcp:${serverId}`;
/** The prefix of OAuth state (tokens per issuer, client registrations) kept with the API keys. */
export const mcpOAuthPrefix = 'mcp-oauth:';
/** Whether a key of the key store belongs to MCP servers rather than to a provider connection. */
export const isMcpSecretKey = (key: string) => key.startsWith('mcp:') || key.startsWith(mcpOAuthPrefix);

/**
 * Why a URL cannot be an MCP server's, or null when it can: https anywhere, plain http only on
 * this computer as the page's Content-Security-Policy names it (127.0.0.1 and localhost): anything
 * else over http would carry tokens in the clear, and the page could not reach it.
 */
export function mcpUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'Enter the server’s full URL, like https://example.com/mcp.';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost')) return null;
  if (url.protocol === 'http:') return 'Use https: plain http is allowed only for localhost and 127.0.0.1.';
  return 'Enter an https URL.';
}

/** The servers as stored, read back: what does not read is dropped, one by one. */
export function readMcpServers(value: unknown): McpServer[] {
  if (!Array.isArray(value)) return [];
  const servers: McpServer[] = [];
  const ids = new Set<string>();
  for (const entry of value.slice(0, maxMcpServers)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { id, name, url, auth, clientId, enabled, disabledTools } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || !id.startsWith('mcp-') || ids.has(id)) continue;
    if (typeof url !== 'string' || mcpUrlProblem(url) !== null) continue;
    if (auth !== 'none' && auth !== 'bearer' && auth !== 'headers' && auth !== 'oauth') continue;
    ids.add(id);
    servers.push({
      id,
      name: typeof name === 'string' && name.trim() !== '' ? name.slice(0, 100) : new URL(url).host,
      url,
      auth,
      ...(typeof clientId === 'string' && clientId !== '' && { clientId }),
      enabled: enabled !== false,
      disabledTools: Array.isArray(disabledTools)
        ? disabledTools.filter((tool): tool is string => typeof tool === 'string').slice(0, 1000)
        : [],
    });
  }
  return servers;
}
