// @ts-check
/**
 * pouchdb-server, assembled in this process as its `lib/index.js` assembles it (express, its CORS
 * middleware and express-pouchdb over pouchdb-core), because that file is a script that parses
 * process.argv and cannot be imported. Only cli.mjs calls this: tests reach it through
 * couch-server.mjs, which runs cli.mjs as a child process (see README.md for why).
 *
 * Three changes to what `pouchdb-server --in-memory` does. Once an admin exists, pouchdb-server
 * 4.2.0 crashes on two refusals (both seen with its own CLI, see README.md):
 * - A non-admin's `PUT /{db}`: express-pouchdb's routes/db.js calls `.info` on the rejected promise
 *   that pouchdb-security's `PouchDB.new` returns (an uncaught TypeError). Here the refusal is
 *   answered instead: 401 with pouchdb-security's own error.
 * - A non-admin's `DELETE /{db}` is answered 401, but it leaves the one queue in which
 *   express-pouchdb opens and deletes databases (create-or-delete-dbs.js) rejected for good: every
 *   later request for a database then ends in an unhandled rejection. Here the queue goes on.
 * And once an admin exists, a new database gets CouchDB 3's default security object (`[couchdb]
 * default_security = admin_only`), so only admins can read or write it, as on a CouchDB 3 with an
 * admin. pouchdb-server alone leaves new databases open to anyone (CouchDB 2's default).
 */

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';

/** pouchdb-server's own dependencies, resolved from where it is installed (they are not ours). */
const requireFromServer = createRequire(createRequire(import.meta.url).resolve('pouchdb-server'));

/**
 * express-pouchdb opens and deletes databases one at a time, through `promiseChain =
 * promiseChain.then(step)`: one failed step (a refused deletion) rejects every later one. The same
 * two functions over a queue that outlives a failure, put in place before express-pouchdb's
 * modules copy them (utils.js and routes/db.js keep references from when they load).
 */
function mendDatabaseQueue() {
  const requireFromExpressPouchDB = createRequire(requireFromServer.resolve('express-pouchdb'));
  const databases = requireFromExpressPouchDB('./create-or-delete-dbs');
  if (databases.mended) return;
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();
  /** @template T @param {() => T | PromiseLike<T>} step @returns {Promise<T>} */
  const sequentially = (step) => {
    const result = queue.then(step);
    queue = result.catch(() => undefined);
    return result;
  };
  /** @param {any} PouchDB @returns {Map<string, any>} */
  const cacheOf = (PouchDB) => (PouchDB.__dbCacheMap ??= new Map());
  /** @param {any} PouchDB @param {string} name */
  databases.getOrCreateDB = (PouchDB, name) =>
    sequentially(() => {
      const cache = cacheOf(PouchDB);
      if (!cache.has(name)) cache.set(name, new PouchDB(name));
      return cache.get(name);
    });
  /** @param {any} PouchDB @param {string} name @param {object} [options] */
  databases.deleteDB = (PouchDB, name, options) =>
    sequentially(() => {
      const cache = cacheOf(PouchDB);
      const db = cache.get(name);
      if (!db) return PouchDB.destroy(name, options);
      cache.delete(name);
      return db.destroy(options);
    });
  databases.mended = true;
}

export const loopbackHosts = ['127.0.0.1', '::1', 'localhost'];

/** What CouchDB 3 gives a new database when `[couchdb] default_security` is `admin_only`. */
export const adminOnlySecurity = { members: { roles: ['_admin'] }, admins: { roles: ['_admin'] } };

/**
 * @typedef {object} ServeOptions
 * @property {number} [port] 0 picks a free one
 * @property {string} [host] a loopback address
 * @property {boolean} [cors] CouchDB's `[httpd] enable_cors`; pouchdb-server's `[cors]` defaults
 *   (any origin, with credentials) apply when it is on
 * @property {{ name: string, password: string }} [admin] a server admin: no more "admin party"
 * @property {number} [maxAttachmentSize] CouchDB's `[couchdb] max_attachment_size` (bytes), which
 *   pouchdb-server does not have: a larger attachment PUT is refused with CouchDB's 413
 * @property {boolean} [inMemory] memdown (nothing on disk); false keeps LevelDB files in `dir`
 * @property {string} dir where config.json, log.txt and any LevelDB files go
 */

/**
 * CouchDB's answer to an attachment over `[couchdb] max_attachment_size`, for a standalone
 * attachment PUT (`/{db}/{docid}/{attname}`): 413 `attachment_too_large`, the attachment's name
 * as the reason, before anything is stored.
 * @param {number} limit
 * @returns {(req: import('node:http').IncomingMessage & { path: string, method: string }, res: any, next: () => void) => void}
 */
function refuseLargeAttachments(limit) {
  return (req, res, next) => {
    const parts = req.path.split('/').filter(Boolean);
    const length = Number(req.headers['content-length'] ?? 0);
    const attachment = parts.length >= 3 && !parts[0]?.startsWith('_') && parts[1] !== '_local';
    if (req.method === 'PUT' && attachment && length > limit) {
      res
        .status(413)
        .json({ error: 'attachment_too_large', reason: decodeURIComponent(parts.slice(2).join('/')) });
      return;
    }
    next();
  };
}

/** @param {ServeOptions} options */
export async function serveCouch({
  port = 0,
  host = '127.0.0.1',
  cors = true,
  admin,
  maxAttachmentSize,
  inMemory = true,
  dir,
}) {
  if (!loopbackHosts.includes(host))
    throw new Error(`The CouchDB test server binds loopback addresses only, not ${host}`);
  mendDatabaseQueue();
  const express = requireFromServer('express');
  const expressPouchDB = requireFromServer('express-pouchdb');
  const corsMiddleware = requireFromServer('./cors');
  const PouchDB = requireFromServer('pouchdb-core')
    .plugin(requireFromServer('pouchdb-adapter-http'))
    .plugin(requireFromServer('pouchdb-replication'))
    .plugin(requireFromServer('pouchdb-mapreduce'))
    .plugin(requireFromServer(inMemory ? 'pouchdb-adapter-memory' : 'pouchdb-adapter-leveldb'));

  // config.json is written whole before express-pouchdb reads it, as a person would edit it, rather
  // than through config.set(): express-pouchdb's constructor rewrites an existing file without
  // waiting (to hash admin passwords), and two writes at once collide on its temporary file.
  // The admin's password is stored hashed, and the uuid kept, so a restart in this directory
  // is the same server.
  const configPath = join(dir, 'config.json');
  /** @type {Record<string, Record<string, unknown>>} */
  const stored = existsSync(configPath) ? JSON.parse(readFileSync(configPath, 'utf8')) : {};
  stored.couchdb = { uuid: randomUUID(), ...stored.couchdb };
  stored.httpd = { ...stored.httpd, enable_cors: cors };
  if (admin) {
    const Auth = createRequire(requireFromServer.resolve('express-pouchdb'))('pouchdb-auth');
    stored.admins = await Auth.hashAdminPasswords({ [admin.name]: admin.password });
  } else delete stored.admins;
  writeFileSync(configPath, `${JSON.stringify(stored, null, 2)}\n`);

  const app = express();
  const couchApp = expressPouchDB({ configPath, logPath: join(dir, 'log.txt') });
  const config = couchApp.couchConfig;
  // The settings pouchdb-server registers, so that /_config reads as it does there.
  config.registerDefault('httpd', 'port', port);
  config.registerDefault('httpd', 'bind_address', host);
  config.registerDefault('couchdb', 'database_dir', dir);
  config.registerDefault('pouchdb_server', 'in_memory', inMemory);

  app.use(corsMiddleware(config));
  if (maxAttachmentSize !== undefined) app.use(refuseLargeAttachments(maxAttachmentSize));
  const Pouch = PouchDB.defaults({ prefix: dir + sep });
  await couchApp.setPouchDB(Pouch);
  const create = Pouch.new;
  /** @param {string} name @param {object} [options] */
  Pouch.new = function (name, options) {
    const db = create.call(this, name, options);
    if (typeof db?.info !== 'function') {
      // Refused: a promise that rejects with 401. routes/db.js only calls info(callback) on it.
      /** @param {(error: unknown) => void} done */
      const info = (done) =>
        Promise.resolve(db).then(() => done(new Error('The database was not created.')), done);
      return { info };
    }
    if (admin) {
      const info = db.info.bind(db);
      /** @param {(error: unknown, info?: unknown) => void} done */
      db.info = (done) => db.putSecurity(adminOnlySecurity).then(() => info(done), done);
    }
    return db;
  };
  app.use(couchApp);

  /** @type {import('node:http').Server} */
  const server = await new Promise((resolve, reject) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.once('error', reject);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The server has no port');
  return {
    port: address.port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
