// @ts-check
/* global document, indexedDB, HTMLInputElement, MutationObserver, CSS, requestAnimationFrame */
/**
 * Case 6: full-text search over 1000 stored conversations (~55 MB of text, the cold-start case's
 * profile). Each run, on its own browser launch:
 *   1. from scratch (the saved index deleted first): the app loads, a query is typed once the
 *      sidebar shows, and the worker builds the index; timed from navigation until the results'
 *      status says the index is ready. Long tasks on the page's main thread from the first row
 *      until then are counted (a PerformanceObserver from an init script).
 *   2. once the index is saved, queries are typed (the input's value set and an input event
 *      sent): from the event until the results list shows that query's answer (a MutationObserver),
 *      and until that frame is painted (the next animation frame, then a posted task).
 *   3. a second launch that starts from the saved index: navigation until ready, and its long tasks.
 */

import { launchPersistent, watchErrors } from '../browser.mjs';
import { atMost } from '../report.mjs';
import { percentile, pluck, sleep } from '../stats.mjs';
import { prepareColdProfile, removeColdProfile } from './cold-start.mjs';
import { longTaskProbeInit, longTasksBetween } from '../probes.mjs';

/** Words of the seeded texts, prefixes, a typo, two-word queries, a conversation's name, and misses. */
const queries = [
  'json',
  'malformed lines',
  'stab',
  'benchmrk',
  'unicode tests',
  'memory flat',
  'table compar',
  'conversation 517',
  'scores equal',
  'trade',
  'smallest change',
  'rank records',
  'duplicates',
  'sorted',
  'strucure',
  'quick way',
  'zeppelin',
  'answer 7',
  'skipped counted',
  'stable between runs',
];

/** In the page: the saved index is gone. */
function deleteSavedIndex() {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase('ai-chat-search');
    request.onsuccess = request.onerror = request.onblocked = () => resolve(undefined);
  });
}

/** In the page: how many conversations the saved index holds. */
function savedIndexSize() {
  return new Promise((resolve) => {
    const open = indexedDB.open('ai-chat-search');
    open.onerror = () => resolve(0);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('snapshots')) {
        db.close();
        return resolve(0);
      }
      const request = db.transaction('snapshots').objectStore('snapshots').get('index');
      request.onsuccess = () => {
        db.close();
        resolve(Object.keys(request.result?.keys ?? {}).length);
      };
      request.onerror = () => resolve(0);
    };
  });
}

/**
 * In the page: types `query` into the search field and times its answer.
 * @param {string} query
 * @returns {Promise<{ domMs: number, paintedMs: number }>}
 */
function timeQuery(query) {
  const input = /** @type {HTMLInputElement} */ (
    document.querySelector('input[aria-label="Search conversations"]')
  );
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  const selector = `ul[aria-label="Search results"][data-query="${CSS.escape(query)}"]`;
  return new Promise((resolve, reject) => {
    let start = 0;
    const timeout = setTimeout(() => reject(new Error(`no answer to "${query}" in 10 s`)), 10_000);
    const done = () => {
      const domAt = performance.now();
      observer.disconnect();
      clearTimeout(timeout);
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve({ domMs: domAt - start, paintedMs: performance.now() - start });
        };
        channel.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) done();
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-query'],
    });
    start = performance.now();
    setValue?.call(input, query);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** In the page: empties the search field (the list comes back). */
function clearField() {
  const input = /** @type {HTMLInputElement} */ (
    document.querySelector('input[aria-label="Search conversations"]')
  );
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, '');
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Loads the app on the profile, types a query once the sidebar shows and waits for the index.
 * @param {{ appUrl: string, errors: string[] }} env @param {string} dir @param {boolean} fromScratch
 */
async function start(env, dir, fromScratch) {
  const context = await launchPersistent(dir);
  const page = context.pages()[0] ?? (await context.newPage());
  watchErrors(page, env.errors);
  if (fromScratch) {
    // The app's origin, without the app: a blank page served by interception.
    const blank = `${env.appUrl}/__bench_blank__`;
    await page.route(blank, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
    );
    await page.goto(blank);
    await page.evaluate(deleteSavedIndex);
    await page.unroute(blank);
  }
  await context.addInitScript(longTaskProbeInit);
  await page.goto(`${env.appUrl}/`);
  await page.getByTestId('conversation-row').first().waitFor({ timeout: 60_000 });
  const shownAt = await page.evaluate(() => performance.now());
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('records');
  await page.waitForFunction(
    () => document.querySelector('[data-index-state]')?.getAttribute('data-index-state') === 'ready',
    undefined,
    { polling: 50, timeout: 180_000 },
  );
  const readyAt = await page.evaluate(() => performance.now());
  const during = await longTasksBetween(page, shownAt, readyAt);
  return { context, page, readyMs: readyAt, longTasks: during.count, longestMs: during.longest };
}

/**
 * @param {import('../report.mjs').CaseContext} ctx @param {{ coldSizes: { many: number } }} settings
 */
export async function searchCase(ctx, settings) {
  const env = { appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  const size = settings.coldSizes.many;
  ctx.progress(`case 6: seeding ${size} conversations`);
  const profile = await prepareColdProfile(env, size);
  ctx.onCleanup(() => removeColdProfile(profile));
  /** @type {{ buildMs: number, buildTasks: number, buildLongest: number, warmMs: number, warmTasks: number, p50: number, p95: number, paintedP95: number }[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 6, run ${run}/${ctx.runs}: building the index`);
    const built = await start(env, profile.dir, true);
    /** @type {{ domMs: number, paintedMs: number }[]} */
    const timings = [];
    try {
      const deadline = Date.now() + 60_000;
      while ((await built.page.evaluate(savedIndexSize)) !== size) {
        if (Date.now() > deadline) {
          env.errors.push('search: the whole index was not saved within 60 s');
          break;
        }
        await sleep(500);
      }
      ctx.progress(`case 6, run ${run}/${ctx.runs}: ${queries.length * 2} queries`);
      for (const query of [...queries, ...queries]) {
        timings.push(await built.page.evaluate(timeQuery, query));
        await built.page.evaluate(clearField);
      }
    } finally {
      await built.context.close();
    }
    ctx.progress(`case 6, run ${run}/${ctx.runs}: starting from the saved index`);
    const warm = await start(env, profile.dir, false);
    await warm.context.close();
    results.push({
      buildMs: built.readyMs,
      buildTasks: built.longTasks,
      buildLongest: built.longestMs,
      warmMs: warm.readyMs,
      warmTasks: warm.longTasks,
      p50: percentile(
        pluck(timings, (t) => t.domMs),
        50,
      ),
      p95: percentile(
        pluck(timings, (t) => t.domMs),
        95,
      ),
      paintedP95: percentile(
        pluck(timings, (t) => t.paintedMs),
        95,
      ),
    });
  }
  ctx.report.table(`Case 6: search over ${size} conversations (${profile.megabytes.toFixed(0)} MB of text)`, [
    {
      key: 'search.buildMs',
      label: 'index built from scratch: navigation to ready',
      values: pluck(results, (r) => r.buildMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'search.buildLongTasks',
      label: '  long tasks on the page meanwhile',
      values: pluck(results, (r) => r.buildTasks),
      digits: 0,
      target: atMost(0),
    },
    {
      key: 'search.buildLongestMs',
      label: '  the longest of them',
      values: pluck(results, (r) => r.buildLongest),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'search.warmMs',
      label: 'start from the saved index: navigation to ready',
      values: pluck(results, (r) => r.warmMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'search.warmLongTasks',
      label: '  long tasks on the page meanwhile',
      values: pluck(results, (r) => r.warmTasks),
      digits: 0,
      target: atMost(0),
    },
    {
      key: 'search.queryP50',
      label: `query to results in the page, p50 (${queries.length * 2} queries)`,
      values: pluck(results, (r) => r.p50),
      unit: ' ms',
    },
    {
      key: 'search.queryP95',
      label: 'query to results in the page, p95',
      values: pluck(results, (r) => r.p95),
      unit: ' ms',
      target: atMost(50, ' ms'),
    },
    {
      key: 'search.paintedP95',
      label: '  until painted, p95',
      values: pluck(results, (r) => r.paintedP95),
      unit: ' ms',
    },
  ]);
}
