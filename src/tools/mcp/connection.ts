import {
  auth,
  Client,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import type { OfferedTool, ToolOutcome } from '../tool-source.ts';
import { AnswerLost, callFailure, describeFailure, needsSignIn, type FailureFacts } from './failure.ts';
import { connectingAuth, SignInNeeded, StoredOAuthProvider, type Challenge } from './oauth.ts';
import { listenForSignIn } from './sign-in-channel.ts';
import { listPrompts, promptText } from './prompts.ts';
import { offeredTools, toolOutcome, type ListedTools } from './results.ts';
import type {
  McpDeps,
  McpPrompt,
  McpPromptText,
  McpServerConfig,
  McpSession,
  McpStatus,
  McpTransportKind,
  SignInWindow,
} from './types.ts';
import { hostOf } from './words.ts';

/**
 * One MCP server's connection, on the SDK (loaded lazily: index.ts imports this module the first
 * time the server is used).
 *
 * What the SDK does: the protocol, both eras (the 2026-07-28 `server/discover` probe, with its
 * fallback to the 2025-11-25 `initialize` when the server gives no modern answer), both
 * transports, OAuth discovery, registration, PKCE, code exchange and refresh.
 * What is done here: the fallback to the old HTTP+SSE transport when the streamable POST is
 * refused (404/405); a new session when a legacy one expired (404, once); a call whose answer
 * can no longer come (its stream ended without it, the SSE stream dropped) failing at once
 * instead of at its timeout; the sign-in window and what it sends back; and the words.
 */

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;
type SendOptions = Parameters<StreamableHTTPClientTransport['send']>[1];

/** A tool call under way, which fails at once when its answer can no longer come. */
interface PendingCall {
  lose(): void;
  /** Its JSON-RPC id, once sent. */
  id?: string | number;
}

/** A connected server. */
interface Live {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  kind: McpTransportKind;
  listed: ListedTools;
  /** Its prompts, bounded (none when it declares no `prompts` capability). */
  prompts: readonly McpPrompt[];
  /** The listing of the prompts under way: a new one (list_changed) gives it up. */
  promptListing?: AbortController;
  /** Calls under way, by their arguments object (the SDK sends that same object). */
  pending: WeakMap<object, PendingCall>;
  /** All calls under way, to fail together when the connection drops. */
  calls: Set<PendingCall>;
  /** Ids of the tools/call requests whose answer stream is open, and of those answered. */
  inFlight: Set<string | number>;
  answered: Set<string | number>;
  closed: boolean;
  /** The connection that replaced it after its session expired (calls that saw the 404 share it). */
  renewed?: Promise<Live | undefined>;
  /** Replaced: closed once the calls under way on it are settled. */
  retired?: boolean;
}

/**
 * cutOffMs: a window that reads as closed this soon after it was sent to the authorization server
 * was not closed by the user: a page with Cross-Origin-Opener-Policy cuts it off from this tab,
 * and it reads as closed from then on. The answer still comes (on the channel), or the timeout.
 */
const defaults = { connectMs: 30_000, callMs: 10 * 60_000, signInMs: 10 * 60_000, cutOffMs: 3000 };
/** After a failure, using the server's tools retries the connection at most this often. */
const retryAfterMs = 60_000;
/** A sign-in window that closed is given this long for its answer to arrive. */
const closedGraceMs = 1500;

/** What a watched transport reports of each tools/call request. */
interface CallWatch {
  sent(id: string | number, args: unknown): void;
  /** Its answer stream ended (answered or not), with no resumption to follow. */
  ended(id: string | number, args: unknown): void;
}

/** A streamable HTTP transport that says when the answer stream of each tool call ended. */
class WatchedTransport extends StreamableHTTPClientTransport {
  watch: CallWatch | undefined;

  override send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const watch = this.watch;
    const call = !watch || Array.isArray(message) ? undefined : toolCall(message);
    if (!watch || !call) return super.send(message, options);
    watch.sent(call.id, call.args);
    return super.send(message, {
      ...options,
      onRequestStreamEnd: () => {
        options?.onRequestStreamEnd?.();
        watch.ended(call.id, call.args);
      },
    });
  }
}

/** A JSON-RPC request's id and the arguments of a tools/call, when `message` is one. */
function toolCall(message: JSONRPCMessage): { id: string | number; args: unknown } | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  return { id: message.id, args: (message.params as { arguments?: unknown } | undefined)?.arguments };
}

/** Whether the streamable POST was refused as an old HTTP+SSE server refuses it. */
function refusedPost(error: unknown): boolean {
  return error instanceof SdkHttpError && (error.status === 404 || error.status === 405);
}

export function createSession(
  config: McpServerConfig,
  deps: McpDeps,
  publish: (status: McpStatus) => void,
): McpSession {
  let current: McpStatus = { state: 'disconnected' };
  const setStatus = (status: McpStatus) => {
    current = status;
    publish(status);
    return status;
  };
  const host = hostOf(config.url);
  const label = config.name;
  const oauth = config.auth === 'oauth';
  const pageOrigin = deps.pageOrigin ?? (typeof location === 'object' ? location.origin : undefined);
  const baseFetch: Fetch = (input, init) => (deps.fetch ?? fetch)(input, init);
  const timeouts = { ...defaults, ...deps.timeouts };
  const clientInfo = deps.clientInfo ?? { name: 'BYOK Chat', version: '1.0.0' };
  const provider = oauth
    ? new StoredOAuthProvider({
        serverId: config.id,
        store: deps.oauthStore,
        // Beside the app's own page, wherever it is served from (a sub-path included).
        redirectUrl:
          deps.redirectUrl ??
          (typeof document === 'object'
            ? new URL('oauth-callback.html', document.baseURI).href
            : `${pageOrigin ?? ''}/oauth-callback.html`),
        ...(config.oauthClientId && { clientId: config.oauthClientId }),
        ...(config.oauthScope && { scope: config.oauthScope }),
        clientName: clientInfo.name,
      })
    : undefined;
  /** What the last 401 or 403 said about signing in, for the next sign-in. */
  const challenge: Challenge = {};
  let live: Live | undefined;
  let connecting: Promise<McpStatus> | undefined;
  let signingIn: Promise<McpStatus> | undefined;
  /** Stops the sign-in under way (a new one, or disconnect()). */
  let stopSignIn: AbortController | undefined;
  let failedAt = 0;
  /** Bumped by disconnect(): a connection that finishes after it is closed, not used. */
  let epoch = 0;

  /** Connects with one transport; the era is the SDK's to negotiate (streamable HTTP only). */
  async function start(
    kind: McpTransportKind,
    options: { headers: Record<string, string>; fetch: Fetch; authProvider?: AuthProvider; legacy?: boolean },
    signal?: AbortSignal,
  ): Promise<Live> {
    const url = new URL(config.url);
    const common = {
      requestInit: { headers: options.headers },
      fetch: options.fetch,
      ...(options.authProvider && { authProvider: options.authProvider }),
    };
    const transport =
      kind === 'sse' ? new SSEClientTransport(url, common) : new WatchedTransport(url, common);
    const client = new Client(clientInfo, {
      capabilities: {},
      // 2026-07-28 first (server/discover), then 2025-11-25 (initialize). HTTP+SSE predates both.
      versionNegotiation: { mode: kind === 'sse' || options.legacy ? 'legacy' : 'auto' },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (error || !tools || state.closed) return;
            state.listed = offeredTools(config.id, tools);
            if (live === state) setStatus(connectedStatus(state));
          },
        },
        // Listed again here, bounded, rather than by the SDK's walk of every page.
        prompts: { autoRefresh: false, onChanged: () => void refreshPrompts(state) },
      },
    });
    const state: Live = {
      client,
      transport,
      kind,
      listed: { tools: [], names: new Map() },
      prompts: [],
      pending: new WeakMap(),
      calls: new Set(),
      inFlight: new Set(),
      answered: new Set(),
      closed: false,
    };
    if (transport instanceof WatchedTransport) {
      const { inFlight, answered } = state;
      // Set before connect(): the SDK keeps it and calls its own after it.
      transport.onmessage = (message) => {
        const id = 'id' in message && !('method' in message) ? message.id : undefined;
        if (id !== undefined && id !== null && inFlight.has(id)) answered.add(id);
      };
      const callOf = (args: unknown) =>
        typeof args === 'object' && args !== null ? state.pending.get(args) : undefined;
      transport.watch = {
        sent(id, args) {
          inFlight.add(id);
          const call = callOf(args);
          if (call) call.id = id;
        },
        ended(id, args) {
          inFlight.delete(id);
          // The stream of this call ended without its answer: it will not come.
          if (!answered.delete(id)) callOf(args)?.lose();
        },
      };
    }
    client.onerror = (error) => {
      // An old HTTP+SSE server answers on its one stream: when that drops, nothing under way
      // will be answered (a reconnected stream is a new session), so the connection is over.
      if (kind === 'sse' && error instanceof SseError && !state.closed) void drop(state);
    };
    await client.connect(transport, {
      timeout: timeouts.connectMs,
      ...(signal && { signal }),
      ...(options.legacy && { prior: { kind: 'legacy' } }),
    });
    try {
      const [{ tools }, prompts] = await Promise.all([
        client.listTools(undefined, { timeout: timeouts.connectMs, ...(signal && { signal }) }),
        listPromptsOf(state, signal),
      ]);
      state.listed = offeredTools(config.id, tools);
      if (prompts) state.prompts = prompts;
    } catch (error) {
      state.closed = true;
      await client.close().catch(() => undefined);
      throw error;
    }
    return state;
  }

  /** A server's prompts; none when they cannot be listed (its tools work all the same). */
  async function promptsOf(client: Client, options: { timeout: number; signal?: AbortSignal }) {
    try {
      return await listPrompts(client, options);
    } catch (error) {
      if (!options.signal?.aborted)
        console.warn(`The prompts of MCP server ${label} could not be listed`, error);
      return [];
    }
  }

  /**
   * The server's prompts, all their pages within the time a step of connecting has; null when a
   * newer listing (list_changed) gave this one up, or the connection closed.
   */
  async function listPromptsOf(state: Live, signal?: AbortSignal): Promise<readonly McpPrompt[] | null> {
    state.promptListing?.abort();
    const listing = new AbortController();
    state.promptListing = listing;
    const within = AbortSignal.any([
      listing.signal,
      AbortSignal.timeout(timeouts.connectMs),
      ...(signal ? [signal] : []),
    ]);
    const prompts = await promptsOf(state.client, { timeout: timeouts.connectMs, signal: within });
    return state.closed || listing.signal.aborted ? null : prompts;
  }

  /** The server said its prompts changed: listed again, and the status says the new ones. */
  async function refreshPrompts(state: Live) {
    const prompts = await listPromptsOf(state);
    if (!prompts) return;
    state.prompts = prompts;
    if (live === state) setStatus(connectedStatus(state));
  }

  /** Opens a connection: streamable HTTP (either era), else the old HTTP+SSE transport. */
  async function open(facts: FailureFacts, signal?: AbortSignal, legacy = false): Promise<Live> {
    let headers: Record<string, string>;
    try {
      headers = await deps.secrets.headers();
    } catch (error) {
      throw new Error(`The credentials of ${label} could not be read.`, { cause: error });
    }
    // What the browser let the page see of the session id (CORS may hide it).
    const watched: Fetch = async (input, init) => {
      const response = await baseFetch(input, init);
      if (
        init?.method === 'POST' &&
        typeof init.body === 'string' &&
        response.ok &&
        /"method"\s*:\s*"initialize"/.test(init.body)
      )
        facts.sessionHidden = response.headers.get('mcp-session-id') === null;
      return response;
    };
    const authProvider = provider ? connectingAuth(provider, challenge, baseFetch) : undefined;
    const options = { headers, fetch: watched, ...(authProvider && { authProvider }), legacy };
    try {
      return await start('streamable-http', options, signal);
    } catch (error) {
      if (!refusedPost(error) || signal?.aborted) throw error;
    }
    return start('sse', options, signal);
  }

  function connectedStatus(state: Live): McpStatus {
    return {
      state: 'connected',
      tools: state.listed.tools.length,
      prompts: state.prompts,
      protocolVersion: state.client.getNegotiatedProtocolVersion() ?? 'unknown',
      era: state.client.getProtocolEra() ?? 'legacy',
      transport: state.kind,
    };
  }

  function failureStatus(error: unknown, facts: FailureFacts): McpStatus {
    if (oauth && needsSignIn(error)) {
      if (error instanceof InsufficientScopeError && error.requiredScope)
        challenge.scope = error.requiredScope;
      failedAt = Date.now();
      return { state: 'needs-sign-in' };
    }
    failedAt = Date.now();
    return { state: 'failed', ...describeFailure(error, facts) };
  }

  /** Closes a connection; a legacy session is ended on the server too (not waited for). */
  async function drop(state: Live, endSession = false) {
    if (state.closed) return;
    state.closed = true;
    state.promptListing?.abort();
    if (live === state) {
      live = undefined;
      setStatus({ state: 'disconnected' });
    }
    for (const call of state.calls) call.lose();
    if (endSession && state.transport instanceof StreamableHTTPClientTransport && state.transport.sessionId)
      void state.transport.terminateSession().catch(() => undefined);
    await state.client.close().catch(() => undefined);
  }

  /** Connects, unless a sign-in is under way: it connects when it is done. */
  function connect(signal?: AbortSignal): Promise<McpStatus> {
    return signingIn ?? connectNow(signal);
  }

  function connectNow(signal?: AbortSignal): Promise<McpStatus> {
    if (live) return Promise.resolve(current);
    connecting ??= (async () => {
      const at = epoch;
      setStatus({ state: 'connecting' });
      const facts: FailureFacts = { url: config.url, ...(pageOrigin && { pageOrigin }) };
      try {
        const opened = await open(facts, signal);
        if (at !== epoch) {
          await drop(opened);
          return current;
        }
        live = opened;
        return setStatus(connectedStatus(opened));
      } catch (error) {
        if (at !== epoch) return current;
        if (signal?.aborted) return setStatus({ state: 'disconnected' });
        const status = failureStatus(error, facts);
        if (status.state === 'failed') console.warn(`MCP server ${label} could not be connected`, error);
        return setStatus(status);
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  /** The connection, connecting first when it makes sense; else why not, as an Error. */
  async function ready(signal?: AbortSignal): Promise<Live> {
    if (signingIn) await signingIn;
    if (!live) {
      const state = current.state;
      // A sign-in may have happened since (in another tab, or the keys unlocked): tried again too,
      // at the same pace as a failure; connecting never opens a sign-in window.
      const retry =
        state === 'disconnected' ||
        ((state === 'failed' || state === 'needs-sign-in') && Date.now() - failedAt > retryAfterMs);
      if (connecting || retry) await connectNow(signal);
    }
    if (live) return live;
    if (current.state === 'needs-sign-in' || current.state === 'signing-in')
      throw new Error(`The server ${label} needs a sign-in: sign in from its settings.`);
    if (current.state === 'failed') throw new Error(current.message);
    throw new Error(`The server ${label} is not connected.`);
  }

  /** A legacy session the server no longer knows (404): a new session (once), for a retry. */
  function expired(state: Live, error: unknown): Promise<Live | undefined> {
    if (!(error instanceof SdkHttpError) || error.status !== 404) return Promise.resolve(undefined);
    if (state.renewed) return state.renewed;
    if (!(state.transport instanceof StreamableHTTPClientTransport) || !state.transport.sessionId)
      return Promise.resolve(undefined);
    if (state.client.getProtocolEra() !== 'legacy') return Promise.resolve(undefined);
    state.renewed ??= (async () => {
      const at = epoch;
      // Calls still under way keep their connection: each gets its answer, or its own 404.
      if (live === state) live = undefined;
      state.retired = true;
      if (state.calls.size === 0) await drop(state);
      const facts: FailureFacts = { url: config.url, ...(pageOrigin && { pageOrigin }) };
      const opened = await open(facts, undefined, true);
      if (at !== epoch || live) {
        await drop(opened);
        return live;
      }
      live = opened;
      setStatus(connectedStatus(opened));
      return opened;
    })();
    return state.renewed;
  }

  /** One call on a connection: its answer, or a rejection as soon as the answer cannot come. */
  function callOn(state: Live, name: string, args: Record<string, unknown>, signal: AbortSignal) {
    // A fresh object per call: the SDK sends it as is, so the stream that carries it is known.
    const argumentsObject = { ...args };
    let lose = () => {};
    const lost = new Promise<never>((_, reject) => {
      lose = () => reject(new AnswerLost(label));
    });
    const call: PendingCall = { lose: () => lose() };
    state.pending.set(argumentsObject, call);
    state.calls.add(call);
    const answer = state.client.callTool(
      { name, arguments: argumentsObject },
      { signal, timeout: timeouts.callMs, resetTimeoutOnProgress: true, onprogress: () => {} },
    );
    return Promise.race([answer, lost]).finally(() => {
      state.calls.delete(call);
      state.pending.delete(argumentsObject);
      if (call.id !== undefined) {
        state.inFlight.delete(call.id);
        state.answered.delete(call.id);
      }
      if (state.retired && state.calls.size === 0) void drop(state);
      lost.catch(() => undefined);
    });
  }

  /**
   * A request on the connection `state`, made once more on a new session when the server forgot
   * the old one (404). A failure becomes one sentence naming the server; a connection that lost
   * its answer, or needs a sign-in, is dropped (the next use makes a new one).
   */
  async function onSession<T>(
    state: Live,
    signal: AbortSignal | undefined,
    stopped: string,
    request: (on: Live) => Promise<T>,
  ): Promise<T> {
    let on = state;
    try {
      try {
        return await request(on);
      } catch (error) {
        if (signal?.aborted) throw error;
        const renewed = await expired(on, error);
        if (!renewed) throw error;
        on = renewed;
        return await request(on);
      }
    } catch (error) {
      if (signal?.aborted) throw new Error(stopped, { cause: error });
      const sentence = callFailure(error, label, oauth);
      // A connection that lost its answer is not trusted with the next call: a new one is made.
      if (/closed the connection/.test(sentence)) await drop(on);
      if (oauth && needsSignIn(error) && live === on) {
        await drop(on);
        setStatus({ state: 'needs-sign-in' });
      }
      throw new Error(sentence, { cause: error });
    }
  }

  async function call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolOutcome> {
    const state = await ready(signal);
    const real = state.listed.names.get(name);
    if (real === undefined)
      return {
        content: [{ type: 'text', text: `The server ${label} has no tool named ${name}.` }],
        isError: true,
      };
    return onSession(state, signal, 'The call was stopped.', async (on) =>
      toolOutcome(await callOn(on, real, args, signal)),
    );
  }

  async function list(signal?: AbortSignal): Promise<OfferedTool[]> {
    return (await ready(signal)).listed.tools;
  }

  /** prompts/get: the arguments given a value (empty ones are not sent), the answer as text. */
  async function getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<McpPromptText> {
    const values = Object.fromEntries(Object.entries(args).filter(([, value]) => value.trim() !== ''));
    const options = { timeout: timeouts.connectMs, ...(signal && { signal }) };
    const params = { name, ...(Object.keys(values).length > 0 && { arguments: values }) };
    return onSession(await ready(signal), signal, 'Getting the prompt was stopped.', async (on) =>
      promptText(await on.client.getPrompt(params, options)),
    );
  }

  /** Closes the connection (ending a legacy session on the server). */
  async function close() {
    epoch++;
    const state = live;
    live = undefined;
    setStatus({ state: 'disconnected' });
    if (state) await drop(state, true);
  }

  async function disconnect() {
    stopSignIn?.abort();
    await signingIn;
    await close();
  }

  /**
   * Waits for the sign-in window's answer with this sign-in's state; rejects when the window was
   * closed without one, when the sign-in is stopped, or when it takes too long.
   */
  function answerOf(window: SignInWindow, sentAt: number, stop: AbortSignal): Promise<URLSearchParams> {
    const listen = deps.listenForSignIn ?? listenForSignIn;
    return new Promise<URLSearchParams>((resolve, reject) => {
      let foreign = false;
      let closedSince = 0;
      const end = (error?: SignInEnded, params?: URLSearchParams) => {
        clearInterval(poll);
        clearTimeout(deadline);
        stop.removeEventListener('abort', onStop);
        unlisten();
        if (params) resolve(params);
        else reject(error);
      };
      const unlisten = listen((params) => {
        void provider?.expectedState().then((expected) => {
          // Another server's sign-in can answer on the same channel: only this one's state counts.
          if (expected !== undefined && params.get('state') === expected) end(undefined, params);
          else foreign = true;
        });
      });
      const onStop = () => end(new SignInEnded('The sign-in was stopped.'));
      stop.addEventListener('abort', onStop, { once: true });
      const poll = setInterval(() => {
        if (!window.closed) return;
        closedSince ||= Date.now();
        // Cut off by the authorization server's page, not closed: wait for the answer.
        if (closedSince - sentAt < timeouts.cutOffMs) return;
        if (Date.now() - closedSince < closedGraceMs) return;
        end(
          new SignInEnded(
            foreign
              ? 'The sign-in answer did not match the request, so it was refused: sign in again.'
              : 'The sign-in window was closed before signing in finished.',
          ),
        );
      }, 250);
      const deadline = setTimeout(
        () => end(new SignInEnded('The sign-in took too long: sign in again.')),
        timeouts.signInMs,
      );
      if (stop.aborted) onStop();
    });
  }

  async function runSignIn(window: SignInWindow, stop: AbortController): Promise<McpStatus> {
    if (!provider) return current;
    const signInProvider = provider;
    await close();
    setStatus({ state: 'signing-in' });
    let sentAt = Number.POSITIVE_INFINITY;
    const serverUrl = config.url;
    const scope = challenge.scope ?? config.oauthScope;
    const discovery = {
      serverUrl,
      fetchFn: baseFetch,
      ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(scope && { scope }),
    };
    try {
      signInProvider.interactive = (authorizationUrl) => {
        sentAt = Date.now();
        window.navigate(authorizationUrl.href);
      };
      // Discovery, registration (or the configured client), PKCE and state: the SDK's. It sends
      // the window to the authorization server, or refreshes when it still can.
      const started = await auth(signInProvider, discovery);
      signInProvider.interactive = undefined;
      if (started !== 'AUTHORIZED') {
        const params = await answerOf(window, sentAt, stop.signal);
        window.close();
        // RFC 9207: the answer's issuer is checked before anything else of it is read.
        const { issuer, issParameterSupported } = await signInProvider.issuer();
        const iss = params.get('iss') ?? undefined;
        if (iss !== undefined ? iss !== issuer : issParameterSupported)
          throw new SignInEnded(
            'The sign-in answer did not come from the authorization server this server names, so it was refused.',
          );
        const error = params.get('error');
        if (error)
          throw new SignInEnded(
            error === 'access_denied'
              ? 'Signing in was declined.'
              : `The authorization server refused the sign-in (${error.slice(0, 60)}).`,
          );
        const code = params.get('code');
        if (!code) throw new SignInEnded('The sign-in answer had no authorization code: sign in again.');
        // The code exchange (PKCE verifier, resource, iss checked again) is the SDK's.
        await auth(signInProvider, {
          ...discovery,
          authorizationCode: code,
          ...(iss !== undefined && { iss }),
        });
      }
      window.close();
      await signInProvider.endSignIn();
      if (stop.signal.aborted) throw new SignInEnded('The sign-in was stopped.');
      return await connectNow();
    } catch (error) {
      window.close();
      stop.abort();
      signInProvider.interactive = undefined;
      await signInProvider.endSignIn().catch(() => undefined);
      if (!(error instanceof SignInEnded)) console.warn(`Signing in to ${label} failed`, error);
      return setStatus({ state: 'needs-sign-in', message: signInFailure(error) });
    }
  }

  function signInFailure(error: unknown): string {
    if (error instanceof SignInEnded) return error.message;
    if (error instanceof IssuerMismatchError)
      return 'The sign-in answer did not come from the authorization server this server names, so it was refused.';
    if (error instanceof OAuthError)
      return `The authorization server refused the sign-in (${error.code.slice(0, 60)}).`;
    if (error instanceof SignInNeeded) return 'Signing in did not finish: sign in again.';
    if (error instanceof TypeError)
      return pageOrigin
        ? `The browser could not reach the authorization server of ${host}: it may not allow this origin (${pageOrigin}).`
        : `Could not reach the authorization server of ${host}.`;
    return `Signing in to ${host} failed: sign in again.`;
  }

  function signIn(window: SignInWindow | null): Promise<McpStatus> {
    if (!provider) {
      window?.close();
      return Promise.resolve(current);
    }
    if (!window) {
      if (signingIn) return signingIn;
      return Promise.resolve(
        setStatus({
          state: 'needs-sign-in',
          message: 'The browser blocked the sign-in window: allow pop-ups for this site, then sign in again.',
        }),
      );
    }
    // Signing in again replaces a sign-in under way (its window may be lost behind others).
    stopSignIn?.abort();
    const stop = new AbortController();
    stopSignIn = stop;
    const run = (signingIn ?? Promise.resolve(current)).then(() => runSignIn(window, stop));
    const settled: Promise<McpStatus> = run.finally(() => {
      if (signingIn === settled) signingIn = undefined;
      if (stopSignIn === stop) stopSignIn = undefined;
    });
    signingIn = settled;
    return settled;
  }

  return { connect, disconnect, signIn, list, call, getPrompt };
}

/** A sign-in that ended without tokens, with the sentence saying why. */
class SignInEnded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInEnded';
  }
}
