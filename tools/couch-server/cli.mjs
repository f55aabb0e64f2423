#!/usr/bin/env node
// @ts-check
/**
 * `node tools/couch-server/cli.mjs [--port 4339] [--no-cors] [--admin name:password] [--max-lifetime 3600]`
 *
 * Also what couch-server.mjs runs as its child: the first line on stdout names the URL.
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveCouch } from './serve.mjs';

const options = /** @type {const} */ ({
  port: { type: 'string', default: '4339' },
  host: { type: 'string', default: '127.0.0.1' },
  'no-cors': { type: 'boolean', default: false },
  admin: { type: 'string' },
  'max-attachment-size': { type: 'string' },
  'on-disk': { type: 'boolean', default: false },
  dir: { type: 'string' },
  'temporary-dir': { type: 'boolean', default: false },
  'max-lifetime': { type: 'string', default: '3600' },
  help: { type: 'boolean', short: 'h', default: false },
});

const usage = [
  'Usage: node tools/couch-server/cli.mjs [options]',
  '',
  'A CouchDB-protocol server (pouchdb-server 4.2.0) on loopback for the tests: see tools/couch-server/README.md.',
  '',
  'Options:',
  '  --port <n>              port to listen on (default 4339; 0 picks a free one)',
  '  --host <address>        loopback address to bind (default 127.0.0.1)',
  '  --no-cors               send no CORS headers at all ([httpd] enable_cors = false)',
  '  --admin <name:password> create this server admin (no more "admin party"; new databases admin-only)',
  "  --max-attachment-size <bytes>  refuse larger attachments (CouchDB's [couchdb] max_attachment_size)",
  '  --on-disk               LevelDB files in the directory instead of memory (they outlive a restart)',
  '  --dir <path>            where config.json, log.txt and any database files go',
  '                          (default: a new temporary directory, removed on exit)',
  '  --temporary-dir         remove --dir too when stopping on its own (lifetime over, parent gone)',
  '  --max-lifetime <s>      stop by itself after this long (default 3600)',
  '  -h, --help              print this help',
].join('\n');

/** @type {ReturnType<typeof parseArgs<{ options: typeof options }>>['values']} */
let values;
try {
  ({ values } = parseArgs({ options }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

/** @param {string} message */
function fail(message) {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}
const port = Number(values.port);
const lifetimeSeconds = Number(values['max-lifetime']);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`Not a port: ${values.port}`);
if (!(lifetimeSeconds > 0)) fail(`Not a lifetime in seconds: ${values['max-lifetime']}`);
const separator = values.admin?.indexOf(':') ?? -1;
if (values.admin !== undefined && separator < 1) fail('--admin takes name:password');
const admin = values.admin
  ? { name: values.admin.slice(0, separator), password: values.admin.slice(separator + 1) }
  : undefined;

const maxAttachmentSize =
  values['max-attachment-size'] === undefined ? undefined : Number(values['max-attachment-size']);
if (maxAttachmentSize !== undefined && !(Number.isInteger(maxAttachmentSize) && maxAttachmentSize >= 0))
  fail(`Not a size in bytes: ${values['max-attachment-size']}`);

const ownDir = values.dir === undefined;
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'couch-server-'));
mkdirSync(dir, { recursive: true });
const removeOwnDir = () => {
  if (ownDir) rmSync(dir, { recursive: true, force: true });
};
process.once('exit', removeOwnDir);

/** @type {Awaited<ReturnType<typeof serveCouch>>} */
let server;
try {
  server = await serveCouch({
    port,
    host: values.host,
    cors: !values['no-cors'],
    admin,
    maxAttachmentSize,
    inMemory: !values['on-disk'],
    dir,
  });
} catch (error) {
  console.error(`The CouchDB test server did not start: ${error instanceof Error ? error.stack : error}`);
  process.exit(1);
}
const host = values.host.includes(':') ? `[${values.host}]` : values.host;
console.log(`CouchDB test server listening on http://${host}:${server.port}`);
console.log(
  `  pouchdb-server 4.2.0, ${values['on-disk'] ? 'LevelDB' : 'in memory'}; CORS ${values['no-cors'] ? 'off' : 'on'};` +
    ` ${admin ? `admin ${admin.name}` : 'admin party'}; files in ${dir}`,
);
console.log(`  Stops on Ctrl+C, when its parent process exits, or by itself after ${lifetimeSeconds} s.`);

let stopping = false;
/** @param {string} reason @param {boolean} [onItsOwn] nobody will restart it on this directory */
async function stop(reason, onItsOwn = false) {
  if (stopping) return;
  stopping = true;
  console.log(`Stopping the CouchDB test server (${reason}).`);
  await server.close();
  if (onItsOwn && values['temporary-dir']) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
// A forgotten server stops by itself: after its lifetime, or once whatever started it is gone
// (an orphan is re-parented, so its parent pid changes).
setTimeout(
  () => void stop(`max lifetime of ${lifetimeSeconds} s reached`, true),
  Math.min(lifetimeSeconds * 1000, 2 ** 31 - 1),
).unref();
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stop('its parent process exited', true);
}, 1000).unref();
