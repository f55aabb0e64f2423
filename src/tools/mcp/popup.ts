import type { SignInWindow } from './types.ts';

/**
 * The sign-in window, opened in the user's click before its address is known (the answer comes
 * back through sign-in-channel.ts). Replaced in tests.
 */

/** Opens an empty sign-in window now (a popup blocker allows it only in a click), or null if blocked. */
export function openSignInWindow(): SignInWindow | null {
  const opened = window.open('about:blank', '_blank', 'popup,width=520,height=720');
  if (!opened) return null;
  // The authorization server is the MCP server's choice, not the user's: the window it shows gets
  // no handle on this tab (it could send it elsewhere). The answer comes back on the channel.
  opened.opener = null;
  return {
    navigate: (url) => opened.location.replace(url),
    close: () => opened.close(),
    get closed() {
      return opened.closed;
    },
  };
}
