import { mcpUrlProblem, type McpAuth, type McpServer } from './mcp-servers.ts';

/**
 * What the user types into 'Add server', checked and made into a server and its secret; and a
 * kept secret read back. Loaded with the commands that manage servers, not at start.
 */

/** A header name as HTTP allows it (a token). */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the browser sets itself, or that the protocol owns: a server's own headers may not replace them. */
const reservedHeaders = new Set([
  'accept',
  'content-type',
  'content-length',
  // The Fetch standard's forbidden request headers: the browser drops them without a word.
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
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
    const lower = name.toLowerCase();
    if (reservedHeaders.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-'))
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
