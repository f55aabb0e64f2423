// @ts-check
/**
 * The node:http side of the MCP test servers: the SDK serves web-standard Request/Response, so
 * each exchange is translated here (the official `@modelcontextprotocol/node` adapter is not a
 * dependency); plus the CORS answers a browser client needs, which the SDK leaves to the host.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * What a CORS-enabled server lets a browser send. Mcp-Param-* names depend on each tool's
 * schema, so any requested header of that form is allowed too (see preflight()).
 */
const allowedRequestHeaders = [
  'Content-Type',
  'Accept',
  'Authorization',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'Last-Event-ID',
  'Mcp-Method',
  'Mcp-Name',
];
const allowedMethods = 'GET, POST, DELETE, OPTIONS';

/**
 * How a server answers browsers: `undefined` sends no CORS header at all; otherwise the allowed
 * origin is reflected and only the `expose` response headers become readable to the page.
 * @typedef {{ expose: string[] } | undefined} CorsPolicy
 */

/** The policy of a server that gets CORS right. @type {CorsPolicy} */
export const fullCors = { expose: ['Mcp-Session-Id', 'WWW-Authenticate'] };

/**
 * The node response of the exchange being served, so a tool can cut the connection that carries
 * its own call (see `vanish` in tools.mjs). Async context follows the SDK's dispatch from the
 * request that delivered the call to the tool handler.
 * @type {AsyncLocalStorage<import('node:http').ServerResponse>}
 */
export const currentExchange = new AsyncLocalStorage();

/** @param {import('node:http').IncomingMessage} req */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(/** @type {Buffer} */ (chunk));
  return Buffer.concat(chunks);
}

/**
 * A web Request for the SDK, aborted when the client goes away before the answer is complete
 * (the modern transport cancels the call's handler on that signal).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {URL} url
 * @param {Buffer} body
 */
export function toWebRequest(req, res, url, body) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item);
  }
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    ...(method !== 'GET' && method !== 'HEAD' && { body: new Uint8Array(body) }),
  });
}

/**
 * Writes a web Response, streaming its body (an SSE stream stays open as long as the SDK keeps
 * it so). Headers already set on `res` (CORS) are kept unless the Response sets the same name.
 * @param {import('node:http').ServerResponse} res
 * @param {Response} response
 */
export async function sendWebResponse(res, response) {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) return void res.end();
  res.flushHeaders();
  // The client hanging up destroys `res`; pipeline then cancels the SDK's stream.
  const body = Readable.fromWeb(
    /** @type {import('node:stream/web').ReadableStream<Uint8Array>} */ (response.body),
  );
  await pipeline(body, res).catch(() => undefined);
}

/**
 * Sets the CORS response headers of `policy` for an allowed origin.
 * @param {import('node:http').ServerResponse} res
 * @param {CorsPolicy} policy
 * @param {string | undefined} origin
 */
export function setCorsHeaders(res, policy, origin) {
  if (!policy || !origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  if (policy.expose.length > 0) res.setHeader('Access-Control-Expose-Headers', policy.expose.join(', '));
}

/**
 * Answers a CORS preflight for an allowed origin.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {CorsPolicy} policy
 */
export function preflight(req, res, policy) {
  setCorsHeaders(res, policy, req.headers.origin);
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^mcp-param-/i.test(name));
  res.setHeader('Access-Control-Allow-Methods', allowedMethods);
  res.setHeader('Access-Control-Allow-Headers', [...allowedRequestHeaders, ...requested].join(', '));
  res.writeHead(204).end();
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A JSON-RPC error with no id, as the SDK's transports answer HTTP-level refusals. @param {number} code @param {string} message */
export function rpcError(code, message) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
