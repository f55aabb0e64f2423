/**
 * What the OAuth callback page (public/oauth-callback.js) sends back to the app: the callback
 * URL's query, on a BroadcastChannel and as a message to the opener. Replaced in tests.
 */

/** The BroadcastChannel the callback page posts on (the sign-in window has no opener: see popup.ts). */
export const signInChannel = 'byok-chat-oauth';
/** The message's type, from the callback page. */
export const signInMessageType = 'mcp-oauth-callback';

/** The callback URL's query, when `data` is the callback page's message. */
function paramsOf(data: unknown): URLSearchParams | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { type, search } = data as { type?: unknown; search?: unknown };
  if (type !== signInMessageType || typeof search !== 'string') return undefined;
  return new URLSearchParams(search);
}

/**
 * Listens for the callback page: on the BroadcastChannel, and as a message to this window from
 * this origin only. Returns the function that stops listening.
 */
export function listenForSignIn(receive: (params: URLSearchParams) => void): () => void {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(signInChannel) : undefined;
  const fromChannel = (event: MessageEvent) => {
    const params = paramsOf(event.data);
    if (params) receive(params);
  };
  channel?.addEventListener('message', fromChannel);
  const origin = typeof location === 'object' ? location.origin : undefined;
  const fromWindow = (event: MessageEvent) => {
    if (event.origin !== origin) return;
    const params = paramsOf(event.data);
    if (params) receive(params);
  };
  if (typeof window === 'object') window.addEventListener('message', fromWindow);
  return () => {
    channel?.removeEventListener('message', fromChannel);
    channel?.close();
    if (typeof window === 'object') window.removeEventListener('message', fromWindow);
  };
}
