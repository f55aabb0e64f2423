// @ts-check
/**
 * Real MCP servers for the tests, built with the official SDKs and routed by path on one loopback
 * port. One origin is enough: CORS is decided per response, so servers that differ in CORS can
 * share it, and the authorization server sits under its own path (an issuer with a path, which
 * also exercises RFC 8414's path-aware metadata URL). See README.md for what each server is for.
 */

import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isInitializeRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  currentExchange,
  fullCors,
  preflight,
  readBody,
  rpcError,
  sendJson,
  sendWebResponse,
  setCorsHeaders,
  toWebRequest,
} from './http.mjs';
import { createAuthorizationServer, issuerPath } from './oauth.mjs';
import { createToolServer } from './tools.mjs';

/**
 * @typedef {import('./http.mjs').CorsPolicy} CorsPolicy
 * @typedef {import('./tools.mjs').ToolCall} ToolCall
 *
 * @typedef {object} StreamableServer a Streamable HTTP endpoint at /<name>/mcp
 * @property {'sessions' | 'modern' | 'dual'} serving `sessions`: the 2025-era transport with
 *   Mcp-Session-Id; `modern`: 2026-07-28 only (`createMcpHandler`, legacy 'reject');
 *   `dual`: `createMcpHandler`'s default, 2026-07-28 plus stateless 2025 serving
 * @property {CorsPolicy} cors
 * @property {boolean} oauth whether a bearer token from the authorization server is required
 *
 * @typedef {object} RecordedRequest
 * @property {number} seq
 * @property {string} time ISO timestamp
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string>} headers lowercased names, values as sent (tokens included: these are throwaway)
 * @property {string[]} rpc the JSON-RPC methods in the body ('response' for a client's answer)
 * @property {unknown} body parsed JSON or form fields; the raw text otherwise; null when empty
 * @property {number | undefined} status once the response head is sent
 * @property {'finished' | 'dropped' | undefined} ended whether the response completed or the
 *   connection closed first; undefined while it is open (an SSE stream)
 */

/** @satisfies {Record<string, StreamableServer>} */
const streamableServers = {
  legacy: { serving: 'sessions', cors: fullCors, oauth: false },
  modern: { serving: 'modern', cors: fullCors, oauth: false },
  dual: { serving: 'dual', cors: fullCors, oauth: false },
  'no-cors': { serving: 'sessions', cors: undefined, oauth: false },
  'hidden-session': { serving: 'sessions', cors: { expose: ['WWW-Authenticate'] }, oauth: false },
  oauth: { serving: 'sessions', cors: fullCors, oauth: true },
  'oauth-hidden-challenge': { serving: 'sessions', cors: { expose: ['Mcp-Session-Id'] }, oauth: true },
};
/** @typedef {keyof typeof streamableServers} StreamableName */

/** /<name>/mcp, optionally /<name>/mcp/<tag>: a tag only sets requests apart in the recordings. */
const streamablePath = /^\/([a-z-]+)\/mcp(?:\/([^/]+))?$/;
/** The HTTP+SSE pair: GET /sse[/<tag>] opens the stream, which names POST /messages[/<tag>]?sessionId=…. */
const ssePath = /^\/(sse|messages)(?:\/([^/]+))?$/;
/** The authorization server and metadata documents answer any origin, as public OAuth endpoints do. */
const anyOriginCors = { expose: [] };
const loopbackHosts = ['127.0.0.1', '::1', 'localhost'];

/** @param {string} path @returns {[StreamableName, StreamableServer] | undefined} */
function streamableOf(path) {
  const name = streamablePath.exec(path)?.[1];
  return name && Object.hasOwn(streamableServers, name)
    ? [/** @type {StreamableName} */ (name), streamableServers[/** @type {StreamableName} */ (name)]]
    : undefined;
}

/** @param {string} text */
function parseJson(text) {
  try {
    return /** @type {unknown} */ (JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** @param {unknown} message @returns {string[]} */
function rpcMethods(message) {
  const messages = Array.isArray(message) ? message : [message];
  return messages.flatMap((item) =>
    item && typeof item === 'object' && 'jsonrpc' in item
      ? ['method' in item && typeof item.method === 'string' ? item.method : 'response']
      : [],
  );
}

/**
 * Starts every test MCP server on one loopback port.
 * @param {{ port?: number, host?: string }} [options] port 0 picks a free one
 */
export async function startMcpServers({ port = 0, host = '127.0.0.1' } = {}) {
  if (!loopbackHosts.includes(host))
    throw new Error(`The MCP test servers bind loopback addresses only, not ${host}`);
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {(ToolCall & { path: string })[]} */
  const calls = [];
  /** Live 2025-era sessions, by Mcp-Session-Id. @type {Map<string, { transport: WebStandardStreamableHTTPServerTransport, path: string }>} */
  const sessions = new Map();
  /** Open HTTP+SSE streams, by their sessionId. @type {Map<string, { transport: SSEServerTransport, path: string }>} */
  const sseStreams = new Map();

  /**
   * A tool server whose calls are recorded under `path`; `vanish` cuts the exchange carrying the
   * call unless the transport answers elsewhere (the HTTP+SSE stream).
   * @param {string} name @param {string} path @param {() => void} [vanish]
   */
  const toolServer = (name, path, vanish = () => currentExchange.getStore()?.destroy()) =>
    createToolServer(`mcp-test-${name}`, {
      record: (call) => void calls.push(Object.assign(call, { path })),
      vanish,
    });

  const authServer = createAuthorizationServer({
    isResource: (resource, origin) =>
      resource.origin === origin &&
      !resource.search &&
      !resource.hash &&
      !!streamableOf(resource.pathname)?.[1].oauth,
  });

  /** One `createMcpHandler` per per-request server: it holds nothing between requests but in-flight calls. */
  const handlers = new Map(
    Object.entries(streamableServers)
      .filter(([, server]) => server.serving !== 'sessions')
      .map(([name, server]) => [
        name,
        createMcpHandler(
          (ctx) => toolServer(name, ctx.requestInfo ? new URL(ctx.requestInfo.url).pathname : ''),
          {
            legacy: server.serving === 'modern' ? 'reject' : 'stateless',
          },
        ),
      ]),
  );

  /**
   * @param {string} name @param {string} path
   * @param {Request} request @param {Buffer} body
   * @param {import('@modelcontextprotocol/server').AuthInfo | undefined} authInfo
   * @returns {Promise<Response>}
   */
  async function serveStreamable(name, path, request, body, authInfo) {
    const handler = handlers.get(name);
    if (handler) return handler.fetch(request, { ...(authInfo && { authInfo }) });
    // 2025-era sessions, wired as the SDK documents: one transport and server per session.
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      // An unknown (or forgotten) session is a 404: the client must initialize again.
      if (!session || session.path !== path)
        return Response.json(rpcError(-32001, 'Session not found'), { status: 404 });
      return session.transport.handleRequest(request, { ...(authInfo && { authInfo }) });
    }
    const message = parseJson(body.toString('utf8'));
    if (request.method !== 'POST' || !isInitializeRequest(message))
      return Response.json(rpcError(-32000, 'Bad Request: No valid session ID provided'), { status: 400 });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, { transport, path }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await toolServer(name, path).connect(transport);
    return transport.handleRequest(request, { parsedBody: message, ...(authInfo && { authInfo }) });
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    // DNS rebinding protection, as the SDK's own middleware does for local servers.
    const hostCheck = validateHostHeader(req.headers.host, localhostAllowedHostnames());
    if (!hostCheck.ok) return sendJson(res, 403, rpcError(-32000, hostCheck.message));
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const method = req.method ?? 'GET';
    const origin = req.headers.origin;
    if (url.pathname.startsWith('/__control/')) return control(method, url, res);
    const body = await readBody(req);
    record(req, res, url, body);
    const webRequest = () => toWebRequest(req, res, url, body);

    if (authServer.owns(url.pathname)) {
      // The authorize page is a top-level navigation; every other endpoint is called with fetch.
      if (!url.pathname.endsWith('/authorize')) {
        if (method === 'OPTIONS') return preflight(req, res, anyOriginCors);
        setCorsHeaders(res, anyOriginCors, origin);
      }
      const response = await authServer.handle(webRequest());
      return response ? sendWebResponse(res, response) : sendJson(res, 404, { error: 'not_found' });
    }

    const resourcePath = /^\/\.well-known\/oauth-protected-resource(\/.+)$/.exec(url.pathname)?.[1];
    if (resourcePath && streamableOf(resourcePath)?.[1].oauth) {
      if (method === 'OPTIONS') return preflight(req, res, anyOriginCors);
      setCorsHeaders(res, anyOriginCors, origin);
      return sendWebResponse(res, authServer.protectedResourceMetadata(new URL(resourcePath, url.origin)));
    }

    const sse = ssePath.exec(url.pathname);
    const streamable = streamableOf(url.pathname);
    if (!sse && !streamable)
      return sendJson(res, 404, rpcError(-32000, `Nothing at ${method} ${url.pathname}`));

    // Every MCP server checks Origin (the spec's MUST, against DNS rebinding): loopback pages only.
    const originCheck = validateOriginHeader(origin, localhostAllowedOrigins());
    if (!originCheck.ok) return sendJson(res, 403, rpcError(-32000, originCheck.message));
    const cors = streamable ? streamable[1].cors : fullCors;
    if (method === 'OPTIONS') {
      // A server that knows nothing of CORS answers a preflight as any unsupported method.
      if (!cors) return void res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
      return preflight(req, res, cors);
    }
    setCorsHeaders(res, cors, origin);

    if (sse) {
      const tag = sse[2] ? `/${sse[2]}` : '';
      if (sse[1] === 'sse' && method === 'GET') {
        // v1's transport writes to the node response itself; the SSE stream carries every answer.
        const transport = new SSEServerTransport(`/messages${tag}`, res);
        sseStreams.set(transport.sessionId, { transport, path: url.pathname });
        transport.onclose = () => void sseStreams.delete(transport.sessionId);
        const server = toolServer('sse', url.pathname, () => res.destroy());
        // v1's SSEServerTransport meets v2's Transport interface (start/send/close and the
        // callbacks); the types differ only in each SDK's own message type declarations.
        await server.connect(
          /** @type {import('@modelcontextprotocol/server').Transport} */ (
            /** @type {unknown} */ (transport)
          ),
        );
        return;
      }
      if (sse[1] === 'messages' && method === 'POST') {
        const stream = sseStreams.get(url.searchParams.get('sessionId') ?? '');
        if (!stream || stream.path !== `/sse${tag}`)
          return void res.writeHead(400).end('No transport found for sessionId');
        const text = body.toString('utf8');
        return stream.transport.handlePostMessage(req, res, parseJson(text) ?? text);
      }
      return void res.writeHead(405, { Allow: sse[1] === 'sse' ? 'GET' : 'POST' }).end();
    }

    const [name, server] = /** @type {[StreamableName, StreamableServer]} */ (streamable);
    const request = webRequest();
    /** @type {import('@modelcontextprotocol/server').AuthInfo | undefined} */
    let authInfo;
    if (server.oauth) {
      const checked = await authServer.checkBearer(request, new URL(url.pathname, url.origin));
      if (checked instanceof Response) return sendWebResponse(res, checked);
      authInfo = checked;
    }
    await currentExchange.run(res, async () =>
      sendWebResponse(res, await serveStreamable(name, url.pathname, request, body, authInfo)),
    );
  }

  /**
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   * @param {URL} url @param {Buffer} body
   */
  function record(req, res, url, body) {
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const text = body.toString('utf8');
    const parsed = (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(text))
      : parseJson(text);
    /** @type {RecordedRequest} */
    const entry = {
      seq: requests.length + 1,
      time: new Date().toISOString(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      rpc: rpcMethods(parsed),
      body: text === '' ? null : (parsed ?? text),
      status: undefined,
      ended: undefined,
    };
    requests.push(entry);
    // Known once the head is out, so an open SSE stream shows its status too.
    Object.defineProperty(entry, 'status', {
      enumerable: true,
      get: () => (res.headersSent ? res.statusCode : undefined),
    });
    res.once('close', () => (entry.ended = res.writableFinished ? 'finished' : 'dropped'));
  }

  /**
   * GET /__control/requests[?path=<prefix>] · GET /__control/calls[?path=<prefix>] ·
   * DELETE /__control/requests (forgets both) · POST /__control/forget-sessions[?path=<prefix>]
   * (as a restarted server would: the next request with those Mcp-Session-Ids gets 404).
   * @param {string} method @param {URL} url @param {import('node:http').ServerResponse} res
   */
  function control(method, url, res) {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (method === 'OPTIONS')
      return void res
        .writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS' })
        .end();
    const prefix = url.searchParams.get('path') ?? '';
    const route = `${method} ${url.pathname}`;
    if (route === 'GET /__control/requests')
      return sendJson(
        res,
        200,
        requests.filter((entry) => entry.path.startsWith(prefix)),
        cors,
      );
    if (route === 'GET /__control/calls')
      return sendJson(
        res,
        200,
        calls.filter((call) => call.path.startsWith(prefix)),
        cors,
      );
    if (route === 'DELETE /__control/requests') {
      requests.length = 0;
      calls.length = 0;
      return sendJson(res, 200, { cleared: true }, cors);
    }
    if (route === 'POST /__control/forget-sessions') {
      const forgotten = [...sessions].filter(([, session]) => session.path.startsWith(prefix));
      for (const [id, session] of forgotten) {
        sessions.delete(id);
        void session.transport.close();
      }
      return sendJson(res, 200, { forgotten: forgotten.length }, cors);
    }
    return sendJson(res, 404, { error: `No control at ${route}` }, cors);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((/** @type {unknown} */ error) => {
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, rpcError(-32603, `Test server failure: ${String(error)}`));
    });
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  const urls = /** @type {Record<StreamableName | 'sse' | 'issuer' | 'control', string>} */ ({
    ...Object.fromEntries(Object.keys(streamableServers).map((name) => [name, `${base}/${name}/mcp`])),
    sse: `${base}/sse`,
    issuer: base + issuerPath,
    control: `${base}/__control`,
  });

  return {
    urls,
    port: actualPort,
    requests,
    calls,
    /** Stops every server, cutting open streams. @returns {Promise<void>} */
    async stop() {
      await Promise.allSettled([
        ...[...sessions.values()].map((session) => session.transport.close()),
        ...[...sseStreams.values()].map((stream) => stream.transport.close()),
        ...[...handlers.values()].map((handler) => handler.close()),
      ]);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
