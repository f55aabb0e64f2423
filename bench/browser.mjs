// @ts-check
/**
 * Headless Debian Chromium (never a downloaded one) and the Chrome DevTools Protocol helpers:
 * main-thread busy time from `Performance.getMetrics`, heap usage, and the offset between the
 * protocol's clock and the page's performance.now().
 */

import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../tools/chromium.mjs';
import { sleep } from './stats.mjs';

const args = [...chromiumFlags];

/** A desktop window, so the sidebar and settings are panels rather than sheets. */
export const contextOptions = /** @type {const} */ ({
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
  colorScheme: 'light',
  locale: 'en-US',
  serviceWorkers: 'block',
});

export async function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath(), args, headless: true });
}

/**
 * A browser with its profile on disk, so IndexedDB is read from disk as on a real start.
 * @param {string} userDataDir
 */
export async function launchPersistent(userDataDir) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    args,
    headless: true,
    ...contextOptions,
  });
}

/**
 * Collects uncaught page errors and console errors, to show them next to the figures.
 * @param {import('@playwright/test').Page} page
 * @param {string[]} sink
 */
export function watchErrors(page, sink) {
  page.on('pageerror', (error) => sink.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Failed requests are reported below, with their address.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      sink.push(`console.error: ${message.text().slice(0, 300)}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) sink.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'unknown';
    // The app cancels a reply's body once it has read the terminating event: not a failure.
    const reply = request.url().includes('/chat/completions') || request.url().includes('/v1/responses');
    if (reason === 'net::ERR_ABORTED' && reply) return;
    sink.push(`request failed (${reason}): ${request.url()}`);
  });
}

/**
 * @typedef {{ t: number, task: number, script: number, layout: number, style: number, cpu: number }} MetricsSample
 *   Cumulative, in milliseconds; t on the protocol's monotonic clock. task, script, layout and
 *   style are wall-clock durations of the main thread's work (timeDomain timeTicks); cpu is the
 *   same tasks' thread CPU time (timeDomain threadTicks, from a second session), which other
 *   processes on a busy machine inflate far less.
 * @typedef {'task' | 'script' | 'layout' | 'style' | 'cpu'} MetricKey
 */

/** @param {import('@playwright/test').CDPSession} cdp */
async function readMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  /** @param {string} name */
  return (name) => (metrics.find((metric) => metric.name === name)?.value ?? Number.NaN) * 1000;
}

/**
 * @param {import('@playwright/test').CDPSession} wall @param {import('@playwright/test').CDPSession} thread
 * @returns {Promise<MetricsSample>}
 */
async function readSample(wall, thread) {
  const [value, cpuValue] = await Promise.all([readMetrics(wall), readMetrics(thread)]);
  return {
    t: value('Timestamp'),
    task: value('TaskDuration'),
    script: value('ScriptDuration'),
    layout: value('LayoutDuration'),
    style: value('RecalcStyleDuration'),
    cpu: cpuValue('TaskDuration'),
  };
}

/**
 * Samples the renderer's cumulative main-thread task time every `intervalMs` until stopped.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {import('@playwright/test').Page} page
 * @param {number} [intervalMs]
 */
export async function startMetricsSampler(context, page, intervalMs = 100) {
  const wall = await context.newCDPSession(page);
  const thread = await context.newCDPSession(page);
  await wall.send('Performance.enable', { timeDomain: 'timeTicks' });
  await thread.send('Performance.enable', { timeDomain: 'threadTicks' });
  /** @type {MetricsSample[]} */
  const samples = [await readSample(wall, thread)];
  let running = true;
  const loop = (async () => {
    while (running) {
      await sleep(intervalMs);
      if (running) samples.push(await readSample(wall, thread));
    }
  })();
  // A page closed by a failure ends the loop; stop() then reports the error.
  loop.catch(() => undefined);
  return {
    samples,
    /** The wall-clock session, for clockOffset() and heapUsage(). */
    cdp: wall,
    /** Stops sampling, adds a last sample and returns them all. */
    async stop() {
      running = false;
      await loop;
      samples.push(await readSample(wall, thread));
      await thread.detach();
      return samples;
    },
  };
}

/**
 * The offset to add to a page time (performance.now()) to get the protocol's clock, from the
 * tightest of a few bracketing reads.
 * @param {import('@playwright/test').CDPSession} cdp
 * @param {import('@playwright/test').Page} page
 */
export async function clockOffset(cdp, page) {
  let best = { spread: Number.POSITIVE_INFINITY, offset: 0 };
  for (let attempt = 0; attempt < 7; attempt++) {
    const before = (await readMetrics(cdp))('Timestamp');
    const pageNow = await page.evaluate(() => performance.now());
    const after = (await readMetrics(cdp))('Timestamp');
    if (after - before < best.spread)
      best = { spread: after - before, offset: (before + after) / 2 - pageNow };
  }
  return best.offset;
}

/**
 * A cumulative metric at time t, interpolated between the samples around it.
 * @param {MetricsSample[]} samples @param {MetricKey} key @param {number} t
 */
function valueAt(samples, key, t) {
  const first = samples[0];
  if (!first) return Number.NaN;
  if (t <= first.t) return first[key];
  for (let index = 1; index < samples.length; index++) {
    const previous = /** @type {MetricsSample} */ (samples[index - 1]);
    const next = /** @type {MetricsSample} */ (samples[index]);
    if (t <= next.t) {
      const span = next.t - previous.t;
      return span > 0 ? previous[key] + ((next[key] - previous[key]) * (t - previous.t)) / span : next[key];
    }
  }
  return /** @type {MetricsSample} */ (samples.at(-1))[key];
}

/**
 * The share of wall time the main thread spent in tasks (or in `key`) between two protocol-clock
 * times.
 * @param {MetricsSample[]} samples @param {number} from @param {number} to @param {MetricKey} [key]
 */
export function busyShare(samples, from, to, key = 'task') {
  if (!(to > from)) return Number.NaN;
  return (valueAt(samples, key, to) - valueAt(samples, key, from)) / (to - from);
}

/**
 * JS heap in use, in MB: as it stands, and after a forced garbage collection.
 * @param {import('@playwright/test').CDPSession} cdp
 */
export async function heapUsage(cdp) {
  const before = await cdp.send('Runtime.getHeapUsage');
  await cdp.send('HeapProfiler.collectGarbage');
  const after = await cdp.send('Runtime.getHeapUsage');
  return { usedMB: before.usedSize / 1e6, afterGcMB: after.usedSize / 1e6 };
}
