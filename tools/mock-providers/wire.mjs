// @ts-check
/** Shared types and response writers of the mock providers. */

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 *
 * @typedef {object} MockRequest
 * @property {string} method
 * @property {URL} url
 * @property {Record<string, string>} headers Lowercased names, repeated values joined with ", ".
 * @property {string} bodyText
 * @property {Record<string, string>} params Path parameters: deployment, model, method, key (the local server's scenario).
 *
 * @typedef {object} Reply
 * @property {number} status
 * @property {unknown} body
 * @property {Record<string, string>} [headers]
 * @property {boolean} [withoutCors] Sent without CORS headers, so a browser refuses it.
 *
 * @typedef {object} Conversation
 * @property {string} model
 * @property {string} lastUserText
 * @property {number} messageCount Every message sent, the system prompt included.
 * @property {string} promptText All text sent, to count input tokens.
 * @property {import('./attachments.mjs').Attachment[]} [attachments] What the last user message carried, in order (the attachments scenario).
 *
 * @typedef {object} ChatPlan
 * @property {string} scenario
 * @property {string} model
 * @property {string[]} tokens The reply, as the pieces to stream.
 * @property {string[]} reasoning The reasoning before the reply, as pieces; used by the thinking scenarios and /v1/responses.
 * @property {number} inputTokens
 * @property {Set<string>} memory What this key's earlier requests left for later ones (Claude's cached prompt prefixes).
 * @property {Record<string, unknown>} body The request JSON.
 * @property {MockRequest} request
 * @property {import('./tools.mjs').ToolTurn} [toolTurn] Under a tool scenario: the model's turn (its text is `tokens`).
 *
 * @typedef {object} MockProvider
 * @property {'openai' | 'azure' | 'groq' | 'claude' | 'gemini' | 'local'} id
 * @property {(request: MockRequest) => string} keyOf The API key sent, or ''.
 * @property {(request: MockRequest) => Record<string, string>} corsHeaders CORS headers of actual responses.
 * @property {(request: MockRequest) => Reply} preflight
 * @property {(request: MockRequest) => Reply | undefined} [gate] Checks made before the key (Anthropic's browser header and version, Azure's api-version).
 * @property {(key: string) => Reply} missingKey
 * @property {(key: string) => Reply} badKey
 * @property {() => Reply} invalidJson
 * @property {(body: Record<string, unknown>, request: MockRequest, scenario: string) => Reply | undefined} validate
 * @property {(status: number, model: string) => Reply} httpError
 * @property {(body: Record<string, unknown>, request: MockRequest) => Conversation} conversation
 * @property {(body: Record<string, unknown>, request: MockRequest) => boolean} isStream
 * @property {(plan: ChatPlan) => string[]} streamFrames Every write of a streamed reply, in order.
 * @property {(plan: ChatPlan) => Reply} reply A non-streamed reply.
 * @property {number} midStreamErrorStatus The status that stands for the error-event scenario when not streaming.
 * @property {(request: MockRequest, scenario: string) => unknown} models The list-models response.
 * @property {(model: string) => Reply | undefined} [retired] The answer to a chat with a model retired upstream (scenario `retired`).
 * @property {(body: Record<string, unknown>, request: MockRequest) => import('./tools.mjs').ToolState} [toolState] What the tool scenarios read from a request.
 * @property {(plan: ChatPlan) => Reply | undefined} [toolRefusal] A refusal of the model's tool calls, sent instead of them (Groq's tool_use_failed).
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {number} ms */
export function delay(ms) {
  // setTimeout waits at least 1 ms; with no delay asked, only yield to the event loop.
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/** @param {string} text @returns {unknown} */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** @param {ServerResponse} res @param {Reply} reply @param {Record<string, string>} cors */
export function sendReply(res, reply, cors) {
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const type =
    typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  res.writeHead(reply.status, { 'content-type': type, ...(reply.withoutCors ? {} : cors), ...reply.headers });
  res.end(body);
}

/** @param {ServerResponse} res */
function gone(res) {
  return res.destroyed || res.writableEnded || Boolean(res.socket?.destroyed);
}

/**
 * The offset just after the lead byte of the first multi-byte character, or -1.
 * @param {Buffer} bytes
 */
function insideFirstMultiByteCharacter(bytes) {
  const lead = bytes.findIndex((byte) => byte >= 0xc0);
  return lead === -1 ? -1 : lead + 1;
}

/** How long a dropped stream stays open after its last frame (ms). */
const dropPauseMs = 500;

/**
 * Writes a streamed reply frame by frame with a delay between writes.
 * @param {ServerResponse} res
 * @param {string[]} frames
 * @param {{ delayMs: number, headers: Record<string, string>, splitUtf8?: boolean, dropAfter?: number }} options
 *   splitUtf8 writes each frame holding a multi-byte character as two writes that cut through it;
 *   dropAfter closes the connection mid-body after that many frames.
 */
export async function writeStream(res, frames, options) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...options.headers,
  });
  res.flushHeaders();
  for (const [index, frame] of frames.entries()) {
    if (index > 0) await delay(options.delayMs);
    if (gone(res)) return;
    if (index === options.dropAfter) {
      // Close without the chunked terminator: the body is cut off. A FIN, not a reset, so the
      // receiving TCP stack keeps the frames already sent; and only after a pause, because a
      // browser discards body chunks its page has not read yet once the stream errors.
      await delay(dropPauseMs);
      if (!gone(res)) res.socket?.end();
      return;
    }
    const bytes = Buffer.from(frame, 'utf8');
    const cut = options.splitUtf8 ? insideFirstMultiByteCharacter(bytes) : -1;
    if (cut === -1) {
      res.write(bytes);
      continue;
    }
    res.write(bytes.subarray(0, cut));
    await delay(Math.max(10, options.delayMs));
    if (gone(res)) return;
    res.write(bytes.subarray(cut));
  }
  res.end();
}

/**
 * Sends half of a JSON body, then destroys the socket.
 * @param {ServerResponse} res @param {unknown} body @param {Record<string, string>} headers
 */
export async function dropJson(res, body, headers) {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  await delay(20);
  res.socket?.destroy();
}

/** @param {MockRequest} request */
function requestedHeaders(request) {
  return (request.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

/** CORS allowing any origin, as OpenAI and Anthropic answer. */
export function anyOriginCors() {
  return { 'access-control-allow-origin': '*' };
}

/** CORS echoing the Origin, as Groq and Google answer. @param {MockRequest} request */
export function reflectOriginCors(request) {
  return { 'access-control-allow-origin': request.headers.origin ?? '*', vary: 'Origin' };
}

/**
 * A successful preflight answer allowing the requested headers, or only `allowedHeaders` if given.
 * @param {MockRequest} request
 * @param {Record<string, string>} cors
 * @param {readonly string[]} [allowedHeaders]
 * @returns {Reply}
 */
export function preflightReply(request, cors, allowedHeaders) {
  const requested = requestedHeaders(request);
  const refused = allowedHeaders ? requested.filter((name) => !allowedHeaders.includes(name)) : [];
  if (refused.length > 0) return { status: 403, body: '', withoutCors: true };
  return {
    status: 200,
    body: '',
    headers: {
      ...cors,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': requested.join(', '),
      'access-control-max-age': '86400',
    },
  };
}

let sequence = 0;

/** A unique id with a provider-like prefix. @param {string} prefix */
export function mockId(prefix) {
  sequence += 1;
  return `${prefix}${Date.now().toString(36)}${sequence.toString(36).padStart(4, '0')}`;
}

/** Seconds since the epoch, as the `created` fields carry. */
export const unixNow = () => Math.floor(Date.now() / 1000);
