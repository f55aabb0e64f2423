import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from './couch-server.mjs';

type Server = Awaited<ReturnType<typeof startCouchServer>>;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  json: unknown;
}

/** Plain node:http, no connection reuse (servers restart on the same port), every header visible. */
function call(
  server: Server,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method,
        agent: false,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const basic = (name: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`,
});
const appOrigin = 'http://127.0.0.1:4174';
const preflight = (method: string, headers: string) => ({
  origin: appOrigin,
  'access-control-request-method': method,
  'access-control-request-headers': headers,
});

/** Whether something else can listen on the port now. */
function portIsFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const admin = { name: 'admin', password: 'secret' };
let open: Server;
let noCors: Server;
let guarded: Server;
beforeAll(async () => {
  [open, noCors, guarded] = await Promise.all([
    startCouchServer({ maxLifetimeSeconds: 120 }),
    startCouchServer({ cors: false, maxLifetimeSeconds: 120 }),
    startCouchServer({ admin, maxLifetimeSeconds: 120 }),
  ]);
});
afterAll(async () => {
  await Promise.all([open, noCors, guarded].map((server) => server?.stop()));
});

describe('the CouchDB protocol (admin party, CORS on)', () => {
  it('welcomes, creates a database, and keeps revisions', async () => {
    const welcome = await call(open, 'GET', '/');
    expect(welcome.status).toBe(200);
    expect(welcome.json).toMatchObject({
      'express-pouchdb': 'Welcome!',
      version: '4.2.0',
      'pouchdb-adapters': ['memory'],
      uuid: expect.any(String),
    });

    expect(await call(open, 'PUT', '/protocol')).toMatchObject({ status: 201, json: { ok: true } });
    expect(await call(open, 'PUT', '/protocol')).toMatchObject({
      status: 412,
      json: { error: 'file_exists' },
    });

    const created = await call(open, 'PUT', '/protocol/note', { body: { text: 'one' } });
    expect(created).toMatchObject({ status: 201, json: { ok: true, id: 'note' } });
    const rev = (created.json as { rev: string }).rev;
    expect(rev).toMatch(/^1-[0-9a-f]{32}$/);
    expect(await call(open, 'GET', '/protocol/note')).toMatchObject({
      status: 200,
      json: { _id: 'note', _rev: rev, text: 'one' },
    });

    expect(await call(open, 'PUT', '/protocol/note', { body: { text: 'no rev' } })).toMatchObject({
      status: 409,
      // CouchDB ends its reason with a period; PouchDB does not.
      json: { error: 'conflict', reason: 'Document update conflict' },
    });
    const updated = await call(open, 'PUT', '/protocol/note', { body: { _rev: rev, text: 'two' } });
    expect(updated).toMatchObject({ status: 201, json: { rev: expect.stringMatching(/^2-/) } });
    expect(await call(open, 'PUT', '/protocol/note', { body: { _rev: rev, text: 'stale' } })).toMatchObject({
      status: 409,
    });

    const changes = await call(open, 'GET', '/protocol/_changes?since=0&include_docs=true');
    expect(changes.status).toBe(200);
    expect(changes.json).toMatchObject({
      results: [
        {
          id: 'note',
          changes: [{ rev: (updated.json as { rev: string }).rev }],
          doc: { _id: 'note', text: 'two' },
        },
      ],
      last_seq: expect.anything(),
    });
  });

  it('stores a conflict sent with new_edits: false, and shows it with ?conflicts=true', async () => {
    await call(open, 'PUT', '/conflicts');
    const first = await call(open, 'PUT', '/conflicts/doc', { body: { side: 'here' } });
    const ours = (first.json as { rev: string }).rev;
    const theirs = `1-${'f'.repeat(32)}`;
    const replicated = await call(open, 'POST', '/conflicts/_bulk_docs', {
      body: { docs: [{ _id: 'doc', _rev: theirs, side: 'there' }], new_edits: false },
    });
    expect(replicated.status).toBe(201);
    expect(replicated.json).toEqual([]);

    // The winner is the higher revision: same generation, so the greater hash.
    const doc = await call(open, 'GET', '/conflicts/doc?conflicts=true');
    expect(doc).toMatchObject({ status: 200, json: { _rev: theirs, side: 'there', _conflicts: [ours] } });
    const changes = await call(open, 'GET', '/conflicts/_changes?style=all_docs');
    expect((changes.json as { results: { changes: { rev: string }[] }[] }).results[0]?.changes).toEqual(
      expect.arrayContaining([{ rev: ours }, { rev: theirs }]),
    );
  });
});

describe('CORS', () => {
  it('on: any origin with credentials, on the preflight and on the response', async () => {
    const answer = await call(open, 'OPTIONS', '/protocol', {
      headers: preflight('PUT', 'authorization, content-type'),
    });
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': appOrigin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,DELETE,COPY',
      'access-control-allow-headers':
        'accept,accept-language,content-language,content-type,authorization,origin,referer',
    });
    const simple = await call(open, 'GET', '/', { headers: { origin: appOrigin } });
    expect(simple.headers).toMatchObject({
      'access-control-allow-origin': appOrigin,
      'access-control-allow-credentials': 'true',
    });
    expect(simple.headers['access-control-expose-headers']).toBeUndefined();
  });

  it('on: a preflight asking for a header outside the list gets 204 with no CORS header', async () => {
    const answer = await call(open, 'OPTIONS', '/protocol', {
      headers: preflight('PUT', 'content-type, if-match'),
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('off: no CORS header at all (a preflight falls through to the routes: 404)', async () => {
    const root = await call(noCors, 'OPTIONS', '/', { headers: preflight('GET', 'authorization') });
    expect(root).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'missing' } });
    expect(await call(noCors, 'PUT', '/db')).toMatchObject({ status: 201 });
    const db = await call(noCors, 'OPTIONS', '/db', { headers: preflight('PUT', 'content-type') });
    expect(db).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'missing' } });
    const simple = await call(noCors, 'GET', '/', { headers: { origin: appOrigin } });
    expect(simple.status).toBe(200);
    for (const answer of [root, db, simple])
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('an admin (no admin party)', () => {
  const wrong = basic('admin', 'wrong');
  const right = basic(admin.name, admin.password);
  const incorrect = { error: 'unauthorized', reason: 'Name or password is incorrect.' };
  const notAuthorized = { error: 'unauthorized', reason: 'You are not authorized to access this db.' };

  it('refuses a wrong password everywhere, and takes the right one', async () => {
    expect(await call(guarded, 'GET', '/_session', { headers: wrong })).toMatchObject({
      status: 401,
      json: incorrect,
    });
    expect(await call(guarded, 'PUT', '/private', { headers: wrong })).toMatchObject({
      status: 401,
      json: incorrect,
    });
    expect(await call(guarded, 'PUT', '/private', { headers: right })).toMatchObject({ status: 201 });
    expect(await call(guarded, 'GET', '/private', { headers: wrong })).toMatchObject({
      status: 401,
      json: incorrect,
    });
    expect(await call(guarded, 'GET', '/private', { headers: right })).toMatchObject({
      status: 200,
      json: { db_name: 'private', doc_count: 0 },
    });
    expect(await call(guarded, 'GET', '/_session', { headers: right })).toMatchObject({
      status: 200,
      json: { ok: true, userCtx: { name: 'admin', roles: ['_admin'] }, info: { authenticated: 'default' } },
    });
    expect(await call(guarded, 'GET', '/_session')).toMatchObject({
      status: 200,
      json: { userCtx: { name: null, roles: [] } },
    });
  });

  it('keeps new databases to admins, and survives the refusals that crash pouchdb-server', async () => {
    await call(guarded, 'PUT', '/admins-only', { headers: right });
    expect(await call(guarded, 'GET', '/admins-only/_security', { headers: right })).toMatchObject({
      json: { members: { roles: ['_admin'] }, admins: { roles: ['_admin'] } },
    });
    expect(await call(guarded, 'GET', '/admins-only')).toMatchObject({ status: 401, json: notAuthorized });
    expect(await call(guarded, 'PUT', '/admins-only/doc', { body: {} })).toMatchObject({
      status: 401,
      json: notAuthorized,
    });
    // Both crash pouchdb-server 4.2.0 itself (serve.mjs): answered here, and the server goes on.
    expect(await call(guarded, 'PUT', '/not-created')).toMatchObject({ status: 401, json: notAuthorized });
    expect(await call(guarded, 'DELETE', '/admins-only')).toMatchObject({ status: 401, json: notAuthorized });
    expect(
      await call(guarded, 'PUT', '/admins-only/doc', { headers: right, body: { after: 'refusals' } }),
    ).toMatchObject({ status: 201 });
    expect(await call(guarded, 'GET', '/not-created', { headers: right })).toMatchObject({ status: 404 });
  });
});

describe('restart and stop', () => {
  it('restarts on the same port with no data, and stop frees the port', async () => {
    const server = await startCouchServer({ admin, maxLifetimeSeconds: 60 });
    try {
      const right = basic(admin.name, admin.password);
      await call(server, 'PUT', '/kept', { headers: right });
      const before = await call(server, 'GET', '/', { headers: right });
      await server.restart();
      expect(await call(server, 'GET', '/kept', { headers: right })).toMatchObject({
        status: 404,
        json: { error: 'not_found', reason: 'no_db_file' },
      });
      // The same config.json: the same uuid, the same admin.
      expect((await call(server, 'GET', '/')).json).toMatchObject({
        uuid: (before.json as { uuid: string }).uuid,
      });
      expect(await call(server, 'GET', '/_session', { headers: right })).toMatchObject({
        json: { userCtx: { name: 'admin' } },
      });
      expect(await portIsFree(server.port)).toBe(false);
    } finally {
      await server.stop();
    }
    expect(await portIsFree(server.port)).toBe(true);
    await expect(call(server, 'GET', '/')).rejects.toThrow(/ECONNREFUSED/);
    await server.stop(); // again: nothing to do
  });

  it('on disk (LevelDB, its bundled prebuild), keeps the data across a restart', async () => {
    const server = await startCouchServer({ inMemory: false, maxLifetimeSeconds: 60 });
    try {
      await call(server, 'PUT', '/kept');
      const saved = await call(server, 'PUT', '/kept/doc', { body: { n: 1 } });
      await server.restart();
      expect(await call(server, 'GET', '/kept/doc')).toMatchObject({
        status: 200,
        json: { _rev: (saved.json as { rev: string }).rev, n: 1 },
      });
      expect((await call(server, 'GET', '/')).json).toMatchObject({ 'pouchdb-adapters': ['leveldb'] });
    } finally {
      await server.stop();
    }
  });
});
