import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForSignIn, signInMessageType } from './sign-in-channel.ts';

/** public/oauth-callback.js, run as the sign-in window would, with the app's real listener. */

const script = readFileSync(new URL('../../../public/oauth-callback.js', import.meta.url), 'utf8');

function runCallbackPage(search: string) {
  const opener = { postMessage: vi.fn() };
  const text = { textContent: '' };
  const page = {
    location: { search, pathname: '/oauth-callback.html', origin: 'http://127.0.0.1:4174' },
    history: { replaceState: vi.fn() },
    document: { getElementById: () => text },
    window: { opener, close: vi.fn() },
    BroadcastChannel,
    URLSearchParams,
  };
  runInNewContext(script, page);
  return { ...page, opener, text };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the OAuth callback page', () => {
  it('sends code, state and iss (nothing else) to the app, cleans its address and closes', async () => {
    const received: URLSearchParams[] = [];
    const stop = listenForSignIn((params) => received.push(params));
    const page = runCallbackPage(
      '?code=abc&state=s1&iss=http%3A%2F%2F127.0.0.1%2Foauth-as&error_description=%3Cscript%3E&extra=1',
    );
    await vi.waitFor(() => expect(received).toHaveLength(1));
    stop();
    expect(Object.fromEntries(received[0] ?? [])).toEqual({
      code: 'abc',
      state: 's1',
      iss: 'http://127.0.0.1/oauth-as',
    });
    const message = {
      type: signInMessageType,
      search: '?code=abc&state=s1&iss=http%3A%2F%2F127.0.0.1%2Foauth-as',
    };
    expect(page.opener.postMessage).toHaveBeenCalledWith(message, 'http://127.0.0.1:4174');
    expect(page.history.replaceState).toHaveBeenCalledWith(null, '', '/oauth-callback.html');
    expect(page.window.close).toHaveBeenCalled();
  });

  it('does nothing on a visit without a sign-in answer', () => {
    const page = runCallbackPage('');
    expect(page.opener.postMessage).not.toHaveBeenCalled();
    expect(page.window.close).not.toHaveBeenCalled();
    expect(page.text.textContent).toBe('There is no sign-in to finish here.');
  });
});

describe('listenForSignIn', () => {
  it('takes a message to the window only from this origin', () => {
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:4174' });
    const received: string[] = [];
    const stop = listenForSignIn((params) => received.push(params.toString()));
    const post = (origin: string, data: unknown) =>
      target.dispatchEvent(new MessageEvent('message', { origin, data }));
    post('http://evil.example', { type: signInMessageType, search: '?code=evil&state=s' });
    post('http://127.0.0.1:4174', { type: 'other', search: '?code=x' });
    post('http://127.0.0.1:4174', { type: signInMessageType, search: '?code=good&state=s' });
    stop();
    post('http://127.0.0.1:4174', { type: signInMessageType, search: '?code=late&state=s' });
    expect(received).toEqual(['code=good&state=s']);
  });
});
