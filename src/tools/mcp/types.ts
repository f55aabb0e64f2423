import type { ToolSource } from '../tool-source.ts';

/**
 * The MCP client's nouns: a server as configured, what it needs from the app, and the status the
 * screen shows. Types and a few words only: this is part of what the app loads at start, while
 * the MCP SDK itself is loaded when a server is first connected (connection.ts).
 */

/** An MCP server as the user configured it. Its secrets are not here: see McpDeps.secrets. */
export interface McpServerConfig {
  /** Stable id: the tool source's id (ToolCallPart.server); its OAuth store keys are `${id}:…`. */
  id: string;
  /** How the user calls it: the tool source's label. */
  name: string;
  /** The MCP endpoint (streamable HTTP, or an old HTTP+SSE server's SSE address). */
  url: string;
  /**
   * How it authenticates. 'bearer' and 'headers' both arrive as headers from McpDeps.secrets
   * (a bearer token as `Authorization: Bearer …`); 'oauth' signs in with OAuth 2.1.
   */
  auth: 'none' | 'bearer' | 'headers' | 'oauth';
  /** OAuth: a client id registered beforehand with the authorization server (else dynamic registration). */
  oauthClientId?: string;
  /** OAuth: the scope to ask for (else what the server advertises). */
  oauthScope?: string;
}

/** Where OAuth state is kept (the app's encrypted store): tokens, client registrations, PKCE verifier. */
export interface McpOAuthStore {
  read(key: string): Promise<string | undefined>;
  /** `undefined` removes the key. */
  write(key: string, value: string | undefined): Promise<void>;
}

/** The sign-in window, opened in the user's click before its address is known. */
export interface SignInWindow {
  navigate(url: string): void;
  close(): void;
  readonly closed: boolean;
}

/** What a source needs from the app; the optional parts have browser defaults (tests replace them). */
export interface McpDeps {
  /** The server's secret headers, read at each connect (a bearer token as an Authorization header). */
  secrets: { headers(): Promise<Record<string, string>> };
  oauthStore: McpOAuthStore;
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The page's origin (`location.origin`): a request elsewhere is cross-origin, CORS applies. */
  pageOrigin?: string;
  /** The OAuth redirect URI; `${location.origin}/oauth-callback.html`. */
  redirectUrl?: string;
  /** Opens the sign-in window; must not wait (it runs in the user's click). */
  openSignInWindow?: () => SignInWindow | null;
  /** Listens for what the callback page sends back (the callback URL's query); returns a stop function. */
  listenForSignIn?: (receive: (params: URLSearchParams) => void) => () => void;
  /** What the client tells servers it is. */
  clientInfo?: { name: string; version: string };
  timeouts?: {
    /** Connecting, each step (default 30 s). */
    connectMs?: number;
    /** A tool call, reset by progress (default 10 min). */
    callMs?: number;
    /** A sign-in, from the click to the answer (default 10 min). */
    signInMs?: number;
    /**
     * A sign-in window that reads as closed this soon after it went to the authorization server
     * was cut off by that page (Cross-Origin-Opener-Policy), not closed: the answer is still
     * awaited (default 3 s).
     */
    cutOffMs?: number;
  };
}

/** Why a server could not be used, for the user: what to do differs for each. */
export type McpFailureKind = 'cors' | 'network' | 'http' | 'protocol' | 'auth';

export type McpTransportKind = 'streamable-http' | 'sse';

export type McpStatus =
  /** Not connected yet, or disconnected. */
  | { state: 'disconnected' }
  | { state: 'connecting' }
  | {
      state: 'connected';
      /** How many tools it offers. */
      tools: number;
      /** Its prompts (bounded, checked): none when it declares no `prompts` capability. */
      prompts: readonly McpPrompt[];
      /** The protocol version agreed ('2026-07-28', '2025-11-25', …). */
      protocolVersion: string;
      /** 'modern' from 2026-07-28 (server/discover), 'legacy' before (initialize). */
      era: 'modern' | 'legacy';
      /** Streamable HTTP, or the old HTTP+SSE transport. */
      transport: McpTransportKind;
    }
  /** The server wants an OAuth sign-in: `signIn()` from a click. `message` says why, after a failed one. */
  | { state: 'needs-sign-in'; message?: string }
  /** The sign-in window is open. */
  | { state: 'signing-in' }
  /** One sentence for the user. */
  | { state: 'failed'; kind: McpFailureKind; message: string };

/** An argument of an MCP prompt, as prompts/list gives it (bounded, checked). */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/**
 * A prompt an MCP server offers (prompts/list), as read by the client: every text bounded, the
 * title and description on one line, each name once. `name` is what prompts/get is sent.
 */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: readonly McpPromptArgument[];
}

/** A prompt got (prompts/get) as text for the message box, and what of it was left out. */
export interface McpPromptText {
  /** The text contents of its messages, joined by blank lines; plain text, bounded. */
  text: string;
  /** One sentence saying what was left out (pictures, sounds, resources, text past the limit). */
  note?: string;
}

/** What connection.ts (loaded lazily) gives the source: the connection and its tools. */
export interface McpSession {
  connect(signal?: AbortSignal): Promise<McpStatus>;
  disconnect(): Promise<void>;
  /** `window`: opened already, in the click (null when the browser blocked it). */
  signIn(window: SignInWindow | null): Promise<McpStatus>;
  list: ToolSource['list'];
  call: ToolSource['call'];
  getPrompt: McpSource['getPrompt'];
}

/** An MCP server as a tool source, with its connection. */
export interface McpSource extends ToolSource {
  /** Connects (once at a time); resolves with the status it ends in, never rejects. */
  connect(signal?: AbortSignal): Promise<McpStatus>;
  status(): McpStatus;
  /** Calls `listener` with each new status; returns the function that stops it. */
  subscribe(listener: (status: McpStatus) => void): () => void;
  disconnect(): Promise<void>;
  /**
   * OAuth sign-in. Call it synchronously in the user's click: it opens the window at once and
   * sends it to the authorization server when the address is known. Resolves with the status it
   * ends in (connected, or needs-sign-in with a sentence), never rejects.
   */
  signIn(): Promise<McpStatus>;
  /**
   * Gets one of its prompts (prompts/get) with the arguments given (those left empty are not
   * sent), as text for the message box; rejects with one sentence naming the server.
   */
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<McpPromptText>;
}
