import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMcpServers } from '../../../tools/mcp-servers/start.mjs';
import {
  createMcpSource,
  type McpDeps,
  type McpServerConfig,
  type McpSource,
  type SignInWindow,
} from './index.ts';
import { signInChannel, signInMessageType } from './sign-in-channel.ts';
import { browserBlockedSentence } from './words.ts';

/**
 * The MCP client against the real test servers (tools/mcp-servers): each era and transport,
 * fallbacks as the server saw them, results, cancellation, a server that vanishes, an expired
 * session, and OAuth from the first 401 to a call, with a sign-in window that approves by fetch.
 */

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

const opened: McpSource[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((source) => source.disconnect()));
});

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    read: async (key: string) => map.get(key),
    write: async (key: string, value: string | undefined) => {
      if (value === undefined) map.delete(key);
      else map.set(key, value);
    },
  };
}

const appOrigin = 'http://127.0.0.1:4174';

/**
 * fetch as a page at appOrigin sees it: an Origin header goes out; an answer without
 * Access-Control-Allow-Origin for it is a TypeError, and of its headers only the safelisted and
 * exposed ones are readable. (Preflights are not played: the servers answer them as they should.)
 */
async function browserFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.set('Origin', appOrigin);
  const response = await fetch(input, { ...init, headers });
  if (response.headers.get('access-control-allow-origin') !== appOrigin) {
    await response.body?.cancel();
    throw new TypeError('Failed to fetch');
  }
  const exposed = new Set(
    (response.headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .concat([
        'cache-control',
        'content-language',
        'content-length',
        'content-type',
        'expires',
        'last-modified',
        'pragma',
      ]),
  );
  const readable = new Headers();
  response.headers.forEach((value, name) => {
    if (exposed.has(name)) readable.set(name, value);
  });
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: readable,
  });
}

function source(name: ServerName, config: Partial<McpServerConfig> = {}, deps: Partial<McpDeps> = {}) {
  const created = createMcpSource(
    { id: `test-${name}`, name: `Test ${name}`, url: servers.urls[name], auth: 'none', ...config },
    {
      secrets: { headers: async () => ({}) },
      oauthStore: memoryStore(),
      redirectUrl: `${appOrigin}/oauth-callback.html`,
      openSignInWindow: () => {
        throw new Error('No window may open by itself');
      },
      timeouts: { connectMs: 10_000, callMs: 20_000, signInMs: 15_000, cutOffMs: 100 },
      ...deps,
    },
  );
  opened.push(created);
  return created;
}

const never = new AbortController().signal;
const textOf = (outcome: Awaited<ReturnType<McpSource['call']>>) =>
  outcome.content.map((piece) => (piece.type === 'text' ? piece.text : `[${piece.type}]`)).join('');
const rpcSent = (path: string) =>
  servers.requests
    .filter((entry) => entry.path === path)
    .map((entry) => `${entry.method} ${entry.rpc.join(',')}`.trim());

describe('eras and transports', () => {
  it('speaks 2026-07-28 to a modern server', async () => {
    const modern = source('modern');
    expect(await modern.connect()).toEqual({
      state: 'connected',
      tools: 8,
      // Its prompts: prompts.test.ts.
      prompts: expect.any(Array),
      protocolVersion: '2026-07-28',
      era: 'modern',
      transport: 'streamable-http',
    });
    expect(textOf(await modern.call('add', { a: 2, b: 3 }, never))).toBe('5');
    expect(rpcSent('/modern/mcp')[0]).toBe('POST server/discover');
    expect(rpcSent('/modern/mcp')).not.toContain('POST initialize');
  });

  it('falls back to 2025-11-25 (initialize, with a session) when server/discover is refused', async () => {
    const legacy = source('legacy');
    expect(await legacy.connect()).toMatchObject({
      state: 'connected',
      protocolVersion: '2025-11-25',
      era: 'legacy',
      transport: 'streamable-http',
    });
    expect(textOf(await legacy.call('echo', { text: 'hello' }, never))).toBe('hello');
    const sent = rpcSent('/legacy/mcp');
    expect(sent.slice(0, 2)).toEqual(['POST server/discover', 'POST initialize']);
    expect(
      servers.requests.some((entry) => entry.path === '/legacy/mcp' && entry.headers['mcp-session-id']),
    ).toBe(true);
  });

  it('prefers 2026-07-28 on a server that speaks both', async () => {
    expect(await source('dual').connect()).toMatchObject({ state: 'connected', era: 'modern' });
  });

  it('falls back to HTTP+SSE when the streamable POST is refused, in that order', async () => {
    const sse = source('sse');
    expect(await sse.connect()).toMatchObject({ state: 'connected', era: 'legacy', transport: 'sse' });
    expect(textOf(await sse.call('echo', { text: 'over SSE' }, never))).toBe('over SSE');
    const onSse = servers.requests.filter((entry) => entry.path === '/sse');
    expect(onSse.map((entry) => `${entry.method} ${entry.rpc.join(',')} ${entry.status}`.trim())).toEqual([
      'POST server/discover 405',
      'POST initialize 405',
      'GET  200',
    ]);
  });

  it('fails with one sentence when nothing answers', async () => {
    const port = await closedPort();
    const down = createMcpSource(
      { id: 'down', name: 'Down', url: `http://127.0.0.1:${port}/mcp`, auth: 'none' },
      { secrets: { headers: async () => ({}) }, oauthStore: memoryStore() },
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await down.connect()).toEqual({
      state: 'failed',
      kind: 'network',
      message: `Could not reach 127.0.0.1:${port}: check the address and that the server is running.`,
    });
    // A failure is not retried at each use: list() says it at once.
    await expect(down.list()).rejects.toThrow(`Could not reach 127.0.0.1:${port}`);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('says the browser blocked a server that does not allow this origin (CORS, as a browser applies it)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const noCors = source('no-cors', {}, { fetch: browserFetch, pageOrigin: appOrigin });
    expect(await noCors.connect()).toEqual({
      state: 'failed',
      kind: 'cors',
      message: browserBlockedSentence(new URL(servers.urls['no-cors']).host, appOrigin),
    });
  });

  it('says the browser blocked a server that does not expose Mcp-Session-Id', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hidden = source('hidden-session', {}, { fetch: browserFetch, pageOrigin: appOrigin });
    expect(await hidden.connect()).toMatchObject({ state: 'failed', kind: 'cors' });
    // The same server, its session id readable (as a browser sees a correct server): connects.
    expect(
      await source('legacy', {}, { fetch: browserFetch, pageOrigin: appOrigin }).connect(),
    ).toMatchObject({
      state: 'connected',
    });
  });

  it('sends the secret headers on every request', async () => {
    const withKey = source('legacy', {}, { secrets: { headers: async () => ({ 'X-Api-Key': 'k-123' }) } });
    await withKey.connect();
    await withKey.call('echo', { text: 'x' }, never);
    const onServer = servers.requests.filter((entry) => entry.path === '/legacy/mcp');
    expect(onServer.length).toBeGreaterThan(2);
    expect(onServer.every((entry) => entry.headers['x-api-key'] === 'k-123')).toBe(true);
  });
});

describe('tools and results', () => {
  it('offers the tools with hints, destructive only when said explicitly', async () => {
    const tools = await source('modern').list();
    const byName = Object.fromEntries(tools.map((tool) => [tool.definition.name, tool]));
    expect(Object.keys(byName)).toEqual([
      'echo',
      'add',
      'make_image',
      'fail',
      'slow',
      'delete_file',
      'read_only_lookup',
      'vanish',
    ]);
    expect(byName.delete_file?.hints).toEqual({ title: 'Delete file', readOnly: false, destructive: true });
    expect(byName.read_only_lookup?.hints).toEqual({ title: 'Look up', readOnly: true });
    // No annotations: the spec's default destructiveHint (true) is not assumed.
    expect(byName.echo?.hints).toEqual({ title: 'Echo' });
    expect(byName.echo).toMatchObject({
      server: 'test-modern',
      definition: {
        description: 'Returns the given text unchanged.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    });
  });

  it('turns an image into a Blob', async () => {
    const outcome = await source('legacy').call('make_image', {}, never);
    const [piece] = outcome.content;
    expect(piece).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const blob = piece?.type === 'image' ? piece.blob : new Blob();
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('passes isError through', async () => {
    expect(await source('modern').call('fail', { message: 'Nope.' }, never)).toEqual({
      content: [{ type: 'text', text: 'Nope.' }],
      isError: true,
    });
  });

  it('answers a name it does not know with a tool error', async () => {
    const outcome = await source('modern').call('no_such_tool', {}, never);
    expect(outcome).toMatchObject({ isError: true });
    expect(textOf(outcome)).toBe('The server Test modern has no tool named no_such_tool.');
  });
});

describe('cancelling and losing calls', () => {
  for (const name of ['legacy', 'modern'] as const) {
    it(`stops the slow tool when the signal aborts (${name})`, async () => {
      const slow = source(name);
      await slow.connect();
      const stop = new AbortController();
      const call = slow.call('slow', { ms: 20_000 }, stop.signal);
      await until(() => servers.calls.some((entry) => entry.tool === 'slow'));
      const started = Date.now();
      stop.abort();
      await expect(call).rejects.toThrow('The call was stopped.');
      expect(Date.now() - started).toBeLessThan(1000);
      await until(() => servers.calls.find((entry) => entry.tool === 'slow')?.outcome === 'cancelled');
      if (name === 'legacy') expect(rpcSent('/legacy/mcp')).toContain('POST notifications/cancelled');
    });
  }

  for (const name of ['legacy', 'modern', 'sse'] as const) {
    it(`says the server closed the connection when it vanishes mid-call, then reconnects (${name})`, async () => {
      const vanishing = source(name);
      await vanishing.connect();
      const started = Date.now();
      const error = await vanishing
        .call('vanish', { after_ms: 50 }, never)
        .catch((caught: unknown) => caught);
      expect((error as Error).message).toBe(
        `The server Test ${name} closed the connection before answering.`,
      );
      expect(Date.now() - started).toBeLessThan(5000);
      expect(servers.calls.find((entry) => entry.tool === 'vanish')?.outcome).toBe('vanished');
      expect(textOf(await vanishing.call('echo', { text: 'back' }, never))).toBe('back');
    });
  }

  it('starts a new session once when the server forgot the old one (404)', async () => {
    const legacy = source('legacy');
    await legacy.connect();
    await fetch(`${servers.urls.control}/forget-sessions?path=/legacy/`, { method: 'POST' });
    servers.requests.length = 0;
    expect(textOf(await legacy.call('echo', { text: 'again' }, never))).toBe('again');
    const seen = servers.requests
      .filter((entry) => entry.path === '/legacy/mcp')
      .map((entry) => `${entry.method} ${entry.rpc.join(',')} ${entry.status}`);
    expect(seen[0]).toBe('POST tools/call 404');
    expect(seen).toContain('POST initialize 200');
    expect(seen.at(-1)).toMatch(/^POST tools\/call 200/);
    expect(legacy.status()).toMatchObject({ state: 'connected', era: 'legacy' });
  });

  it('starts one new session for calls that all found theirs expired', async () => {
    const legacy = source('legacy');
    await legacy.connect();
    await fetch(`${servers.urls.control}/forget-sessions?path=/legacy/`, { method: 'POST' });
    servers.requests.length = 0;
    const answers = await Promise.all(['a', 'b', 'c'].map((text) => legacy.call('echo', { text }, never)));
    expect(answers.map(textOf)).toEqual(['a', 'b', 'c']);
    expect(rpcSent('/legacy/mcp').filter((sent) => sent === 'POST initialize')).toHaveLength(1);
  });
});

/** A sign-in window that does what a person would: approve (or deny), then the callback page's post. */
function approvingWindow(
  options: {
    decision?: 'approve' | 'deny';
    accessTtl?: number;
    tamper?: (params: URLSearchParams) => void;
    closeOnly?: boolean;
    /** Reads as closed once sent away (a page with COOP), answers after this long. */
    cutOffThenAnswerAfterMs?: number;
    /** Never answers. */
    idle?: boolean;
    /** Closed by the user this long after it went to the authorization server (past the cut-off). */
    closeAfterMs?: number;
  } = {},
) {
  const seen: string[] = [];
  let closed = false;
  const window: SignInWindow & { seen: string[]; done: Promise<void> } = {
    seen,
    done: Promise.resolve(),
    get closed() {
      return closed;
    },
    close() {
      closed = true;
    },
    navigate(url) {
      seen.push(url);
      window.done = (async () => {
        const close = async () => {
          await new Promise((resolve) => setTimeout(resolve, options.closeAfterMs ?? 0));
          closed = true;
        };
        if (options.closeOnly) return close();
        if (options.idle) return;
        if (options.cutOffThenAnswerAfterMs !== undefined) {
          closed = true;
          await new Promise((resolve) => setTimeout(resolve, options.cutOffThenAnswerAfterMs));
        }
        const page = await (await fetch(url)).text();
        const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1] ?? '';
        const form = new URLSearchParams({ request_id: requestId, decision: options.decision ?? 'approve' });
        if (options.accessTtl) form.set('access_ttl', String(options.accessTtl));
        const answer = await fetch(new URL('/oauth-as/authorize', url), {
          method: 'POST',
          body: form,
          redirect: 'manual',
        });
        const callback = new URL(answer.headers.get('location') ?? '');
        options.tamper?.(callback.searchParams);
        // What public/oauth-callback.js sends.
        const channel = new BroadcastChannel(signInChannel);
        channel.postMessage({ type: signInMessageType, search: callback.search });
        channel.close();
        await close();
      })();
    },
  };
  return window;
}

describe('OAuth', () => {
  const oauthSource = (
    window: SignInWindow | null,
    store = memoryStore(),
    config: Partial<McpServerConfig> = {},
  ) => source('oauth', { auth: 'oauth', ...config }, { oauthStore: store, openSignInWindow: () => window });

  it('needs a sign-in after the first 401, and opens no window by itself', async () => {
    let windows = 0;
    const oauth = source('oauth', { auth: 'oauth' }, { openSignInWindow: () => (windows++, null) });
    expect(await oauth.connect()).toEqual({ state: 'needs-sign-in' });
    await expect(oauth.list()).rejects.toThrow('needs a sign-in');
    expect(windows).toBe(0);
    // Nothing registered, nothing asked of the authorization server.
    expect(servers.requests.some((entry) => entry.path.startsWith('/oauth-as/'))).toBe(false);
  });

  it('signs in from the window to a call: registration, PKCE, resource, state, iss', async () => {
    const store = memoryStore();
    const window = approvingWindow();
    const oauth = oauthSource(window, store);
    expect(await oauth.connect()).toEqual({ state: 'needs-sign-in' });
    const statuses: string[] = [];
    oauth.subscribe((status) => statuses.push(status.state));
    expect(await oauth.signIn()).toMatchObject({ state: 'connected', tools: 8 });
    expect(statuses).toEqual(['disconnected', 'signing-in', 'connecting', 'connected']);
    expect(textOf(await oauth.call('echo', { text: 'signed in' }, never))).toBe('signed in');

    const registration = servers.requests.find((entry) => entry.path === '/oauth-as/register');
    expect(registration?.body).toMatchObject({
      application_type: 'web',
      redirect_uris: [`${appOrigin}/oauth-callback.html`],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const authorize = new URL(window.seen[0] ?? '');
    expect(authorize.pathname).toBe('/oauth-as/authorize');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(servers.urls.oauth);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    const issuer = servers.urls.issuer;
    // Kept per authorization server; the sign-in's state and verifier are gone.
    expect([...store.map.keys()].sort()).toEqual([
      `test-oauth:client:${issuer}`,
      'test-oauth:discovery',
      `test-oauth:tokens:${issuer}`,
    ]);
  });

  it('signs in through a browser that cannot read WWW-Authenticate (found by discovery instead)', async () => {
    const oauth = source(
      'oauth-hidden-challenge',
      { auth: 'oauth' },
      { fetch: browserFetch, pageOrigin: appOrigin, openSignInWindow: () => approvingWindow() },
    );
    expect(await oauth.connect()).toEqual({ state: 'needs-sign-in' });
    expect(await oauth.signIn()).toMatchObject({ state: 'connected', tools: 8 });
    expect(textOf(await oauth.call('echo', { text: 'hidden' }, never))).toBe('hidden');
  });

  it('refreshes an expired access token through the SDK', async () => {
    const oauth = oauthSource(approvingWindow({ accessTtl: 1 }));
    await oauth.connect();
    expect(await oauth.signIn()).toMatchObject({ state: 'connected' });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    servers.requests.length = 0;
    expect(textOf(await oauth.call('echo', { text: 'after refresh' }, never))).toBe('after refresh');
    const token = servers.requests.find((entry) => entry.path === '/oauth-as/token');
    expect(token?.body).toMatchObject({ grant_type: 'refresh_token' });
    expect(
      servers.requests.filter((entry) => entry.path === '/oauth/mcp').map((entry) => entry.status),
    ).toEqual([401, 200]);
  });

  it('refuses an answer whose iss is not the authorization server’s', async () => {
    const oauth = oauthSource(
      approvingWindow({ tamper: (params) => params.set('iss', 'http://evil.example/as') }),
    );
    await oauth.connect();
    expect(await oauth.signIn()).toEqual({
      state: 'needs-sign-in',
      message:
        'The sign-in answer did not come from the authorization server this server names, so it was refused.',
    });
    expect(servers.requests.some((entry) => entry.path === '/oauth-as/token')).toBe(false);
  });

  it('ignores an answer with another state, and says so when the window closes', async () => {
    const oauth = oauthSource(
      approvingWindow({ tamper: (params) => params.set('state', 'forged'), closeAfterMs: 200 }),
    );
    await oauth.connect();
    expect(await oauth.signIn()).toEqual({
      state: 'needs-sign-in',
      message: 'The sign-in answer did not match the request, so it was refused: sign in again.',
    });
    expect(servers.requests.some((entry) => entry.path === '/oauth-as/token')).toBe(false);
  });

  it('goes back to needs-sign-in when the user denies, or closes the window', async () => {
    const denied = oauthSource(approvingWindow({ decision: 'deny' }));
    await denied.connect();
    expect(await denied.signIn()).toEqual({ state: 'needs-sign-in', message: 'Signing in was declined.' });
    const closed = oauthSource(approvingWindow({ closeOnly: true, closeAfterMs: 200 }));
    await closed.connect();
    expect(await closed.signIn()).toEqual({
      state: 'needs-sign-in',
      message: 'The sign-in window was closed before signing in finished.',
    });
  });

  it('keeps waiting when the window is cut off by the authorization server’s page (COOP)', async () => {
    const oauth = oauthSource(approvingWindow({ cutOffThenAnswerAfterMs: 500 }));
    await oauth.connect();
    expect(await oauth.signIn()).toMatchObject({ state: 'connected' });
  });

  it('replaces a sign-in under way when the user signs in again, and stops one on disconnect', async () => {
    const windows = [approvingWindow({ idle: true }), approvingWindow()];
    const oauth = source('oauth', { auth: 'oauth' }, { openSignInWindow: () => windows.shift() ?? null });
    await oauth.connect();
    const first = oauth.signIn();
    await until(() => oauth.status().state === 'signing-in');
    const second = oauth.signIn();
    expect(await first).toEqual({ state: 'needs-sign-in', message: 'The sign-in was stopped.' });
    expect(await second).toMatchObject({ state: 'connected' });

    const idle = oauthSource(approvingWindow({ idle: true }));
    await idle.connect();
    const stopped = idle.signIn();
    await until(() => idle.status().state === 'signing-in');
    await idle.disconnect();
    expect(await stopped).toEqual({ state: 'needs-sign-in', message: 'The sign-in was stopped.' });
    expect(idle.status()).toEqual({ state: 'disconnected' });
  });

  it('says when the browser blocked the window', async () => {
    const blocked = oauthSource(null);
    await blocked.connect();
    expect(await blocked.signIn()).toEqual({
      state: 'needs-sign-in',
      message: 'The browser blocked the sign-in window: allow pop-ups for this site, then sign in again.',
    });
  });

  it('uses a client registered beforehand instead of registering', async () => {
    const registered = (await (
      await fetch(`${servers.urls.issuer}/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [`${appOrigin}/oauth-callback.html`],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
        }),
      })
    ).json()) as { client_id: string };
    servers.requests.length = 0;
    const window = approvingWindow();
    const oauth = oauthSource(window, memoryStore(), { oauthClientId: registered.client_id });
    await oauth.connect();
    expect(await oauth.signIn()).toMatchObject({ state: 'connected' });
    expect(new URL(window.seen[0] ?? '').searchParams.get('client_id')).toBe(registered.client_id);
    expect(servers.requests.some((entry) => entry.path === '/oauth-as/register')).toBe(false);
  });

  it('tries again after a while when waiting for a sign-in made elsewhere (another tab, keys unlocked)', async () => {
    const store = memoryStore();
    const waiting = oauthSource(null, store);
    expect(await waiting.connect()).toEqual({ state: 'needs-sign-in' });
    const elsewhere = oauthSource(approvingWindow(), store);
    await elsewhere.connect();
    await elsewhere.signIn();
    // Not at each use: at the pace of a failure's retries.
    await expect(waiting.list()).rejects.toThrow('needs a sign-in');
    const now = Date.now();
    const later = vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    expect((await waiting.list()).length).toBeGreaterThan(0);
    expect(waiting.status()).toMatchObject({ state: 'connected' });
    later.mockRestore();
  });

  it('connects with stored tokens without asking', async () => {
    const store = memoryStore();
    const first = oauthSource(approvingWindow(), store);
    await first.connect();
    await first.signIn();
    await first.disconnect();
    const again = oauthSource(null, store);
    expect(await again.connect()).toMatchObject({ state: 'connected' });
  });
});

/** A loopback port nothing listens on. */
async function closedPort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

/** Resolves once `check` holds (polled), or fails after five seconds. */
async function until(check: () => boolean) {
  for (const started = Date.now(); !check();) {
    if (Date.now() - started > 5000) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
