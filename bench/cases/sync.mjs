// @ts-check
/* global document, window, indexedDB, location, requestAnimationFrame, HTMLTextAreaElement */
/**
 * Case 14: sync with the user's CouchDB (docs/sync.md), against a real CouchDB-protocol server:
 * pouchdb-server in memory on 127.0.0.1 with an admin (tools/couch-server), a fresh database per
 * run, created with Basic authentication before the app opens.
 *
 * The history is the cold-start case's 1000 conversations (~52 MB, cold-start.mjs), in a profile
 * on disk that is opened once until its search index is saved and a backup was taken today (so
 * neither runs during a run, as for a user who opened the app earlier today); each run launches a
 * copy, with sync already on (localStorage `ai-chat-sync`, the password in `ai-chat-mcp-secrets`
 * as `sync:password`, as 'Turn on sync' keeps them while keys are not protected), automatic titles
 * off.
 *
 * The measured launch is Chromium driven over the DevTools protocol without Playwright
 * (bare-browser.mjs): Playwright's Network domain copies every request body into its events on
 * the page's main thread, which on 5.7 MB bodies makes long tasks of its own. So the traffic is
 * counted by a proxy in front of the server, to which the app is pointed: each request's body
 * bytes, the response bytes as the server sent them (pouchdb-server compresses JSON with brotli;
 * decoded afterwards for the bodies' size), CORS preflights (OPTIONS) apart. Nothing of it runs
 * in the page.
 *
 * 1. First sync: from navigation start until the status 'Sync status' says 'Synced' (an init
 *    script reads it once per animation frame), and until the server holds all 1000 documents
 *    (a long poll of the database's changes feed from Node, distinct ids; `GET /{db}` doc_count
 *    checked at the end). Then until the traffic settles (no request begins or ends for 3 s, the
 *    app's pending long poll aside): the app reads its own writes back through the changes feed.
 *    Bytes and requests over that window; long tasks (PerformanceObserver 'longtask', > 50 ms)
 *    from the first request to the server until then (those of the start before it: notes).
 * 2. Steady state: in the same page, 20 messages sent in the active conversation (18 messages) a
 *    second apart (typed into 'Message', Enter), each answered by the mock's `ok` scenario (a short
 *    echo, ~0.3 s), the next sent once the reply is over. Per reply: from its end (the chat
 *    request's terminating event handed to the page, a fetch wrapper on chat requests only) until
 *    a revision of its document holding that reply is on the server (the changes feed from Node,
 *    with the documents); bytes and requests per reply (the window from the first send until the
 *    traffic settles, 2 s, divided by the replies); long tasks over that window.
 */

import { cp, mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { startCouchServer } from '../../tools/couch-server/couch-server.mjs';
import { launchBare, noServiceWorkerInit } from '../bare-browser.mjs';
import { launchPersistent, watchErrors } from '../browser.mjs';
import { longTaskProbeInit } from '../probes.mjs';
import { median, pluck, sleep, sum } from '../stats.mjs';
import { activeId, prepareColdProfile, removeColdProfile } from './cold-start.mjs';

const admin = { name: 'bench', password: 'bench-sync-password' };
const replies = 20;
const replyPeriodMs = 1000;
const firstSyncTimeoutMs = 10 * 60_000;

/**
 * @typedef {{ start: number, duration: number }} Task
 * @typedef {{ rowsAt: number | null, syncedAt: number | null, statuses: { at: number, text: string }[] }} SyncProbe
 * @typedef {Window & { __benchSync?: SyncProbe, __benchLongTasks?: Task[], __benchReplyEnds?: number[] }} SyncWindow
 *
 * @typedef {object} ProxyEntry One request through the counting proxy.
 * @property {number} at Its start (epoch ms).
 * @property {number | null} endAt The response's end.
 * @property {string} method
 * @property {string} path
 * @property {number} status
 * @property {number} sent Request body bytes.
 * @property {number} received Response body bytes as the server sent them.
 * @property {string} encoding The response's content-encoding ('' when none).
 * @property {Buffer[]} encoded The response's body when encoded, to count it decoded afterwards.
 *
 * @typedef {object} Traffic Requests to the server over a window.
 * @property {number} requests Without preflights.
 * @property {number} preflights
 * @property {number} sentBytes Request bodies.
 * @property {number} receivedBytes Response bodies, decoded.
 * @property {number} wireBytes Response bodies as the server sent them (compressed).
 * @property {Record<string, number>} kinds Requests by what they ask.
 *
 * @typedef {object} FirstSync Page times (ms since navigation start); NaN when not observed.
 * @property {number} readyMs
 * @property {number} firstRequestMs
 * @property {number} syncedMs
 * @property {number} allDocsMs
 * @property {number} settledMs
 * @property {Traffic} traffic
 * @property {number} longTasks
 * @property {number} longestMs
 *
 * @typedef {object} Steady
 * @property {number[]} latenciesMs Per reply: its end to its revision on the server.
 * @property {number} paceMs Between two reply ends, on average.
 * @property {Traffic} traffic Over the window.
 * @property {number} longTasks
 * @property {number} longestMs
 * @property {number} windowS
 *
 * @typedef {{ first: FirstSync, steady: Steady | null, loadAverage: number }} RunResult
 */

/** Init script: when the first sidebar row shows, and each text the status 'Sync status' shows. */
function syncProbeInit() {
  if (location.pathname !== '/') return;
  const w = /** @type {SyncWindow} */ (window);
  /** @type {SyncProbe} */
  const probe = { rowsAt: null, syncedAt: null, statuses: [] };
  w.__benchSync = probe;
  let last = '';
  const check = () => {
    const now = performance.now();
    if (probe.rowsAt === null && document.querySelector('[data-testid=conversation-row]')) probe.rowsAt = now;
    const text = document.querySelector('[role=status][aria-label="Sync status"]')?.textContent ?? '';
    if (text !== last) {
      last = text;
      if (probe.statuses.length < 500) probe.statuses.push({ at: now, text });
      if (text === 'Synced') probe.syncedAt ??= now;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/**
 * Init script: the time each reply's stream ends (its terminating event handed to the page:
 * Chat Completions' `data: [DONE]`, the Responses API's response.completed, or the body's end),
 * in __benchReplyEnds. Other requests (the server's) pass through untouched.
 */
function replyEndProbeInit() {
  const w = /** @type {SyncWindow} */ (window);
  /** @type {number[]} */
  const ends = (w.__benchReplyEnds = []);
  const original = window.fetch.bind(window);
  /** @param {RequestInfo | URL} input @param {RequestInit} [init] */
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const response = await original(input, init);
    if (!(url.includes('/chat/completions') || url.includes('/v1/responses')) || !response.body)
      return response;
    const decoder = new TextDecoder();
    let tail = '';
    let completing = false;
    let ended = false;
    const markEnd = () => {
      if (!ended) ends.push(performance.now());
      ended = true;
    };
    /** @type {TransformStream<Uint8Array, Uint8Array>} */
    const tap = new TransformStream({
      transform(chunk, controller) {
        const text = tail + decoder.decode(chunk, { stream: true });
        tail = text.slice(-32);
        completing ||= text.includes('event: response.completed\n');
        controller.enqueue(chunk);
        if (text.includes('data: [DONE]') || (completing && text.endsWith('\n\n'))) markEnd();
      },
      flush: markEnd,
    });
    return new Response(response.body.pipeThrough(tap), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * In the page: how many conversations the saved search index holds, and how many backups there
 * are. A database the app has not made yet is not opened (that would make it, without its stores).
 */
async function storedExtras() {
  const made = new Set((await indexedDB.databases()).map((db) => db.name));
  /** @param {string} name @param {(db: IDBDatabase) => Promise<number>} read @returns {Promise<number>} */
  const inDb = (name, read) =>
    new Promise((resolve) => {
      if (!made.has(name)) return resolve(0);
      const open = indexedDB.open(name);
      open.onerror = () => resolve(0);
      open.onsuccess = () => {
        const db = open.result;
        read(db).then(
          (value) => {
            db.close();
            resolve(value);
          },
          () => {
            db.close();
            resolve(0);
          },
        );
      };
    });
  /** @param {IDBRequest} request @returns {Promise<any>} */
  const done = (request) =>
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const indexed = await inDb('ai-chat-search', async (db) =>
    db.objectStoreNames.contains('snapshots')
      ? Object.keys(
          (await done(db.transaction('snapshots').objectStore('snapshots').get('index')))?.keys ?? {},
        ).length
      : 0,
  );
  const backups = await inDb('ai-chat-backups', async (db) =>
    db.objectStoreNames.contains('backups')
      ? await done(db.transaction('backups').objectStore('backups').count())
      : 0,
  );
  return { indexed, backups };
}

/**
 * Opens the seeded profile until its search index is saved and a backup is there (any taken today
 * spares the daily one: the backup before the first start's database upgrade, or the daily one a
 * minute after a start), so that neither the index build nor a backup happens in a run.
 * @param {{ appUrl: string, errors: string[] }} env @param {string} dir @param {number} size
 */
async function settleProfile(env, dir, size) {
  const context = await launchPersistent(dir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watchErrors(page, env.errors);
    await page.goto(`${env.appUrl}/`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 60_000 });
    const deadline = Date.now() + 150_000;
    let extras = { indexed: 0, backups: 0 };
    while (Date.now() < deadline) {
      extras = await page.evaluate(storedExtras);
      if (extras.indexed === size && extras.backups > 0) return;
      await sleep(1000);
    }
    env.errors.push(
      `sync: the profile was not settled: ${extras.indexed} conversations indexed, ${extras.backups} backup(s)`,
    );
  } finally {
    await context.close();
  }
}

/** @param {string} url @param {string} method @param {string} path @param {unknown} [body] */
async function couch(url, method, path, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${admin.name}:${admin.password}`).toString('base64')}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = /** @type {Record<string, any>} */ (await response.json());
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Reads the database's changes feed from Node by long polling, from `since`, each change handed
 * to `onChange` with the time it arrived (Date.now()).
 * @param {string} url @param {string} database @param {string} since @param {boolean} docs
 * @param {(change: { id: string, deleted?: boolean, doc?: Record<string, unknown> }, at: number) => void} onChange
 */
function watchChanges(url, database, since, docs, onChange) {
  const controller = new AbortController();
  let position = since;
  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(
          `${url}/${database}/_changes?feed=longpoll&since=${position}${docs ? '&include_docs=true' : ''}`,
          {
            headers: {
              accept: 'application/json',
              authorization: `Basic ${Buffer.from(`${admin.name}:${admin.password}`).toString('base64')}`,
            },
            signal: controller.signal,
          },
        );
        const body = /** @type {{ results: any[], last_seq: unknown }} */ (await response.json());
        const at = Date.now();
        for (const change of body.results ?? []) onChange(change, at);
        position = String(body.last_seq ?? position);
      } catch {
        if (!controller.signal.aborted) await sleep(200);
      }
    }
  })();
  return {
    async stop() {
      controller.abort();
      await loop;
    },
  };
}

/**
 * A proxy in front of the server that counts what passes (the app is pointed at it): per request
 * its method, path, status, body bytes each way (the response as the server sent it, compressed
 * or not) and times (epoch ms). Nothing of it runs in the page.
 * @param {string} target The server's address.
 */
async function startCountingProxy(target) {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true });
  /** @type {ProxyEntry[]} */
  const entries = [];
  const server = createServer((request, response) => {
    /** @type {ProxyEntry} */
    const entry = {
      at: Date.now(),
      endAt: null,
      method: request.method ?? '',
      path: request.url ?? '/',
      status: 0,
      sent: 0,
      received: 0,
      encoding: '',
      encoded: [],
    };
    entries.push(entry);
    const upstream = httpRequest(
      {
        hostname,
        port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: `${hostname}:${port}` },
        agent,
      },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        entry.encoding = answer.headers['content-encoding'] ?? '';
        response.writeHead(entry.status, answer.headers);
        answer.on('data', (/** @type {Buffer} */ chunk) => {
          entry.received += chunk.length;
          if (entry.encoding) entry.encoded.push(chunk);
        });
        answer.on('end', () => (entry.endAt = Date.now()));
        answer.pipe(response);
      },
    );
    request.on('data', (/** @type {Buffer} */ chunk) => (entry.sent += chunk.length));
    request.pipe(upstream);
    // The page gave up (an aborted long poll): so does the request to the server.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.on('error', () => response.destroy());
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;

  /** A response body's size once decoded (pouchdb-server sends JSON in br or gzip). @param {ProxyEntry} entry */
  const decodedSize = (entry) => {
    if (!entry.encoding || entry.endAt === null) return entry.received;
    const body = Buffer.concat(entry.encoded);
    if (entry.encoding === 'br') return brotliDecompressSync(body).length;
    if (entry.encoding === 'gzip') return gunzipSync(body).length;
    if (entry.encoding === 'deflate') return inflateSync(body).length;
    return Number.NaN;
  };
  /** What a request asks, for the notes. @param {ProxyEntry} entry */
  const kind = (entry) => {
    const path = entry.path.split('?')[0]?.split('/').slice(2).join('/') ?? '';
    if (entry.method === 'OPTIONS') return 'preflight';
    return path.startsWith('_') ? `${entry.method} ${path}` : `${entry.method} document`;
  };
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    /** Requests since `from` with a status of 400 or more, for the notes. @param {number} from */
    failures: (from) =>
      entries
        .filter((entry) => entry.at >= from && entry.status >= 400)
        .map((entry) => `${entry.status} ${entry.method} ${entry.path.slice(0, 120)}`),
    /** The latest time a request began or ended. */
    lastActivity: () => Math.max(0, ...entries.map((entry) => Math.max(entry.at, entry.endAt ?? 0))),
    /** The first request's time since `from`; NaN before any. @param {number} from */
    firstAt(from) {
      const times = entries.filter((entry) => entry.at >= from).map((entry) => entry.at);
      return times.length > 0 ? Math.min(...times) : Number.NaN;
    },
    /** @param {number} from @param {number} to @returns {Traffic} */
    between(from, to) {
      const during = entries.filter((entry) => entry.at >= from && entry.at <= to);
      /** @type {Record<string, number>} */
      const kinds = {};
      for (const entry of during) kinds[kind(entry)] = (kinds[kind(entry)] ?? 0) + 1;
      const preflights = during.filter((entry) => entry.method === 'OPTIONS').length;
      return {
        requests: during.length - preflights,
        preflights,
        sentBytes: sum(during.map((entry) => entry.sent)),
        wireBytes: sum(during.map((entry) => entry.received)),
        // Decoded only now, away from the measured window.
        receivedBytes: sum(during.map(decodedSize)),
        kinds,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      agent.destroy();
    },
  };
}

/**
 * Waits until no request to the server began or ended for `quietMs` (a pending long poll does
 * neither), at most `maxMs`; the time of the last activity.
 * @param {{ lastActivity(): number }} network @param {number} quietMs @param {number} maxMs
 */
async function settled(network, quietMs, maxMs) {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const last = network.lastActivity();
    if (Date.now() - last >= quietMs) return last;
    await sleep(250);
  }
  return network.lastActivity();
}

/** @param {Task[]} tasks @param {number} from @param {number} to */
const tasksIn = (tasks, from, to) =>
  tasks.filter((task) => task.start + task.duration >= from && task.start <= to);

/** @param {number} index */
const tag = (index) => `Steady message #${String(index).padStart(2, '0')}.`;

/**
 * Sync on, as 'Turn on sync' leaves it (the password where API keys are kept while they are not
 * protected): written on the app's origin with Playwright before the measured launch.
 * @param {string} appUrl @param {string} dir @param {{ url: string, database: string }} where
 */
async function turnSyncOn(appUrl, dir, { url, database }) {
  const context = await launchPersistent(dir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const setUpUrl = `${appUrl}/__bench_sync_setup__`;
    await page.route(setUpUrl, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html>' }),
    );
    await page.goto(setUpUrl);
    await page.evaluate(
      ({ sync, secrets }) => {
        localStorage.setItem('ai-chat-sync', sync);
        localStorage.setItem('ai-chat-mcp-secrets', secrets);
        localStorage.setItem('ai-chat-auto-title', 'off');
      },
      {
        sync: JSON.stringify({ url, database, username: admin.name, on: true, paused: false }),
        secrets: JSON.stringify({ 'sync:password': admin.password }),
      },
    );
  } finally {
    await context.close();
  }
}

/** In the page: the probes' records. */
function readProbes() {
  const w = /** @type {SyncWindow} */ (window);
  return {
    sync: w.__benchSync ?? null,
    longTasks: w.__benchLongTasks ?? [],
    replyEnds: w.__benchReplyEnds ?? [],
    origin: performance.timeOrigin,
  };
}

/**
 * One run: a copy of the profile, a fresh database, the first sync, then the replies.
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {string} profileDir @param {number} size
 * @param {{ url: string }} server @param {number} run
 * @returns {Promise<RunResult>}
 */
async function measureRun(ctx, profileDir, size, server, run) {
  const dir = await mkdtemp(join(tmpdir(), 'ai-chat-bench-sync-'));
  const database = `bench-sync-${run}-${Date.now().toString(36)}`;
  /** The page's notes, for ctx.errors once the run is over. @type {string[]} */
  const notes = [];
  /** @type {{ stop(): Promise<void> }[]} */
  const watchers = [];
  const proxy = await startCountingProxy(server.url);
  /** @type {Awaited<ReturnType<typeof launchBare>> | undefined} */
  let page;
  try {
    await cp(profileDir, dir, { recursive: true });
    await couch(server.url, 'PUT', `/${database}`);
    await turnSyncOn(ctx.appUrl, dir, { url: proxy.url, database });
    page = await launchBare(dir, { onNote: (note) => notes.push(note) });
    await page.addInitScript(noServiceWorkerInit);
    await page.addInitScript(longTaskProbeInit);
    await page.addInitScript(syncProbeInit);
    await page.addInitScript(replyEndProbeInit);

    const ids = new Set();
    let allDocsAt = Number.NaN;
    watchers.push(
      watchChanges(server.url, database, '0', false, (change, at) => {
        // The conversations: not the settings' document that goes with them.
        if (!change.id.startsWith('conversation:')) return;
        if (change.deleted) ids.delete(change.id);
        else ids.add(change.id);
        if (ids.size >= size && Number.isNaN(allDocsAt)) allDocsAt = at;
      }),
    );

    // 1. The first sync.
    const navigatedAt = Date.now();
    await page.goto(`${ctx.appUrl}/`);
    let probes = await page.evaluate(readProbes);
    const { origin } = probes;
    const deadline = Date.now() + firstSyncTimeoutMs;
    let lastSaid = Date.now();
    const done = () => probes.sync?.syncedAt != null && !Number.isNaN(allDocsAt);
    while (Date.now() < deadline && !done()) {
      await sleep(250);
      probes = await page.evaluate(readProbes);
      if (Date.now() - lastSaid > 30_000) {
        lastSaid = Date.now();
        ctx.progress(
          `case 14, run ${run}: ${ids.size} documents on the server, '${probes.sync?.statuses.at(-1)?.text ?? ''}'`,
        );
      }
    }
    const finished = done();
    if (!finished)
      notes.push(
        `sync run ${run}: the first sync did not end within ${firstSyncTimeoutMs / 60_000} min: ` +
          `${ids.size} documents on the server, last statuses ` +
          JSON.stringify(probes.sync?.statuses.slice(-5).map((status) => status.text)),
      );
    const settledAt = await settled(proxy, 3000, 120_000);
    probes = await page.evaluate(readProbes);
    const info = await couch(server.url, 'GET', `/${database}`);
    // The conversations and the settings' document.
    if (info['doc_count'] !== size + 1)
      notes.push(`sync run ${run}: the server holds ${info['doc_count']} documents, not ${size + 1}`);
    const firstFrom = proxy.firstAt(navigatedAt) - origin;
    const firstTo = settledAt - origin;
    const firstTasks = tasksIn(probes.longTasks, firstFrom, firstTo);
    for (const task of tasksIn(probes.longTasks, 0, firstFrom))
      notes.push(
        `sync run ${run}: a long task of ${Math.round(task.duration)} ms at start, ` +
          `${Math.round(task.start)} ms after navigation (before sync's first request)`,
      );
    for (const task of firstTasks)
      notes.push(
        `sync run ${run}, first sync: a long task of ${Math.round(task.duration)} ms, ` +
          `${((task.start - firstFrom) / 1000).toFixed(2)} s after the first request`,
      );
    /** @type {FirstSync} */
    const first = {
      readyMs: probes.sync?.rowsAt ?? Number.NaN,
      firstRequestMs: firstFrom,
      syncedMs: probes.sync?.syncedAt ?? Number.NaN,
      allDocsMs: allDocsAt - origin,
      settledMs: firstTo,
      traffic: proxy.between(navigatedAt, settledAt),
      longTasks: firstTasks.length,
      longestMs: Math.max(0, ...firstTasks.map((task) => task.duration)),
    };
    if (!finished) return { first, steady: null, loadAverage: loadavg()[0] ?? Number.NaN };

    // 2. A reply a second.
    ctx.progress(`case 14, run ${run}: ${replies} replies, one a second`);
    await sleep(2000);
    /** @type {(number | null)[]} */
    const onServer = Array.from({ length: replies + 1 }, () => null);
    const documentId = `conversation:${activeId}`;
    const since = String((await couch(server.url, 'GET', `/${database}`))['update_seq']);
    watchers.push(
      watchChanges(server.url, database, since, true, (change, at) => {
        if (change.id !== documentId || !change.doc) return;
        const text = JSON.stringify(change.doc);
        for (let index = 1; index <= replies; index++)
          if (onServer[index] === null && text.includes(`Echo: ${tag(index)}`)) onServer[index] = at;
      }),
    );
    const endsBefore = (await page.evaluate(readProbes)).replyEnds.length;
    const start = Date.now();
    for (let index = 1; index <= replies; index++) {
      await sleep(start + (index - 1) * replyPeriodMs - Date.now());
      const focused = await page.evaluate(() => {
        const composer = document.querySelector('textarea[aria-label="Message"]');
        if (!(composer instanceof HTMLTextAreaElement) || composer.disabled) return false;
        composer.focus();
        return true;
      });
      if (!focused) throw new Error(`The composer was not there to send message ${index}`);
      await page.insertText(tag(index));
      await page.pressEnter();
      await page.waitFor(
        (count) => {
          const w = /** @type {SyncWindow} */ (window);
          return (w.__benchReplyEnds?.length ?? 0) >= count;
        },
        endsBefore + index,
        {
          timeoutMs: 30_000,
          pollMs: 50,
        },
      );
      await page.waitFor(() => document.querySelector('[data-testid=streaming-cursor]') === null, undefined, {
        timeoutMs: 10_000,
        pollMs: 50,
      });
    }
    const lastDeadline = Date.now() + 20_000;
    while (onServer[replies] === null && Date.now() < lastDeadline) await sleep(100);
    const steadyEnd = await settled(proxy, 2000, 30_000);
    probes = await page.evaluate(readProbes);
    const ends = probes.replyEnds.slice(endsBefore).map((end) => origin + end);
    if (ends.length !== replies)
      notes.push(`sync run ${run}: ${ends.length} replies for ${replies} messages`);
    const latencies = ends.map((end, index) => (onServer[index + 1] ?? Number.NaN) - end);
    const missing = latencies.filter((latency) => !Number.isFinite(latency)).length;
    if (missing > 0) notes.push(`sync run ${run}: ${missing} of ${replies} replies never reached the server`);
    const steadyTasks = tasksIn(probes.longTasks, start - origin, steadyEnd - origin);
    for (const task of steadyTasks)
      notes.push(
        `sync run ${run}, replies: a long task of ${Math.round(task.duration)} ms, ` +
          `${((task.start - (start - origin)) / 1000).toFixed(2)} s after the first send`,
      );
    const finalStatus = probes.sync?.statuses.at(-1)?.text;
    if (finalStatus !== 'Synced') notes.push(`sync run ${run}: the status ends as '${finalStatus}'`);
    const firstEnd = ends[0] ?? Number.NaN;
    const lastEnd = ends.at(-1) ?? Number.NaN;
    return {
      first,
      steady: {
        latenciesMs: latencies,
        paceMs: (lastEnd - firstEnd) / (replies - 1),
        traffic: proxy.between(start, steadyEnd),
        longTasks: steadyTasks.length,
        longestMs: Math.max(0, ...steadyTasks.map((task) => task.duration)),
        windowS: (steadyEnd - start) / 1000,
      },
      loadAverage: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    notes.push(
      ...proxy
        .failures(0)
        // The question 'is this database encrypted?', answered no: expected.
        .filter((failure) => !failure.startsWith('404 GET') || !failure.endsWith('/sync%3Aencryption'))
        .map((failure) => `sync run ${run}: the server answered ${failure}`),
    );
    ctx.errors.push(...notes);
    for (const watcher of watchers) await watcher.stop();
    await page?.close();
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
    // The server keeps its databases in memory: this one goes.
    await couch(server.url, 'DELETE', `/${database}`).catch(() => undefined);
  }
}

/**
 * @param {import('../report.mjs').CaseContext} ctx @param {{ coldSizes: { many: number } }} settings
 */
export async function syncCase(ctx, settings) {
  const env = { appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  const size = settings.coldSizes.many;
  ctx.progress(`case 14: seeding ${size} conversations`);
  const profile = await prepareColdProfile(env, size);
  ctx.onCleanup(() => removeColdProfile(profile));
  ctx.progress('case 14: opening it until its search index is saved and a backup taken');
  await settleProfile(env, profile.dir, size);
  const server = await startCouchServer({ admin, maxLifetimeSeconds: 3 * 3600 });
  ctx.onCleanup(() => server.stop());
  /** @type {RunResult[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 14, run ${run}/${ctx.runs}: first sync of ${size} conversations`);
    results.push(await measureRun(ctx, profile.dir, size, server, run));
  }

  const first = results.map((r) => r.first);
  const steady = results.map((r) => r.steady);
  /** @param {(s: Steady) => number} pick */
  const ofSteady = (pick) => steady.map((s) => (s ? pick(s) : Number.NaN));
  const none = { text: 'none', pass: (/** @type {number} */ v) => v === 0 };
  const mb = 1e6;
  ctx.report.table(
    `Case 14: sync with a CouchDB server (pouchdb-server in memory, loopback): first sync of ${size} ` +
      `conversations (${profile.megabytes.toFixed(0)} MB of text), then a reply a second`,
    [
      {
        key: 'sync.first.syncedS',
        label: `first sync: navigation to 'Synced'`,
        values: first.map((r) => r.syncedMs / 1000),
        digits: 2,
        unit: ' s',
      },
      {
        key: 'sync.first.allDocsS',
        label: `first sync: navigation to all ${size} documents on the server`,
        values: first.map((r) => r.allDocsMs / 1000),
        digits: 2,
        unit: ' s',
      },
      {
        key: 'sync.first.readyS',
        label: '  app ready (first sidebar row)',
        values: first.map((r) => r.readyMs / 1000),
        digits: 2,
        unit: ' s',
      },
      {
        key: 'sync.first.firstRequestS',
        label: '  first request to the server',
        values: first.map((r) => r.firstRequestMs / 1000),
        digits: 2,
        unit: ' s',
      },
      {
        key: 'sync.first.settledS',
        label: '  traffic settled (own writes read back)',
        values: first.map((r) => r.settledMs / 1000),
        digits: 2,
        unit: ' s',
      },
      {
        key: 'sync.first.sentMB',
        label: 'first sync: bytes sent (request bodies)',
        values: first.map((r) => r.traffic.sentBytes / mb),
        unit: ' MB',
      },
      {
        key: 'sync.first.receivedMB',
        label: '  bytes received (bodies)',
        values: first.map((r) => r.traffic.receivedBytes / mb),
        unit: ' MB',
      },
      {
        key: 'sync.first.wireMB',
        label: '  bytes received as sent (brotli)',
        values: first.map((r) => r.traffic.wireBytes / mb),
        unit: ' MB',
      },
      {
        key: 'sync.first.requests',
        label: '  requests (CORS preflights apart)',
        values: first.map((r) => r.traffic.requests),
        digits: 0,
      },
      {
        key: 'sync.first.preflights',
        label: '  CORS preflights',
        values: first.map((r) => r.traffic.preflights),
        digits: 0,
      },
      {
        key: 'sync.first.longTasks',
        label: 'first sync: long tasks (>50 ms)',
        values: first.map((r) => r.longTasks),
        digits: 0,
        target: none,
      },
      {
        key: 'sync.first.longestMs',
        label: '  longest task',
        values: first.map((r) => r.longestMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'sync.steady.latencyMs',
        label: 'a reply a second: reply end to its revision on the server, median',
        values: ofSteady((s) => median(s.latenciesMs)),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'sync.steady.latencyMaxMs',
        label: '  the slowest reply of the run',
        values: ofSteady((s) => Math.max(...s.latenciesMs)),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'sync.steady.sentKB',
        label: 'a reply a second: bytes sent per reply',
        values: ofSteady((s) => s.traffic.sentBytes / 1000 / replies),
        unit: ' kB',
      },
      {
        key: 'sync.steady.receivedKB',
        label: '  bytes received per reply (bodies)',
        values: ofSteady((s) => s.traffic.receivedBytes / 1000 / replies),
        unit: ' kB',
      },
      {
        key: 'sync.steady.wireKB',
        label: '  bytes received per reply as sent (brotli)',
        values: ofSteady((s) => s.traffic.wireBytes / 1000 / replies),
        unit: ' kB',
      },
      {
        key: 'sync.steady.requests',
        label: '  requests per reply (CORS preflights apart)',
        values: ofSteady((s) => s.traffic.requests / replies),
      },
      {
        key: 'sync.steady.preflights',
        label: '  CORS preflights per reply',
        values: ofSteady((s) => s.traffic.preflights / replies),
      },
      {
        key: 'sync.steady.longTasks',
        label: 'a reply a second: long tasks (>50 ms)',
        values: ofSteady((s) => s.longTasks),
        digits: 0,
        target: none,
      },
      {
        key: 'sync.steady.longestMs',
        label: '  longest task',
        values: ofSteady((s) => s.longestMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'sync.steady.paceMs',
        label: '  between two reply ends',
        values: ofSteady((s) => s.paceMs),
        digits: 0,
        unit: ' ms',
      },
    ],
    [
      'Target: no long task; the times are as measured (no target). Times from navigation start; ' +
        "'Synced' is the status line's text, the documents are counted on the server's changes feed.",
      'Traffic counted by a proxy in front of the server: bytes sent are request bodies; received, ' +
        'the response bodies decoded, and as the server sent them (brotli); CORS preflights apart. ' +
        'Measured in Chromium without Playwright (bare-browser.mjs): no Network domain on the page.',
      ...results.map(
        (r, index) =>
          `Run ${index + 1} requests: first sync ${kindsText(r.first.traffic.kinds)}` +
          (r.steady
            ? `; ${replies} replies (${r.steady.windowS.toFixed(1)} s) ${kindsText(r.steady.traffic.kinds)}`
            : ''),
      ),
      `Machine load average ${Math.min(...pluck(results, (r) => r.loadAverage)).toFixed(1)}-` +
        `${Math.max(...pluck(results, (r) => r.loadAverage)).toFixed(1)} on ${availableParallelism()} CPUs.`,
    ],
  );
}

/** @param {Record<string, number>} kinds */
const kindsText = (kinds) =>
  Object.entries(kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
