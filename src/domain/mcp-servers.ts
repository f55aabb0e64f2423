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

/** A header name as HTTP allows it (a token). */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the browser sets itself, or that the protocol owns: a server's own headers may not replace them. */
const reservedHeaders = new Set([
  'accept',
  'content-type',
  'content-length',
  'host',
  'origin',
  'cookie',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);

/**
 * Headers typed one per line as `Name: value`: the headers, or why they cannot be sent (the
 * first line at fault, by number).
 */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { problem: string } {
  const headers: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    const value = colon === -1 ? '' : line.slice(colon + 1).trim();
    if (!headerName.test(name)) return { problem: `Line ${index + 1}: write each header as Name: value.` };
    if (reservedHeaders.has(name.toLowerCase()))
      return { problem: `Line ${index + 1}: ${name} is set by the browser or the protocol.` };
    // Header values are Latin-1 without control characters (fetch refuses the rest).
    if (value === '' || /[^\t\x20-\x7e\x80-\xff]/.test(value))
      return { problem: `Line ${index + 1}: the value of ${name} must be plain text.` };
    headers[name] = value;
  }
  return { headers };
}

/** A server's secret as kept: the headers to send (a bearer token is kept as its Authorization header). */
export interface McpSecret {
  headers: Record<string, string>;
}

export function bearerSecret(token: string): McpSecret {
  return { headers: { Authorization: `Bearer ${token.trim()}` } };
}

/** A kept secret read back; anything unreadable is no secret at all. */
export function readMcpSecret(text: string | undefined): McpSecret {
  if (!text) return { headers: {} };
  try {
    const value: unknown = JSON.parse(text);
    const headers =
      typeof value === 'object' && value !== null && 'headers' in value ? value.headers : undefined;
    if (typeof headers !== 'object' || headers === null) return { headers: {} };
    return {
      headers: Object.fromEntries(
        Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
    };
  } catch {
    return { headers: {} };
  }
}

/** What the user typed into 'Add server', before it is kept. */
export interface McpServerDraft {
  url: string;
  name?: string;
  auth: McpAuth;
  /** The bearer token (auth 'bearer'). */
  token?: string;
  /** Header lines (auth 'headers'). */
  headerLines?: string;
  clientId?: string;
}

/** A draft made into a server and its secret, or the first problem with it, in one sentence. */
export function serverFromDraft(
  draft: McpServerDraft,
  id: string,
): { server: McpServer; secret: McpSecret | null } | { problem: string } {
  const urlProblem = mcpUrlProblem(draft.url);
  if (urlProblem) return { problem: urlProblem };
  const url = new URL(draft.url.trim());
  let secret: McpSecret | null = null;
  if (draft.auth === 'bearer') {
    const token = draft.token?.trim() ?? '';
    if (token === '' || /\s/.test(token) || /[^\x21-\x7e]/.test(token))
      return { problem: 'Enter the token, without spaces.' };
    secret = bearerSecret(token);
  }
  if (draft.auth === 'headers') {
    const parsed = parseHeaderLines(draft.headerLines ?? '');
    if ('problem' in parsed) return parsed;
    if (Object.keys(parsed.headers).length === 0) return { problem: 'Enter at least one header.' };
    secret = { headers: parsed.headers };
  }
  const clientId = draft.auth === 'oauth' ? draft.clientId?.trim() : undefined;
  const server: McpServer = {
    id,
    name: draft.name?.trim().slice(0, 100) || url.host,
    url: url.href,
    auth: draft.auth,
    ...(clientId && { clientId }),
    enabled: true,
    disabledTools: [],
  };
  return { server, secret };
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
