// @ts-check
/**
 * A real CouchDB-protocol server for the tests: pouchdb-server 4.2.0 on 127.0.0.1, in memory, run
 * by cli.mjs in a child process. A child because express-pouchdb (2018) has paths that end in an
 * uncaught exception (two are mended in serve.mjs; others may remain): in the test's own process
 * one would take the Vitest worker down, here it only ends the server, with its stack on stderr.
 * The child stops when this process exits, when its parent pid changes, or after its lifetime.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const cliPath = fileURLToPath(new URL('./cli.mjs', import.meta.url));
const startTimeoutMs = 20_000;
const stopTimeoutMs = 5_000;

/**
 * @typedef {object} CouchServerOptions
 * @property {number} [port] 0 (the default) picks a free one, kept across restart()
 * @property {boolean} [cors] true: any origin, with credentials; false: no CORS header at all
 * @property {{ name: string, password: string }} [admin] a server admin: no more "admin party",
 *   and new databases are admin-only (CouchDB 3's default)
 * @property {number} [maxAttachmentSize] bytes: a larger attachment is refused (413), as CouchDB's
 *   `[couchdb] max_attachment_size` does
 * @property {number} [maxLifetimeSeconds] the child stops by itself after this long
 * @property {boolean} [inMemory] true (the default): restart() loses every database; false: LevelDB
 *   files in the temporary directory, which outlive restart() and go with stop()
 *
 * @typedef {object} CouchServer
 * @property {string} url `http://127.0.0.1:<port>`, without a trailing slash
 * @property {number} port
 * @property {() => Promise<void>} stop ends the child (by its pid) and frees the port; idempotent
 * @property {() => Promise<void>} restart stop, then start again on the same port (same config.json,
 *   so the same server uuid and admin)
 * @property {() => Promise<void>} pause the server goes down (its port refuses connections) until
 *   resume(); on disk, its data waits for it
 * @property {() => Promise<void>} resume starts it again on the same port, as restart() does
 */

/**
 * @param {CouchServerOptions} [options]
 * @returns {Promise<CouchServer>}
 */
export async function startCouchServer({
  port = 0,
  cors = true,
  admin,
  maxAttachmentSize,
  maxLifetimeSeconds = 3600,
  inMemory = true,
} = {}) {
  if (admin && (!admin.name || admin.name.includes(':')))
    throw new Error('An admin needs a name without ":"');
  const dir = mkdtempSync(join(tmpdir(), 'couch-server-'));
  /** @param {number} onPort */
  const argsFor = (onPort) => [
    '--no-deprecation', // express-pouchdb's `new Buffer()`
    cliPath,
    '--port',
    String(onPort),
    '--dir',
    dir,
    '--temporary-dir',
    '--max-lifetime',
    String(maxLifetimeSeconds),
    ...(cors ? [] : ['--no-cors']),
    ...(admin ? ['--admin', `${admin.name}:${admin.password}`] : []),
    ...(inMemory ? [] : ['--on-disk']),
    ...(maxAttachmentSize === undefined ? [] : ['--max-attachment-size', String(maxAttachmentSize)]),
  ];

  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  /** @type {Promise<void> | undefined} */
  let exited;
  const killOnExit = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);

  /** @param {number} onPort @returns {Promise<number>} the port it listens on */
  async function launch(onPort) {
    const started = spawn(process.execPath, argsFor(onPort), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    let stderrTail = '';
    started.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4000);
      process.stderr.write(`[couch-server ${started.pid}] ${chunk}`);
    });
    const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (started.stdout) });
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`The CouchDB test server did not start within ${startTimeoutMs} ms`)),
          startTimeoutMs,
        );
        lines.on('line', (line) => {
          const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
          if (!match) return;
          clearTimeout(timer);
          // Running, it no longer holds this process open: the 'exit' handler ends it.
          started.unref();
          for (const stream of [started.stdout, started.stderr])
            /** @type {{ unref?: () => void }} */ (stream).unref?.();
          resolve(Number(match[1]));
        });
        started.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(
            new Error(
              `The CouchDB test server exited (${signal ?? `code ${code}`}) before listening:\n${stderrTail}`,
            ),
          );
        });
      });
    } catch (error) {
      await end();
      throw error;
    }
  }

  /** Ends the child by its pid: SIGTERM, then SIGKILL if it lingers. */
  async function end() {
    const running = child;
    const done = exited;
    child = undefined;
    exited = undefined;
    if (!running || !done) return;
    if (running.exitCode === null && running.signalCode === null) {
      running.ref(); // so that this process waits for the exit
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), stopTimeoutMs);
      await done;
      clearTimeout(timer);
    }
  }

  let actualPort;
  try {
    actualPort = await launch(port);
  } catch (error) {
    process.off('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const boundPort = actualPort;
  let stopped = false;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    async stop() {
      stopped = true;
      await end();
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      if (stopped) throw new Error('The CouchDB test server was stopped');
      await end();
      await launch(boundPort);
    },
    async pause() {
      if (stopped) throw new Error('The CouchDB test server was stopped');
      await end();
    },
    async resume() {
      if (stopped) throw new Error('The CouchDB test server was stopped');
      await launch(boundPort);
    },
  };
}
