// @ts-check
/* global window, document, location, history */
/**
 * The OAuth redirect page's script (oauth-callback.html): sends the sign-in answer to the app's
 * tab and closes the window. The app (src/tools/mcp/sign-in-channel.ts) listens on the BroadcastChannel, and
 * for a message from this origin; it checks `state` and `iss` itself. Only the answer's own
 * fields go back: `code`, `state`, `iss`, or `error` (no description: it is the authorization
 * server's text, and may be an attacker's).
 */
(() => {
  const received = new URLSearchParams(location.search);
  const answer = new URLSearchParams();
  for (const name of ['code', 'state', 'iss', 'error']) {
    const value = received.get(name);
    if (value !== null) answer.set(name, value);
  }
  const text = document.getElementById('message');
  if (!answer.has('state')) {
    if (text) text.textContent = 'There is no sign-in to finish here.';
    return;
  }
  // The address holds the code: it does not stay in this window's history.
  history.replaceState(null, '', location.pathname);
  const message = { type: 'mcp-oauth-callback', search: `?${answer}` };
  try {
    const channel = new BroadcastChannel('byok-chat-oauth');
    channel.postMessage(message);
    channel.close();
  } catch {
    // No BroadcastChannel: the opener, below.
  }
  try {
    // Only to a page of this origin.
    window.opener?.postMessage(message, location.origin);
  } catch {
    // The opener is gone (closed, or cut off by the app or the authorization server).
  }
  if (text) text.textContent = 'Done: this window can be closed.';
  window.close();
})();
