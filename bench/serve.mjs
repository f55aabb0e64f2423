// @ts-check
/**
 * The servers of a bench run, all on 127.0.0.1 and free ports: the app built into a temporary
 * folder (so dist/ of other work is untouched) and served by `vite preview`, the mock provider
 * APIs, and the reference page.
 */

import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { build, preview } from 'vite';
import { startMockProviders } from '../tools/mock-providers/server.mjs';
import { referencePageHtml } from './reference-page.mjs';

const host = '127.0.0.1';

/** A TCP port that was free a moment ago. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Builds the app with the repository's vite.config.ts into `outDir`.
 * @param {string} root @param {string} outDir
 */
export async function buildApp(root, outDir) {
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/**
 * Serves a build with `vite preview` (SPA fallback, like any static host).
 * @param {string} root @param {string} outDir
 */
export async function serveApp(root, outDir) {
  const port = await freePort();
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { host, port, strictPort: true, open: false },
  });
  return { url: `http://${host}:${port}`, close: () => server.close() };
}

/**
 * The loopback mock of the provider APIs: 20 ms between chunks is 50 chunks per second.
 * @param {number} tokenDelayMs
 */
export async function serveMock(tokenDelayMs) {
  const mock = await startMockProviders({ port: 0, host, tokenDelayMs });
  return { url: mock.url, close: mock.close };
}

/**
 * Serves the reference page at `/` of its own origin; the page streams from `mockUrl`.
 * @param {{ mockUrl: string, apiKey: string }} options
 */
export async function serveReference(options) {
  const html = referencePageHtml(options);
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    if (req.url === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}/`,
    /** @returns {Promise<void>} */
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
