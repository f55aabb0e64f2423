import { openSignInWindow } from './popup.ts';
import type { McpDeps, McpServerConfig, McpSession, McpSource, McpStatus } from './types.ts';

/**
 * The browser's MCP client: one tool source per MCP server. This module is what the app imports
 * at start, so it stays small: the SDK (@modelcontextprotocol/client) and everything that uses
 * it is in connection.ts, imported the first time a server is used.
 */

export type {
  McpDeps,
  McpFailureKind,
  McpOAuthStore,
  McpPrompt,
  McpPromptArgument,
  McpPromptText,
  McpServerConfig,
  McpSource,
  McpStatus,
  McpTransportKind,
  SignInWindow,
} from './types.ts';
// The sentences (browserBlockedSentence, protocolLabel): import them from words.ts. Not
// re-exported here: Rolldown puts words.ts in connection.ts's chunk, and a re-export made this
// chunk import that one at once.

/** An MCP server as a tool source: connects on first use, lists and calls its tools. */
export function createMcpSource(config: McpServerConfig, deps: McpDeps): McpSource {
  let status: McpStatus = { state: 'disconnected' };
  const listeners = new Set<(status: McpStatus) => void>();
  const setStatus = (next: McpStatus) => {
    status = next;
    for (const listener of listeners) listener(next);
  };
  let session: Promise<McpSession> | undefined;
  const load = () =>
    (session ??= import('./connection.ts').then(
      ({ createSession }) => createSession(config, deps, setStatus),
      (error: unknown) => {
        session = undefined;
        console.warn('The MCP client could not be loaded', error);
        const message = 'The MCP client could not be loaded: check the connection and reload the page.';
        setStatus({ state: 'failed', kind: 'network', message });
        throw new Error(message, { cause: error });
      },
    ));

  return {
    id: config.id,
    label: config.name,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect: (signal) =>
      load().then(
        (loaded) => loaded.connect(signal),
        () => status,
      ),
    disconnect: () =>
      session
        ? session.then(
            (loaded) => loaded.disconnect(),
            () => undefined,
          )
        : Promise.resolve(),
    signIn() {
      // Opened before anything is awaited: a popup blocker allows a window only in the click.
      const window = (deps.openSignInWindow ?? openSignInWindow)();
      return load().then(
        (loaded) => loaded.signIn(window),
        () => {
          window?.close();
          return status;
        },
      );
    },
    list: (signal) => load().then((loaded) => loaded.list(signal)),
    call: (name, args, signal) => load().then((loaded) => loaded.call(name, args, signal)),
    getPrompt: (name, args, signal) => load().then((loaded) => loaded.getPrompt(name, args, signal)),
  };
}
