import {
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import { SignInNeeded } from './oauth.ts';
import type { McpFailureKind } from './types.ts';
import { browserBlockedSentence, hostOf } from './words.ts';

/**
 * Why a server could not be used, in one sentence the user can act on; and why a call failed, in
 * one sentence the model (and the user, in the call's card) can read.
 */

/** A call's answer that can no longer come: its stream ended without it, or the connection dropped. */
export class AnswerLost extends Error {
  constructor(label: string) {
    super(`The server ${label} closed the connection before answering.`);
    this.name = 'AnswerLost';
  }
}

/** What was seen on the wire while connecting, beyond the error itself. */
export interface FailureFacts {
  /** The server's address. */
  url: string;
  /** The page's origin in a browser; absent elsewhere (no CORS there). */
  pageOrigin?: string;
  /** `initialize` succeeded but no Mcp-Session-Id could be read: unexposed by CORS, or none. */
  sessionHidden?: boolean;
}

/** The error and its causes, outermost first (bounded: a cause chain can loop). */
function chain(error: unknown): unknown[] {
  const errors: unknown[] = [];
  for (let item = error; item !== undefined && item !== null && errors.length < 8;) {
    errors.push(item);
    item = item instanceof Error ? item.cause : undefined;
  }
  return errors;
}

/** The HTTP status an error carries (the SDK's HTTP errors, an SSE stream refused), if any. */
function httpStatus(error: unknown): number | undefined {
  for (const item of chain(error)) {
    if (item instanceof SdkHttpError) return item.status;
    if (item instanceof SseError && typeof item.code === 'number' && item.code >= 400) return item.code;
    const match = item instanceof Error ? /\(HTTP (\d{3})\)/.exec(item.message) : null;
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

/** A fetch that failed without an answer: offline, refused, or (in a browser) blocked by CORS. */
function isNetworkFailure(error: unknown): boolean {
  return chain(error).some(
    (item) =>
      item instanceof TypeError ||
      (item instanceof Error && (item.name === 'TypeError' || item.name === 'NetworkError')) ||
      (item instanceof SseError && item.code === undefined),
  );
}

function isTimeout(error: unknown): boolean {
  return chain(error).some((item) => item instanceof SdkError && item.code === SdkErrorCode.RequestTimeout);
}

/** Whether the server wants an OAuth sign-in (nothing stored, or what is stored no longer works). */
export function needsSignIn(error: unknown): boolean {
  return chain(error).some(
    (item) =>
      item instanceof SignInNeeded ||
      item instanceof UnauthorizedError ||
      item instanceof InsufficientScopeError ||
      (item instanceof SdkError && item.code === SdkErrorCode.ClientHttpAuthentication),
  );
}

/** A message from elsewhere, fit for a sentence: one line, bounded, ending with a full stop. */
export function quoted(message: string, limit = 300): string {
  // eslint-disable-next-line no-control-regex
  const line = message.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const cut = line.length > limit ? `${line.slice(0, limit)}…` : line;
  return /[.!?…]$/.test(cut) ? cut : `${cut}.`;
}

/** Why connecting failed: the kind, and one sentence saying what to do. */
export function describeFailure(
  error: unknown,
  facts: FailureFacts,
): { kind: McpFailureKind; message: string } {
  const host = hostOf(facts.url);
  let crossOrigin = false;
  try {
    crossOrigin = facts.pageOrigin !== undefined && new URL(facts.url).origin !== facts.pageOrigin;
  } catch {
    // An address that is not a URL: not a CORS matter.
  }
  const blocked = () => ({
    kind: 'cors' as const,
    message: browserBlockedSentence(host, facts.pageOrigin ?? ''),
  });
  const status = httpStatus(error);
  if (status !== undefined) {
    // The session id was set but not readable: the next request goes without and is refused.
    if (crossOrigin && facts.sessionHidden && (status === 400 || status === 404)) return blocked();
    if (status === 401)
      return {
        kind: 'auth',
        message: `${host} refused the credentials (HTTP 401): check this server's token or headers.`,
      };
    if (status === 403)
      return {
        kind: 'auth',
        message: `${host} denied access (HTTP 403): check that the credentials allow it.`,
      };
    if (status === 404)
      return {
        kind: 'http',
        message: `${host} has no MCP server at this address (HTTP 404): check the URL.`,
      };
    if (status === 405)
      return {
        kind: 'http',
        message: `${host} does not take MCP requests at this address (HTTP 405): check the URL.`,
      };
    if (status >= 500)
      return { kind: 'http', message: `${host} failed with HTTP ${status}: try again later.` };
    return { kind: 'http', message: `${host} refused the connection with HTTP ${status}.` };
  }
  if (isNetworkFailure(error)) {
    if (crossOrigin) return blocked();
    return {
      kind: 'network',
      message: `Could not reach ${host}: check the address and that the server is running.`,
    };
  }
  if (isTimeout(error))
    return { kind: 'network', message: `${host} did not answer in time: try again later.` };
  if (chain(error).some((item) => item instanceof IssuerMismatchError || item instanceof OAuthError))
    return { kind: 'auth', message: `Signing in to ${host} failed: sign in again.` };
  if (
    chain(error).some(
      (item) =>
        item instanceof UnsupportedProtocolVersionError ||
        (item instanceof Error && /protocol version is not supported/i.test(item.message)),
    )
  )
    return { kind: 'protocol', message: `${host} speaks no version of MCP this app supports.` };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'protocol', message: `${host} did not answer as an MCP server: ${quoted(message, 200)}` };
}

/** Why a call failed, in one sentence naming the server (`label`); `oauth` when it signs in. */
export function callFailure(error: unknown, label: string, oauth: boolean): string {
  const first = chain(error);
  if (first.some((item) => item instanceof ProtocolError)) {
    const protocol = first.find((item) => item instanceof ProtocolError) as ProtocolError;
    return `The server ${label} answered with an error: ${quoted(protocol.message)}`;
  }
  if (oauth && needsSignIn(error))
    return `The server ${label} needs a sign-in: sign in from its settings, then try again.`;
  if (
    isNetworkFailure(error) ||
    first.some(
      (item) =>
        item instanceof AnswerLost ||
        (item instanceof SdkError && item.code === SdkErrorCode.ConnectionClosed),
    )
  )
    return `The server ${label} closed the connection before answering.`;
  if (isTimeout(error)) return `The server ${label} did not answer in time.`;
  const status = httpStatus(error);
  if (status !== undefined) return `The server ${label} refused the call with HTTP ${status}.`;
  const message = error instanceof Error ? error.message : String(error);
  return `The server ${label} could not run the call: ${quoted(message)}`;
}
