import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startMcpServers } from './start.mjs';
import { toolNames } from './tools.mjs';

type Servers = Awaited<ReturnType<typeof startMcpServers>>;
type ServerName = keyof Servers['urls'];

let servers: Servers;
beforeAll(async () => {
  servers = await startMcpServers();
});
afterAll(async () => {
  await servers.stop();
});
beforeEach(() => {
  servers.requests.length = 0;
  servers.calls.length = 0;
});

const appOrigin = 'http://127.0.0.1:4174';
const url = (name: ServerName) => servers.urls[name];
const sent = (path: string) => servers.requests.filter((entry) => entry.path === path);

/** A connected official client; `mode` 'auto' negotiates the era with server/discover. */
async function connect(transport: Transport, mode: 'legacy' | 'auto' = 'legacy') {
  const client = new Client({ name: 'servers-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}
const streamable = (name: ServerName, init?: RequestInit) =>
  new StreamableHTTPClientTransport(new URL(url(name)), init && { requestInit: init });

const textOf = (result: CallToolResult) =>
  result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');

describe('the tool set', () => {
  it('is listed with its annotations, and each tool answers (2025 era, session)', async () => {
    const transport = streamable('legacy');
    const client = await connect(transport);
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([...toolNames]);
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(byName.delete_file?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      expect(byName.read_only_lookup?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.add?.outputSchema).toMatchObject({ properties: { sum: { type: 'number' } } });

      const call = (name: string, args: Record<string, unknown> = {}) =>
        client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      expect(textOf(await call('echo', { text: 'hello' }))).toBe('hello');
      const sum = await call('add', { a: 2, b: 40 });
      expect([textOf(sum), sum.structuredContent]).toEqual(['42', { sum: 42 }]);
      const [image] = (await call('make_image')).content;
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
      const png = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const failure = await call('fail', { message: 'nope' });
      expect([failure.isError, textOf(failure)]).toEqual([true, 'nope']);
      expect(textOf(await call('slow', { ms: 20 }))).toBe('Waited 20 ms.');
      expect(textOf(await call('delete_file', { path: '/tmp/x' }))).toContain('Deleted /tmp/x');
      expect(textOf(await call('read_only_lookup', { query: 'PKCE' }))).toBe('Proof Key for Code Exchange');
      // A bad argument is a tool error the model can read, as the SDK validates against the schema.
      expect((await call('add', { a: 'two', b: 1 })).isError).toBe(true);

      const posts = sent('/legacy/mcp').filter((entry) => entry.method === 'POST');
      expect(posts[0]?.rpc).toEqual(['initialize']);
      for (const later of posts.slice(1)) {
        expect(later.headers['mcp-session-id']).toBe(transport.sessionId);
        expect(later.headers['mcp-protocol-version']).toBe('2025-11-25');
      }
    } finally {
      await client.close();
    }
  });

  it('slow reports progress, and stops when the client cancels the call', async () => {
    const client = await connect(streamable('legacy'));
    try {
      const progress: number[] = [];
      await client.callTool(
        { name: 'slow', arguments: { ms: 1100 } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect(progress.length).toBeGreaterThanOrEqual(2);

      const abort = new AbortController();
      const call = client.callTool({ name: 'slow', arguments: { ms: 60_000 } }, { signal: abort.signal });
      await expect
        .poll(() => servers.calls.filter((c) => c.tool === 'slow' && c.outcome === 'running').length)
        .toBe(1);
      abort.abort('the user stopped it');
      await expect(call).rejects.toThrow();
      await expect.poll(() => servers.calls.at(-1)?.outcome).toBe('cancelled');
      expect(sent('/legacy/mcp').some((entry) => entry.rpc.includes('notifications/cancelled'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('protocol eras', () => {
  it('/modern/mcp speaks 2026-07-28 only: no initialize, no session, Mcp-Method on every request', async () => {
    const transport = streamable('modern');
    const client = await connect(transport, 'auto');
    try {
      expect(transport.protocolVersion).toBe('2026-07-28');
      expect(
        textOf((await client.callTool({ name: 'echo', arguments: { text: 'now' } })) as CallToolResult),
      ).toBe('now');
      const posts = sent('/modern/mcp');
      expect(posts.map((entry) => entry.rpc[0])).toEqual(['server/discover', 'tools/call']);
      for (const post of posts) {
        expect(post.headers['mcp-method']).toBe(post.rpc[0]);
        expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
        expect(post.headers['mcp-session-id']).toBeUndefined();
      }
      expect(posts.at(-1)?.headers['mcp-name']).toBe('echo');
      expect(posts.at(-1)?.body).toMatchObject({
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      });
    } finally {
      await client.close();
    }
  });

  it('/modern/mcp refuses the 2025 handshake with -32022, so a 2025-only client cannot connect', async () => {
    const response = await rawPost(url('modern'), initializeMessage);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'] } },
    });
    await expect(connect(streamable('modern'))).rejects.toThrow();
  });

  it('/legacy/mcp refuses server/discover, so a negotiating client falls back to initialize', async () => {
    const transport = streamable('legacy');
    const client = await connect(transport, 'auto');
    await client.close();
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(sent('/legacy/mcp').map((entry) => entry.rpc[0])).toEqual(
      expect.arrayContaining(['server/discover', 'initialize']),
    );
  });

  it('/dual/mcp serves both: 2026-07-28 when negotiated, stateless 2025 (no session id) otherwise', async () => {
    const modern = streamable('dual');
    await (await connect(modern, 'auto')).close();
    expect(modern.protocolVersion).toBe('2026-07-28');
    const legacy = streamable('dual');
    const client = await connect(legacy);
    await client.listTools();
    await client.close();
    expect([legacy.protocolVersion, legacy.sessionId]).toEqual(['2025-11-25', undefined]);
  });

  it('/sse is the old HTTP+SSE transport: GET /sse, then POST /messages?sessionId=…', async () => {
    const client = await connect(new SSEClientTransport(new URL(url('sse'))));
    try {
      expect(
        textOf((await client.callTool({ name: 'echo', arguments: { text: 'sse' } })) as CallToolResult),
      ).toBe('sse');
      expect(sent('/sse')[0]?.status).toBe(200);
      const posts = sent('/messages');
      expect(posts.map((entry) => [entry.rpc[0], entry.status])).toContainEqual(['tools/call', 202]);
      expect(posts[0]?.query.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await client.close();
    }
  });
});

const initializeMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const rawPost = (target: string, message: unknown, headers: Record<string, string> = {}) =>
  fetch(target, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Origin: appOrigin,
      ...headers,
    },
    body: JSON.stringify(message),
  });
const preflight = (target: string, origin = appOrigin) =>
  fetch(target, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type, mcp-session-id, mcp-method, mcp-param-region',
    },
  });

describe('CORS and Origin', () => {
  it('CORS servers answer preflights, reflect the origin and expose Mcp-Session-Id', async () => {
    for (const name of ['legacy', 'modern', 'dual', 'oauth', 'sse'] as const) {
      const response = await preflight(url(name), 'http://localhost:5173');
      expect(response.status, name).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), name).toBe('http://localhost:5173');
      expect(response.headers.get('access-control-allow-methods'), name).toBe('GET, POST, DELETE, OPTIONS');
      expect(response.headers.get('access-control-allow-headers'), name).toMatch(
        /^Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name, mcp-param-region$/,
      );
    }
    const answer = await rawPost(url('legacy'), initializeMessage);
    expect(answer.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, WWW-Authenticate');
  });

  it('/no-cors/mcp sends no CORS header at all, though it works for a non-browser client', async () => {
    const response = await preflight(url('no-cors'));
    expect(response.status).toBe(405);
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const answer = await rawPost(url('no-cors'), initializeMessage);
    expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    await (await connect(streamable('no-cors'))).close();
  });

  it('/hidden-session/mcp allows the origin but does not expose Mcp-Session-Id', async () => {
    const answer = await rawPost(url('hidden-session'), initializeMessage);
    expect(answer.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(answer.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    expect(answer.headers.get('mcp-session-id')).toBeTruthy(); // sent, but a page cannot read it
    // What a browser client then sends: no session id, refused.
    const next = await rawPost(url('hidden-session'), {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(next.status).toBe(400);
  });

  it('refuses other origins with 403 and no CORS header', async () => {
    for (const name of ['legacy', 'modern', 'sse'] as const) {
      const response = await preflight(url(name), 'https://evil.example');
      expect([response.status, response.headers.get('access-control-allow-origin')], name).toEqual([
        403,
        null,
      ]);
    }
    expect((await rawPost(url('legacy'), initializeMessage, { Origin: 'https://evil.example' })).status).toBe(
      403,
    );
  });
});

const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: appOrigin },
  body: new URLSearchParams(fields),
});
const redirectUri = `${appOrigin}/oauth/callback`;

/** The consent page's form, answered as a person would: approve (optionally shortening the token's life) or deny. */
async function consent(authorizationUrl: string, decision: 'approve' | 'deny', accessTtl?: number) {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const answer = await fetch(new URL('/oauth-as/authorize', authorizationUrl), {
    ...form({ request_id: requestId, decision, ...(accessTtl && { access_ttl: String(accessTtl) }) }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

describe('OAuth', () => {
  it('runs end to end with fetch: 401 → metadata → registration → consent → PKCE code → token → call → refresh', async () => {
    const resource = url('oauth');
    const unauthorized = await rawPost(resource, initializeMessage);
    expect(unauthorized.status).toBe(401);
    const challenge = unauthorized.headers.get('www-authenticate') ?? '';
    const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(prmUrl).toBe(resource.replace('/oauth/mcp', '/.well-known/oauth-protected-resource/oauth/mcp'));

    const prm = await (await fetch(prmUrl, { headers: { Origin: appOrigin } })).json();
    expect(prm).toMatchObject({ resource, authorization_servers: [url('issuer')] });
    const issuer = new URL(prm.authorization_servers[0]);
    const asMetadataUrl = new URL(`/.well-known/oauth-authorization-server${issuer.pathname}`, issuer);
    const as = await (await fetch(asMetadataUrl, { headers: { Origin: appOrigin } })).json();
    expect(as).toMatchObject({
      issuer: url('issuer'),
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });

    const registration = await fetch(as.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: appOrigin },
      body: JSON.stringify({
        client_name: 'BYOK chat',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        application_type: 'web',
      }),
    });
    expect([registration.status, registration.headers.get('access-control-allow-origin')]).toEqual([
      201,
      appOrigin,
    ]);
    const { client_id: clientId, client_secret: secret } = await registration.json();
    expect([typeof clientId, secret]).toEqual(['string', undefined]);

    const { verifier, challenge: codeChallenge } = pkcePair();
    const authorize = new URL(as.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      state: 'state-1',
      resource,
      scope: 'mcp',
    }).toString();
    const denied = await consent(authorize.href, 'deny');
    expect(Object.fromEntries(denied.searchParams)).toEqual({
      error: 'access_denied',
      state: 'state-1',
      iss: as.issuer,
    });
    const back = await consent(authorize.href, 'approve');
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect([back.searchParams.get('state'), back.searchParams.get('iss')]).toEqual(['state-1', as.issuer]);
    const code = back.searchParams.get('code') ?? '';

    const exchange = (fields: Record<string, string>) =>
      fetch(as.token_endpoint, form({ client_id: clientId, ...fields }));
    const codeGrant = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, resource };
    const wrong = await exchange({ ...codeGrant, code_verifier: pkcePair().verifier });
    expect([wrong.status, (await wrong.json()).error]).toEqual([400, 'invalid_grant']);
    // The failed attempt used the code up, as single-use codes are.
    const reused = await exchange({ ...codeGrant, code_verifier: verifier });
    expect(reused.status).toBe(400);

    const second = await consent(authorize.href, 'approve', 1);
    const tokens = await exchange({
      ...codeGrant,
      code: second.searchParams.get('code') ?? '',
      code_verifier: verifier,
    });
    expect([tokens.status, tokens.headers.get('access-control-allow-origin')]).toEqual([200, appOrigin]);
    const issued = await tokens.json();
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 1, scope: 'mcp' });

    const bearer = (accessToken: string) => ({ headers: { Authorization: `Bearer ${accessToken}` } });
    const client = await connect(streamable('oauth', bearer(issued.access_token)));
    expect(
      textOf((await client.callTool({ name: 'echo', arguments: { text: 'authorized' } })) as CallToolResult),
    ).toBe('authorized');
    await client.close();

    // The server (in this process) reads the clock: moved past the token's one second rather than
    // waited out, and held there, so the renewed one-second token is checked within its life
    // however slow a busy machine is.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1100 });
    onTestFinished(() => void vi.useRealTimers());
    const expired = await rawPost(resource, initializeMessage, {
      Authorization: `Bearer ${issued.access_token}`,
    });
    expect([expired.status, expired.headers.get('www-authenticate')]).toEqual([
      401,
      expect.stringContaining('error_description="Token has expired"'),
    ]);

    const refreshed = await exchange({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
      resource,
    });
    expect(refreshed.status).toBe(200);
    const renewed = await refreshed.json();
    expect(renewed.refresh_token).not.toBe(issued.refresh_token);
    expect((await rawPost(resource, initializeMessage, bearer(renewed.access_token).headers)).status).toBe(
      200,
    );
    // Refresh tokens rotate: the old one is spent.
    const replayed = await exchange({ grant_type: 'refresh_token', refresh_token: issued.refresh_token });
    expect([replayed.status, (await replayed.json()).error]).toEqual([400, 'invalid_grant']);

    const tokenRequest = servers.requests.find((entry) => entry.path === '/oauth-as/token');
    expect(tokenRequest?.body).toMatchObject({ grant_type: 'authorization_code', resource });
  });

  it('the official client completes its flow against this authorization server', async () => {
    let stored: {
      client?: object;
      tokens?: object;
      verifier?: string;
      discovery?: object;
      redirectedTo?: URL;
    } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: redirectUri,
      clientMetadata: {
        client_name: 'servers-test',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => stored.client as never,
      saveClientInformation: (client) => void (stored.client = client),
      tokens: () => stored.tokens as never,
      saveTokens: (tokens) => void (stored.tokens = tokens),
      redirectToAuthorization: (authorizationUrl) => void (stored.redirectedTo = authorizationUrl),
      saveCodeVerifier: (verifier) => void (stored.verifier = verifier),
      codeVerifier: () => stored.verifier ?? '',
      // Lets the client bind the callback to the authorization server it started with (SEP-2352).
      saveDiscoveryState: (state) => void (stored.discovery = state),
      discoveryState: () => stored.discovery as never,
    };
    const transport = new StreamableHTTPClientTransport(new URL(url('oauth')), { authProvider: provider });
    await expect(connect(transport)).rejects.toThrow(/unauthorized/i);
    expect(stored.redirectedTo?.searchParams.get('resource')).toBe(url('oauth'));
    const back = await consent(stored.redirectedTo?.href ?? '', 'approve');
    await transport.finishAuth(back.searchParams);
    const client = await connect(
      new StreamableHTTPClientTransport(new URL(url('oauth')), { authProvider: provider }),
    );
    expect(
      ((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })) as CallToolResult)
        .structuredContent,
    ).toEqual({
      sum: 2,
    });
    await client.close();
    const registered = servers.requests.find((entry) => entry.path === '/oauth-as/register');
    expect(registered?.body).toMatchObject({
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    stored = {};
  });

  it('/oauth-hidden-challenge/mcp hides WWW-Authenticate from pages; its metadata stays at the well-known URL', async () => {
    const unauthorized = await rawPost(url('oauth-hidden-challenge'), initializeMessage);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id');
    const prm = await fetch(
      url('oauth-hidden-challenge').replace(
        '/oauth-hidden-challenge/',
        '/.well-known/oauth-protected-resource/oauth-hidden-challenge/',
      ),
    );
    expect(await prm.json()).toMatchObject({ resource: url('oauth-hidden-challenge') });
  });
});

describe('a server that disappears', () => {
  it.each([
    ['legacy', (name: ServerName) => streamable(name)],
    ['modern', (name: ServerName) => streamable(name)],
    ['sse', (name: ServerName) => new SSEClientTransport(new URL(url(name)))],
  ] as const)('vanish drops the connection mid-call on %s', async (name, transport) => {
    const client = await connect(transport(name), name === 'modern' ? 'auto' : 'legacy');
    try {
      // The official client fails a modern call at once ("fetch failed"), but on a dropped SSE
      // stream (2025-era POST stream, or the HTTP+SSE stream) it waits for the request timeout.
      const call = client.callTool({ name: 'vanish', arguments: { after_ms: 10 } }, { timeout: 500 });
      await expect(call).rejects.toThrow(name === 'modern' ? /fetch failed/ : /timed out/);
      expect(servers.calls.at(-1)).toMatchObject({ tool: 'vanish', outcome: 'vanished' });
      const carrier = () =>
        name === 'sse' ? sent('/sse') : sent(`/${name}/mcp`).filter((entry) => entry.rpc[0] === 'tools/call');
      await expect.poll(() => carrier().at(-1)?.ended).toBe('dropped');
    } finally {
      await client.close();
    }
  });

  it('a forgotten session answers 404, as after a server restart', async () => {
    // A tag in the path keeps this test's session apart from the others'.
    const client = await connect(new StreamableHTTPClientTransport(new URL(`${url('legacy')}/forget`)));
    const control = await fetch(`${url('control')}/forget-sessions?path=/legacy/mcp/forget`, {
      method: 'POST',
    });
    expect(await control.json()).toEqual({ forgotten: 1 });
    await expect(client.listTools()).rejects.toThrow(/404|not found/i);
    await client.close();
  });
});

describe('control', () => {
  it('records requests by path prefix, and forgets them on DELETE', async () => {
    await rawPost(`${url('legacy')}/tagged`, initializeMessage);
    const recorded = await (await fetch(`${url('control')}/requests?path=/legacy/mcp/tagged`)).json();
    expect(recorded).toMatchObject([
      {
        method: 'POST',
        path: '/legacy/mcp/tagged',
        rpc: ['initialize'],
        status: 200,
        headers: { origin: appOrigin },
      },
    ]);
    await fetch(`${url('control')}/requests`, { method: 'DELETE' });
    expect(await (await fetch(`${url('control')}/requests`)).json()).toEqual([]);
  });

  it('the CLI prints its URLs and stops by itself after --max-lifetime', async () => {
    const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));
    const child = spawn(process.execPath, [cli, '--port', '0', '--max-lifetime', '1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    expect(output).toMatch(/^MCP test servers listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(output).toMatch(/^ {2}modern +http:\/\/127\.0\.0\.1:\d+\/modern\/mcp$/m);
    expect(output).toContain('max lifetime');
  });
});
