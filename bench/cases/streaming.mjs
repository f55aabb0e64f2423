// @ts-check
/* global window, document, HTMLImageElement */
/**
 * Case 1: a long markdown reply streamed at 50 chunks per second into the app (with 0 or N prior
 * messages) or into the reference page, while keystrokes are typed into an input overlay.
 *
 * The stream window runs from the first body chunk to the last byte (the chunk carrying the
 * terminating `data: [DONE]`, or on the Responses API the end of response.completed), both noted
 * in the page by the fetch wrapper (probes.mjs). Over it:
 * - busy share: CDP Performance.getMetrics TaskDuration delta / wall time, sampled every 100 ms and
 *   interpolated at the window's edges (page clock mapped to the protocol clock); also for the first
 *   and the last quarter of the window, and split into script, layout and style; and as thread CPU
 *   time (a second session with timeDomain threadTicks), less sensitive to a busy machine;
 * - long tasks: PerformanceObserver 'longtask' entries from the first chunk to the final render;
 * - frames: requestAnimationFrame callbacks / (wall time / 16.67 ms);
 * - input delay: a keystroke every 200 ms (real CDP key events) into the overlay; per keydown,
 *   from event.timeStamp to the first (capturing) listener, or the Event Timing entry's
 *   processingStart - startTime when larger; p95;
 * - last byte to final render: from the chunk with the terminating event (or the end of the body)
 *   until the last assistant message in the page holds the final sentence, the streaming cursor is
 *   gone and that frame is painted (n/a, with a note, if that does not happen within 30 s);
 * - JS heap (CDP Runtime.getHeapUsage, as it stands and after a forced GC) and DOM elements at the end.
 * A run whose reply never shows (the final text does not reach the page) keeps only its heap
 * figures: the others become n/a, which fails their targets.
 *
 * The researched variant (mock scenario long-researched) streams through OpenAI's Responses API:
 * the conversation is stored with its 'Search the web' and 'Create images' switches on, so
 * gpt-4o-mini gets the web_search and image_generation tools; the answer is the long text with 30
 * url_citation annotations (the app adds a numbered marker after each cited span and a Sources
 * list) and a ~2 MB picture drawn (two previews, then the whole PNG) after its first third. No
 * span is in the last line, so the final-sentence check is unchanged; once the window is over,
 * a note says so if the page does not show the 30 sources and the full-size picture.
 *
 * The panel variant streams the same reply (the same key as the 0-prior run) beside an open
 * artifact panel: the stored conversation already holds a question and a reply with a small
 * React artifact (```tsx title="Counter"```, artifact-source.mjs smallCounter); before anything
 * is measured, its 'Open in panel' is clicked and the frame's preview awaited ('Count: 0'), and
 * the panel stays open while the reply streams (a note says so if it is gone at the end). The
 * chat column is then narrower (the panel takes 40% of the 1280 px window).
 */

import { loadavg } from 'node:os';
import {
  busyShare,
  clockOffset,
  contextOptions,
  heapUsage,
  startMetricsSampler,
  watchErrors,
} from '../browser.mjs';
import { collectStreamProbe, fetchProbeInit, injectInputOverlay, installStreamProbe } from '../probes.mjs';
import { smallCounter } from '../artifact-source.mjs';
import { appStorage, finalSentence, seed } from '../seed.mjs';
import { percentile, sleep, sum } from '../stats.mjs';

/**
 * @typedef {object} StreamEnv
 * @property {import('@playwright/test').Browser} browser
 * @property {string} appUrl
 * @property {string} mockUrl
 * @property {string} referenceUrl
 * @property {string} apiKey Picks the mock's scenario (`long.*` or `markdown.*`).
 * @property {number} replyTokens
 * @property {number} tokenDelayMs
 * @property {string[]} errors
 *
 * @property {string} thinkingKey The mock key of the thinking variant (`long-thinking.*`).
 * @property {string} richKey The mock key of the variant with formulas and diagrams (`long-rich.*`).
 * @property {string} researchedKey The mock key of the variant that searched the web and drew a
 *   picture (`long-researched.*`): OpenAI's Responses API, the conversation's 'Search the web' and
 *   'Create images' switches on.
 *
 * @typedef {{ kind: 'reference' } | { kind: 'app', prior: number, variant?: 'thinking' | 'rich' | 'researched' | 'panel' }} StreamTarget
 *
 * @typedef {object} StreamResult
 * @property {number} streamMs
 * @property {number} busy Share of wall time, 0..1.
 * @property {number} cpuBusy The main thread's CPU time / wall time, 0..1.
 * @property {number} busyQ1
 * @property {number} busyQ4
 * @property {number} growth busyQ4 / busyQ1.
 * @property {number} scriptShare
 * @property {number} layoutShare
 * @property {number} styleShare
 * @property {number} longTasks
 * @property {number} longTaskMaxMs
 * @property {number} longTaskTotalMs
 * @property {number} framesPct Frames delivered / expected, in %.
 * @property {number} keystrokes Keydowns inside the stream window.
 * @property {number} inputDelayP95
 * @property {number} inputDelayMax
 * @property {number} inputToFrameP95
 * @property {number} lastByteToRenderMs
 * @property {number} heapMB
 * @property {number} heapAfterGcMB
 * @property {number} domNodes
 * @property {number} loadAverage The machine's 1-minute load average at the end.
 */

const letters = 'abcdefghijklmnopqrstuvwxyz';

/** @type {(keyof StreamResult)[]} The figures that mean nothing when the reply was not rendered. */
const invalidWithoutRender = [
  'busy',
  'cpuBusy',
  'busyQ1',
  'busyQ4',
  'growth',
  'scriptShare',
  'layoutShare',
  'styleShare',
  'longTasks',
  'longTaskMaxMs',
  'longTaskTotalMs',
  'framesPct',
  'inputDelayP95',
  'inputDelayMax',
  'inputToFrameP95',
  'domNodes',
];
const conversationId = 'bench-stream';

/** The panel variant's artifact: its title, and the earlier turn whose reply holds it. */
const panelTitle = 'Counter';
/** @type {{ role: 'user' | 'assistant', content: string }[]} */
const panelMessages = [
  { role: 'user', content: 'Write a small React counter I can click.' },
  {
    role: 'assistant',
    content: `Here it is:\n\n\`\`\`tsx title="${panelTitle}"\n${smallCounter()}\n\`\`\`\n\nEach click adds one.`,
  },
];

/** The researched variant's switches (src/domain/tool-switches.ts): 'Search the web', 'Create images'. */
const researchedSwitches = { 'web-search': true, 'create-images': true };

/**
 * Runs in the page: what the researched reply shows, in the last assistant message: the Sources
 * list's entries and the drawn pictures at full size (not a preview).
 */
function researchedShown() {
  const messages = document.querySelectorAll('[data-testid=message][data-role=assistant]');
  const message = messages[messages.length - 1];
  const pictures = [...(message?.querySelectorAll('[data-testid=drawn-picture] img') ?? [])];
  return {
    sources: message?.querySelectorAll('[data-testid=web-research] section li').length ?? 0,
    pictures: pictures.filter((img) => img instanceof HTMLImageElement && img.naturalWidth === 1024).length,
  };
}

/**
 * Presses a key every 200 ms until `stop()` says so. Each press waits for the renderer to take
 * the event, so a blocked main thread also slows the typing, as it would a user's.
 * @param {import('@playwright/test').Page} page @param {() => boolean} stop
 */
async function typeUntil(page, stop) {
  let count = 0;
  while (!stop()) {
    await page.keyboard.press(letters[count % letters.length] ?? 'a');
    count++;
    await sleep(200);
  }
  return count;
}

/**
 * Opens the app (seeded) or the reference page, ready to stream; returns how to start.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {StreamEnv} env @param {StreamTarget} target
 */
async function openTarget(context, env, target) {
  if (target.kind === 'reference') {
    const page = await context.newPage();
    watchErrors(page, env.errors);
    await page.goto(env.referenceUrl);
    return {
      page,
      probeOptions: {
        scopeSelector: 'body',
        textSelector: '#reference-output',
        cursorSelector: null,
        finalText: finalSentence,
      },
      start: () =>
        page.evaluate(() =>
          /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchReferenceStart?.(),
        ),
    };
  }
  const researched = target.variant === 'researched';
  const key = target.variant === 'rich' ? env.richKey : researched ? env.researchedKey : env.apiKey;
  await seed(context, env.appUrl, {
    localStorage:
      target.variant === 'thinking'
        ? appStorage(env.mockUrl, env.thinkingKey, conversationId, true)
        : appStorage(env.mockUrl, key, conversationId),
    conversations: [
      {
        id: conversationId,
        name: 'Streaming benchmark',
        messageCount: target.prior,
        seed: 1,
        // Switched on in the stored conversation, as a user would have before: gpt-4o-mini then
        // asks the Responses API with its web_search and image_generation tools.
        ...(researched && { toolSwitches: researchedSwitches }),
        ...(target.variant === 'panel' && { messages: panelMessages }),
      },
    ],
  });
  const page = await context.newPage();
  watchErrors(page, env.errors);
  await page.goto(`${env.appUrl}/`);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.waitFor({ state: 'visible', timeout: 60_000 });
  if (target.prior > 0) await page.locator('[data-testid=message]').first().waitFor({ timeout: 60_000 });
  if (target.variant === 'panel') {
    await page
      .locator('[data-testid=message][data-role=assistant]')
      .last()
      .getByRole('button', { name: 'Open in panel' })
      .click({ timeout: 60_000 });
    await page
      .getByRole('complementary', { name: panelTitle })
      .frameLocator('iframe[title="React preview"]')
      .getByRole('button', { name: 'Count: 0' })
      .waitFor({ timeout: 30_000 });
  }
  return {
    page,
    probeOptions: {
      scopeSelector: '[data-testid=message-list]',
      textSelector: '[data-testid=message][data-role=assistant]',
      cursorSelector: '[data-testid=streaming-cursor]',
      finalText: finalSentence,
    },
    start: async () => {
      await composer.fill('Write the benchmark reply.');
      await composer.press('Enter');
    },
  };
}

/** @param {StreamTarget} target */
const targetLabel = (target) =>
  target.kind === 'reference'
    ? 'reference'
    : `app, ${target.prior} prior${target.variant ? `, ${target.variant}` : ''}`;

/**
 * One streamed reply, measured.
 * @param {StreamEnv} env @param {StreamTarget} target
 * @returns {Promise<StreamResult>}
 */
export async function measureStream(env, target) {
  const context = await env.browser.newContext(contextOptions);
  try {
    await context.addInitScript(fetchProbeInit);
    const { page, probeOptions, start } = await openTarget(context, env, target);
    await page.waitForLoadState('networkidle');
    await sleep(1500);
    await page.evaluate(injectInputOverlay);
    await page.evaluate(installStreamProbe, probeOptions);
    const sampler = await startMetricsSampler(context, page);
    const { cdp } = sampler;

    await start();
    await page.focus('#bench-input');
    const streamTimeout = env.replyTokens * env.tokenDelayMs * 3 + 60_000;
    let ended = false;
    const end = page
      .waitForFunction(
        () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchFetch?.lastByteAt != null,
        undefined,
        { polling: 250, timeout: streamTimeout },
      )
      .finally(() => {
        ended = true;
      });
    const typing = typeUntil(page, () => ended);
    const [streamEnd] = await Promise.allSettled([end, typing]);
    if (streamEnd.status === 'rejected') throw streamEnd.reason;
    const rendered = await page
      .waitForFunction(
        () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchProbe?.finalRenderAt != null,
        undefined,
        { polling: 50, timeout: 30_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (!rendered) {
      const label = targetLabel(target);
      env.errors.push(
        `${label}: the final text was not in the page 30 s after the last byte (reply out of view?)`,
      );
    }
    await sleep(300);
    const samples = await sampler.stop();
    if (target.kind === 'app' && target.variant === 'researched' && rendered) {
      // Outside the measured window: the reply is the researched one, or the figures mean little.
      const shown = await page.evaluate(researchedShown);
      if (shown.sources !== 30 || shown.pictures !== 1)
        env.errors.push(
          `${targetLabel(target)}: expected 30 sources and one 1024×1024 picture, found ${shown.sources} and ${shown.pictures}`,
        );
    }
    if (target.kind === 'app' && target.variant === 'panel') {
      // Outside the measured window: the reply streamed beside the open panel, or the figures mean little.
      const open = await page.getByRole('complementary', { name: panelTitle }).isVisible();
      if (!open) env.errors.push(`${targetLabel(target)}: the artifact panel was not open at the end`);
    }
    const offset = await clockOffset(cdp, page);
    const data = await page.evaluate(collectStreamProbe);
    const heap = await heapUsage(cdp);
    await cdp.detach();

    const { firstChunkAt, lastByteAt } = data.fetch;
    if (firstChunkAt === null || lastByteAt === null)
      throw new Error('The stream was not observed from start to end');
    const windowEnd = data.finalRenderAt ?? lastByteAt;
    const wall = lastByteAt - firstChunkAt;
    const quarter = wall / 4;
    /** @param {number} from @param {number} to @param {import('../browser.mjs').MetricKey} [key] */
    const share = (from, to, key) => busyShare(samples, from + offset, to + offset, key);
    const busy = share(firstChunkAt, lastByteAt);
    const cpuBusy = share(firstChunkAt, lastByteAt, 'cpu');
    const busyQ1 = share(firstChunkAt, firstChunkAt + quarter);
    const busyQ4 = share(lastByteAt - quarter, lastByteAt);

    const frames = data.frames.filter((time) => time >= firstChunkAt && time <= lastByteAt).length;
    const longTasks = data.longTasks.filter(
      (task) => task.start + task.duration >= firstChunkAt && task.start <= windowEnd,
    );
    // Where each long task fell, for the notes: a target missed says where to look.
    for (const task of longTasks) {
      const label = targetLabel(target);
      const at =
        task.start <= lastByteAt
          ? `${((task.start - firstChunkAt) / 1000).toFixed(1)} s after the first chunk`
          : `${Math.round(task.start - lastByteAt)} ms after the last byte`;
      env.errors.push(`${label}: a long task of ${Math.round(task.duration)} ms, ${at}`);
    }
    const keys = data.keys.filter((key) => key.at >= firstChunkAt && key.at <= lastByteAt);
    const delays = keys.map((key) => {
      const entry = data.slowEvents.find((event) => Math.abs(event.start - key.at) < 1);
      return Math.max(key.delay, entry?.delay ?? 0);
    });
    // Keys handled after the reply ended land in the composer, which takes the focus back then;
    // on a busy machine the last few keys of the stream may be among them. Only the overlay's
    // focus matters here: the delays are measured by a window listener, whatever the target.
    const typedInStream = data.keys.filter((key) => key.at <= lastByteAt).length;
    if (data.typedLength >= 0 && data.typedLength < typedInStream - 5)
      env.errors.push(`only ${data.typedLength} of ${typedInStream} keystrokes reached the overlay input`);

    /** @type {StreamResult} */
    const result = {
      streamMs: wall,
      busy,
      cpuBusy,
      busyQ1,
      busyQ4,
      growth: busyQ4 / busyQ1,
      scriptShare: share(firstChunkAt, lastByteAt, 'script'),
      layoutShare: share(firstChunkAt, lastByteAt, 'layout'),
      styleShare: share(firstChunkAt, lastByteAt, 'style'),
      longTasks: longTasks.length,
      longTaskMaxMs: Math.max(0, ...longTasks.map((task) => task.duration)),
      longTaskTotalMs: sum(longTasks.map((task) => task.duration)),
      framesPct: (100 * frames) / (wall / (1000 / 60)),
      keystrokes: keys.length,
      inputDelayP95: percentile(delays, 95),
      inputDelayMax: Math.max(0, ...delays),
      inputToFrameP95: percentile(
        keys.map((key) => key.frame),
        95,
      ),
      lastByteToRenderMs: data.finalRenderAt === null ? Number.NaN : data.finalRenderAt - lastByteAt,
      heapMB: heap.usedMB,
      heapAfterGcMB: heap.afterGcMB,
      domNodes: data.domNodes,
      loadAverage: loadavg()[0] ?? Number.NaN,
    };
    if (!rendered) {
      // The reply never showed: what was measured is not the cost of showing it.
      for (const key of invalidWithoutRender) result[key] = Number.NaN;
    }
    return result;
  } finally {
    await context.close();
  }
}
