// @ts-check
/**
 * Headless Debian Chromium driven over the DevTools protocol directly (a pipe, as Playwright
 * talks to it), with only the Page and Runtime domains on. For pages that send large request
 * bodies: Playwright enables the Network domain on every page it drives, and Chromium then copies
 * each request body into that domain's events on the page's main thread (measured here: fetch()
 * of a 6.4 MB body took 52-154 ms under Playwright, 25-28 ms without), a cost no user has.
 * Enough to load a page, run init scripts, read the page, type and press Enter; no more.
 */

import { spawn } from 'node:child_process';
import { chromiumFlags, chromiumPath } from '../tools/chromium.mjs';

const flags = ['--headless', ...chromiumFlags, '--lang=en-US', '--remote-debugging-pipe'];
const commandTimeoutMs = 60_000;

/**
 * Init script: no service worker, as the other cases' contexts (Playwright's serviceWorkers:
 * 'block'): the app registers none when the API is absent.
 */
export function noServiceWorkerInit() {
  delete (/** @type {{ serviceWorker?: unknown }} */ (Navigator.prototype).serviceWorker);
}

/**
 * Launches Chromium on a profile directory and attaches to its first tab.
 * @param {string} userDataDir
 * @param {{ width?: number, height?: number, onNote?: (note: string) => void }} [options] The
 *   window (the viewport, headless); onNote hears uncaught errors and console.error of the page.
 */
export async function launchBare(userDataDir, { width = 1280, height = 800, onNote } = {}) {
  const child = spawn(
    chromiumPath(),
    [...flags, `--user-data-dir=${userDataDir}`, `--window-size=${width},${height}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const input = /** @type {import('node:stream').Writable} */ (child.stdio[3]);
  const output = /** @type {import('node:stream').Readable} */ (child.stdio[4]);

  let nextId = 0;
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void, method: string }>} */
  const pending = new Map();
  /** @type {Set<(message: { method: string, params: any, sessionId?: string }) => void>} */
  const listeners = new Set();
  /** @type {Buffer[]} */
  let parts = [];
  // Messages are JSON, each ended by a NUL byte.
  output.on('data', (/** @type {Buffer} */ chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      parts.push(chunk.subarray(start, end));
      const message = JSON.parse(Buffer.concat(parts).toString('utf8'));
      parts = [];
      start = end + 1;
      if (typeof message.id === 'number') {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) call?.reject(new Error(`${call.method}: ${message.error.message}`));
        else call?.resolve(message.result);
      } else for (const listener of listeners) listener(message);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  child.once('exit', () => {
    for (const call of pending.values()) call.reject(new Error(`Chromium exited during ${call.method}`));
    pending.clear();
  });

  /** @param {string} method @param {Record<string, unknown>} [params] @param {string} [sessionId] @returns {Promise<any>} */
  function send(method, params = {}, sessionId) {
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer within ${commandTimeoutMs / 1000} s`));
      }, commandTimeoutMs);
      pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        method,
      });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) })}\0`);
    });
  }

  async function close() {
    if (child.exitCode === null && child.signalCode === null) {
      await send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }

  try {
    /** @type {{ targetInfos: { targetId: string, type: string }[] }} */
    const { targetInfos } = await send('Target.getTargets');
    const tab = targetInfos.find((target) => target.type === 'page');
    if (!tab) throw new Error('Chromium opened no tab');
    /** @type {{ sessionId: string }} */
    const { sessionId } = await send('Target.attachToTarget', { targetId: tab.targetId, flatten: true });
    /** @param {string} method @param {Record<string, unknown>} [params] */
    const call = (method, params) => send(method, params, sessionId);
    listeners.add(({ method, params, sessionId: from }) => {
      if (from !== sessionId || !onNote) return;
      if (method === 'Runtime.exceptionThrown')
        onNote(
          `pageerror: ${params.exceptionDetails.exception?.description ?? params.exceptionDetails.text}`,
        );
      if (method === 'Runtime.consoleAPICalled' && params.type === 'error')
        onNote(
          `console.error: ${params.args
            .map(
              (/** @type {{ value?: unknown, description?: string }} */ arg) => arg.value ?? arg.description,
            )
            .join(' ')
            .slice(0, 300)}`,
        );
    });
    await call('Page.enable');
    await call('Runtime.enable');

    /**
     * Runs `fn(arg)` in the page and returns its value (awaited; JSON-serializable).
     * @template T, A
     * @param {(arg: A) => T} fn @param {A} [arg] @returns {Promise<Awaited<T>>}
     */
    async function evaluate(fn, arg) {
      const { result, exceptionDetails } = await call('Runtime.evaluate', {
        expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
        awaitPromise: true,
        returnByValue: true,
      });
      if (exceptionDetails)
        throw new Error(`evaluate: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value;
    }

    return {
      /**
       * Runs `fn(arg)` at the start of every document from now on.
       * @template A
       * @param {(arg: A) => void} fn @param {A} [arg]
       */
      async addInitScript(fn, arg) {
        await call('Page.addScriptToEvaluateOnNewDocument', {
          source: `(${fn.toString()})(${JSON.stringify(arg)})`,
        });
      },
      /** Navigates and waits for the load event. @param {string} url */
      async goto(url) {
        /** @type {(value?: unknown) => void} */
        let loaded = () => undefined;
        const load = new Promise((resolve) => (loaded = resolve));
        /** @param {{ method: string, sessionId?: string }} message */
        const onLoad = ({ method, sessionId: from }) => {
          if (from === sessionId && method === 'Page.loadEventFired') loaded();
        };
        listeners.add(onLoad);
        try {
          const { errorText } = await call('Page.navigate', { url });
          if (errorText) throw new Error(`navigation to ${url}: ${errorText}`);
          await Promise.race([
            load,
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error(`${url} did not load within 60 s`)), 60_000),
            ),
          ]);
        } finally {
          listeners.delete(onLoad);
        }
      },
      evaluate,
      /**
       * Waits until `fn(arg)` is truthy in the page, checked every `pollMs`.
       * @template A
       * @param {(arg: A) => unknown} fn @param {A} arg @param {{ timeoutMs: number, pollMs?: number }} options
       */
      async waitFor(fn, arg, { timeoutMs, pollMs = 100 }) {
        const deadline = Date.now() + timeoutMs;
        while (!(await evaluate(fn, arg))) {
          if (Date.now() > deadline)
            throw new Error(`waited ${timeoutMs / 1000} s in vain for ${fn.name || 'a state'}`);
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
      },
      /** Types text where the focus is, as an input method commits it. @param {string} text */
      insertText: (text) => call('Input.insertText', { text }),
      /** Presses and releases Enter, as Playwright does. */
      async pressEnter() {
        const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
        await call('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: '\r' });
        await call('Input.dispatchKeyEvent', { type: 'keyUp', ...key });
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
