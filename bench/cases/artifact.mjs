// @ts-check
/* global window, Element */
/**
 * Case 11: opening a 400-line React artifact in the panel. A fresh context per run holds one
 * stored conversation: a question, and a reply whose ```tsx title="Big dashboard"``` block is the
 * dashboard of artifact-source.mjs (useState, eight sub-components, a recharts chart, lucide-react
 * icons, Tailwind classes, a table of ~100 rows). The app opens on it; while the reply is on
 * screen the app loads a React frame ahead, hidden (react-frame/warm-frame.ts). Once that frame
 * has said 'ready' (page probe framesReadyProbeInit), the reply's 'Open in panel' is clicked
 * (Playwright, real mouse events) and, in the page (probes.mjs installArtifactProbe, all on the
 * page's performance.now()):
 * - open to rendered: from performance.now() in a capture-phase 'click' listener on window
 *   (installed before the click, so it runs before the button's handler) until a capture-phase
 *   'message' listener on window gets the first message of type 'rendered' from the window of the
 *   panel's 'React preview' iframe (the frame sends it after the first paint of the render:
 *   requestAnimationFrame, then a task). Target: median at most 500 ms. Then the panel is closed,
 *   the next frame loaded ahead awaited, and the block opened again: "again";
 * - without moveBefore: a second fresh context per run whose init script deletes
 *   `Element.prototype.moveBefore`, as in a browser without it: nothing is loaded ahead, the open
 *   loads artifact.html and its scripts with an empty HTTP cache (service workers blocked), the
 *   path of every open before the frames loaded ahead; not a target;
 * - panel painted: from the click until the aside labelled 'Big dashboard' holds the iframe (the
 *   first animation frame that sees it) and that frame is painted: the panel's own render;
 * - frame ready: from the click until the frame's 'ready' (its document and scripts loaded, the
 *   Tailwind runtime's first stylesheet written), where it loaded on opening; where it was loaded
 *   ahead, how long after the page's start it said 'ready';
 * - transpile and render inside the frame: the frame reports no times (its 'rendered' carries a
 *   height), so an init script in the frame (probes.mjs artifactFrameProbeInit) notes when the
 *   render request arrives, when the frame's compile function is called (Sucrase is done:
 *   "transpile") and when the component's root element is added to #artifact-content (React's
 *   commit: "evaluate and render"); "paint and report" is from that commit until the page gets
 *   'rendered'. Frame times are mapped onto the page's through performance.timeOrigin;
 * - long tasks (>50 ms) from the click until 'rendered': the page's own PerformanceObserver (what
 *   holds up the chat), and the frame's (its document's observer), apart: the frame may run in a
 *   renderer process of its own (a note says whether it did), so its tasks do not block the page;
 *   a task both observers saw counts as the page's.
 * A run whose frame reports an error, or no 'rendered' within 20 s, has n/a figures, with a note.
 */

import { availableParallelism, loadavg } from 'node:os';
import { bigDashboard, bigDashboardLines } from '../artifact-source.mjs';
import { contextOptions, watchErrors } from '../browser.mjs';
import {
  artifactFrameProbeInit,
  framesReadyProbeInit,
  installArtifactProbe,
  longTaskProbeInit,
} from '../probes.mjs';
import { atMost } from '../report.mjs';
import { appStorage, seed } from '../seed.mjs';
import { pluck, sleep, sum } from '../stats.mjs';

const conversationId = 'bench-artifact';
const title = 'Big dashboard';
const dashboard = bigDashboard();
const reply =
  'Here is the dashboard: a summary, a chart of income and spending, budgets per category and ' +
  'the transactions, which you can search, filter and sort.\n\n' +
  `\`\`\`tsx title="${title}"\n${dashboard.code}\n\`\`\`\n\n` +
  'Open it in the panel to try it.';

/**
 * @typedef {object} OpenResult One open, page times relative to the click.
 * @property {number} openMs Click to the frame's first 'rendered'.
 * @property {number} panelMs Click to the panel (with its iframe) painted.
 * @property {number} readyMs Click to the frame's 'ready' (NaN for a frame loaded ahead).
 * @property {number} aheadReadyMs The page's start to the 'ready' of the frame loaded ahead (NaN
 *   for none).
 * @property {number} transpileMs Render request in the frame to its compile call.
 * @property {number} evaluateRenderMs Compile call to React's commit.
 * @property {number} paintReportMs Commit to 'rendered' in the page.
 * @property {number} frameRenderMs Render request in the frame to 'rendered' in the page.
 * @property {number} longTasks The page's.
 * @property {number} longTaskMaxMs
 * @property {number} longTaskTotalMs
 * @property {number} frameLongTasks The frame's that the page did not see.
 * @property {number} frameLongTaskMaxMs
 * @property {number} frameLongTaskTotalMs
 *
 * @typedef {{ first: OpenResult, again: OpenResult, unmoved: OpenResult, ownProcess: boolean | null, loadAverage: number }} ArtifactResult
 *   ownProcess: the frame ran in a renderer process of its own (an out-of-process iframe, which
 *   has a CDP session of its own); null when the frame was not found.
 */

/** @type {OpenResult} */
const missing = {
  openMs: Number.NaN,
  panelMs: Number.NaN,
  readyMs: Number.NaN,
  aheadReadyMs: Number.NaN,
  transpileMs: Number.NaN,
  evaluateRenderMs: Number.NaN,
  paintReportMs: Number.NaN,
  frameRenderMs: Number.NaN,
  longTasks: Number.NaN,
  longTaskMaxMs: Number.NaN,
  longTaskTotalMs: Number.NaN,
  frameLongTasks: Number.NaN,
  frameLongTaskMaxMs: Number.NaN,
  frameLongTaskTotalMs: Number.NaN,
};

/**
 * Clicks 'Open in panel' and measures until the frame's 'rendered'.
 * @param {import('@playwright/test').Page} page @param {string[]} errors @param {string} what
 * @returns {Promise<OpenResult>}
 */
async function open(page, errors, what) {
  await page.evaluate(installArtifactProbe, { title });
  const button = page
    .locator('[data-testid=message][data-role=assistant]')
    .last()
    .getByRole('button', { name: 'Open in panel' });
  await button.click();
  const done = await page
    .waitForFunction(
      () => {
        const probe = /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchArtifact;
        return probe?.renderedAt != null || probe?.error != null;
      },
      undefined,
      { polling: 50, timeout: 20_000 },
    )
    .then(
      () => true,
      () => false,
    );
  const probe = await page.evaluate(
    () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchArtifact,
  );
  if (!probe || probe.clickAt === null) throw new Error(`${what}: the click was not seen`);
  if (probe.error !== null) errors.push(`artifact ${what}: the frame reported an error: ${probe.error}`);
  if (!done || probe.renderedAt === null) {
    if (probe.error === null) errors.push(`artifact ${what}: no 'rendered' from the frame within 20 s`);
    return missing;
  }
  const { clickAt, renderedAt } = probe;
  // Let the tasks around 'rendered' be reported before reading the long tasks.
  await sleep(200);
  const frameTimes = await frameProbe(page);
  const shift = frameTimes ? frameTimes.timeOrigin - (await page.evaluate(() => performance.timeOrigin)) : 0;
  /** Frame time to page time. @param {number | undefined} time */
  const inPage = (time) => (time === undefined || !frameTimes ? Number.NaN : time + shift);
  // This render's request: the last one before 'rendered' (the frame gets one per render).
  const requestAt = inPage(frameTimes?.requests.filter((time) => time + shift <= renderedAt).at(-1));
  const compileAt = inPage(frameTimes?.compiles.find((time) => time + shift >= requestAt));
  const commitAt = inPage(frameTimes?.commits.find((time) => time + shift >= compileAt));
  if (!frameTimes) errors.push(`artifact ${what}: the frame's probe was not found`);

  /** @param {{ start: number, duration: number }[]} tasks */
  const during = (tasks) =>
    tasks.filter((task) => task.start + task.duration >= clickAt && task.start <= renderedAt);
  const pageTasks = during(await page.evaluate(longTasksOf));
  const frameTasks = during(
    (frameTimes?.longTasks ?? []).map((task) => ({ start: task.start + shift, duration: task.duration })),
  );
  /** @param {{ start: number, duration: number }} a @param {{ start: number, duration: number }} b */
  const same = (a, b) => Math.abs(a.start - b.start) < 2 && Math.abs(a.duration - b.duration) < 2;
  // A task of the frame's that the page saw too (the same process) is the page's.
  const frameOnly = frameTasks.filter((task) => !pageTasks.some((other) => same(task, other)));
  for (const [where, tasks] of /** @type {const} */ ([
    ['page', pageTasks],
    ['frame', frameOnly],
  ]))
    for (const task of tasks)
      errors.push(
        `artifact ${what}: a long task of ${Math.round(task.duration)} ms in the ${where}, ` +
          `${Math.round(task.start - clickAt)} ms after the click`,
      );
  /** @param {number | null} time */
  const since = (time) => (time === null ? Number.NaN : time - clickAt);
  return {
    openMs: renderedAt - clickAt,
    panelMs: since(probe.panelPaintedAt),
    readyMs: since(probe.readyAt),
    aheadReadyMs:
      probe.readyAt === null
        ? ((await framesReady(page)).filter((time) => time <= clickAt).at(-1) ?? Number.NaN)
        : Number.NaN,
    transpileMs: compileAt - requestAt,
    evaluateRenderMs: commitAt - compileAt,
    paintReportMs: renderedAt - commitAt,
    frameRenderMs: renderedAt - requestAt,
    longTasks: pageTasks.length,
    longTaskMaxMs: Math.max(0, ...pageTasks.map((task) => task.duration)),
    longTaskTotalMs: sum(pageTasks.map((task) => task.duration)),
    frameLongTasks: frameOnly.length,
    frameLongTaskMaxMs: Math.max(0, ...frameOnly.map((task) => task.duration)),
    frameLongTaskTotalMs: sum(frameOnly.map((task) => task.duration)),
  };
}

/** Runs in a document: the long tasks longTaskProbeInit kept. */
function longTasksOf() {
  return (
    /** @type {Window & { __benchLongTasks?: { start: number, duration: number }[] }} */ (window)
      .__benchLongTasks ?? []
  );
}

/**
 * The panel's React frame (artifact.html, titled 'React preview'; a frame loaded ahead is titled
 * otherwise) of the page.
 * @param {import('@playwright/test').Page} page
 */
async function panelFrame(page) {
  for (const frame of page.frames().filter((candidate) => candidate.url().endsWith('/artifact.html'))) {
    const element = await frame.frameElement().catch(() => null);
    if ((await element?.getAttribute('title')) === 'React preview') return frame;
  }
  return null;
}

/**
 * The panel frame's probe and long tasks.
 * @param {import('@playwright/test').Page} page
 */
async function frameProbe(page) {
  const frame = await panelFrame(page);
  if (!frame) return null;
  return frame.evaluate(() => {
    const w =
      /** @type {import('../probes.mjs').BenchWindow & { __benchLongTasks?: { start: number, duration: number }[] }} */ (
        window
      );
    const probe = w.__benchArtifactFrame;
    return probe ? { ...probe, longTasks: w.__benchLongTasks ?? [] } : null;
  });
}

/**
 * When React frames said 'ready' (page times), as framesReadyProbeInit noted.
 * @param {import('@playwright/test').Page} page
 * @returns {Promise<number[]>}
 */
function framesReady(page) {
  return page.evaluate(
    () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchFramesReady ?? [],
  );
}

/**
 * Waits for the `count`th frame loaded ahead to say 'ready'.
 * @param {import('@playwright/test').Page} page @param {number} count
 */
async function frameAhead(page, count) {
  await page.waitForFunction(
    (n) => {
      const w = /** @type {import('../probes.mjs').BenchWindow} */ (window);
      return (w.__benchFramesReady ?? []).length >= n;
    },
    count,
    { polling: 50, timeout: 30_000 },
  );
}

/**
 * A fresh context showing the conversation, its 'Open in panel' button in view.
 * @param {import('../report.mjs').CaseContext} ctx @param {boolean} movable
 */
async function openConversation(ctx, movable) {
  const context = await ctx.browser.newContext(contextOptions);
  await context.addInitScript(longTaskProbeInit);
  await context.addInitScript(artifactFrameProbeInit);
  await context.addInitScript(framesReadyProbeInit);
  // As in a browser without it: no frame can be moved whole, so none is loaded ahead.
  if (!movable) await context.addInitScript(() => Reflect.deleteProperty(Element.prototype, 'moveBefore'));
  await seed(context, ctx.appUrl, {
    localStorage: appStorage(ctx.mockUrl, 'ok.bench', conversationId),
    conversations: [
      {
        id: conversationId,
        name: 'Artifact benchmark',
        messageCount: 2,
        seed: 1,
        messages: [
          { role: 'user', content: 'Write me a budget dashboard as a React component.' },
          { role: 'assistant', content: reply },
        ],
      },
    ],
  });
  const page = await context.newPage();
  watchErrors(page, ctx.errors);
  await page.goto(`${ctx.appUrl}/`);
  const button = page
    .locator('[data-testid=message][data-role=assistant]')
    .last()
    .getByRole('button', { name: 'Open in panel' });
  await button.waitFor({ timeout: 60_000 });
  await button.scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  return { context, page, button };
}

/**
 * One run: a fresh context, the first open (a frame loaded ahead), the panel closed, the open
 * again; then another fresh context without moveBefore, and its open.
 * @param {import('../report.mjs').CaseContext} ctx
 * @returns {Promise<ArtifactResult>}
 */
async function measureArtifact(ctx) {
  const moved = await openConversation(ctx, true);
  /** @type {{ first: OpenResult, again: OpenResult, ownProcess: boolean | null }} */
  let ahead;
  try {
    const { context, page, button } = moved;
    await frameAhead(page, 1);
    const first = await open(page, ctx.errors, 'first open');
    const frame = await panelFrame(page);
    const ownProcess = frame
      ? await context.newCDPSession(frame).then(
          (session) => session.detach().then(() => true),
          () => false,
        )
      : null;
    const panel = page.getByRole('complementary', { name: title });
    await panel.getByRole('button', { name: 'Close panel' }).click();
    await panel.waitFor({ state: 'detached', timeout: 10_000 });
    await button.scrollIntoViewIfNeeded();
    // The first open took the frame loaded ahead; the next one loads in idle time.
    await frameAhead(page, 2);
    const again = await open(page, ctx.errors, 'open again');
    ahead = { first, again, ownProcess };
  } finally {
    await moved.context.close();
  }
  const unmovedPage = await openConversation(ctx, false);
  try {
    await sleep(1500);
    const unmoved = await open(unmovedPage.page, ctx.errors, 'open without moveBefore');
    return { ...ahead, unmoved, loadAverage: loadavg()[0] ?? Number.NaN };
  } finally {
    await unmovedPage.context.close();
  }
}

/**
 * The runs and the table.
 * @param {import('../report.mjs').CaseContext} ctx
 */
export async function artifactCase(ctx) {
  /** @type {ArtifactResult[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 11, run ${run}/${ctx.runs}: open a ${bigDashboardLines}-line React artifact`);
    results.push(await measureArtifact(ctx));
  }
  /**
   * @param {'first' | 'again' | 'unmoved'} which @param {keyof OpenResult} field
   * @param {string} key @param {string} label @param {string} [unit]
   */
  const row = (which, field, key, label, unit = ' ms') => ({
    key,
    label,
    values: pluck(results, (r) => r[which][field]),
    digits: 0,
    unit,
  });
  const load = pluck(results, (r) => r.loadAverage);
  const isolated = results.filter((r) => r.ownProcess === true).length;
  ctx.report.table(
    `Case 11: opening a ${bigDashboardLines}-line React artifact in the panel`,
    [
      {
        ...row('first', 'openMs', 'artifact.openMs', "click to the frame's first 'rendered'"),
        target: atMost(500, ' ms'),
      },
      row('first', 'panelMs', 'artifact.panelMs', '  click to the panel painted (its own render)'),
      row(
        'first',
        'aheadReadyMs',
        'artifact.aheadReadyMs',
        "  the frame loaded ahead: page start to its 'ready'",
      ),
      row('first', 'frameRenderMs', 'artifact.frameRenderMs', "  render request in the frame to 'rendered'"),
      row('first', 'transpileMs', 'artifact.transpileMs', '    transpile (request to compile)'),
      row(
        'first',
        'evaluateRenderMs',
        'artifact.evaluateRenderMs',
        '    evaluate and render (compile to commit)',
      ),
      row('first', 'paintReportMs', 'artifact.paintReportMs', "    paint and report (commit to 'rendered')"),
      row(
        'first',
        'longTasks',
        'artifact.longTasks',
        "long tasks (>50 ms) in the page, click to 'rendered'",
        '',
      ),
      row('first', 'longTaskMaxMs', 'artifact.longTaskMax', '  longest'),
      row('first', 'longTaskTotalMs', 'artifact.longTaskTotal', '  in all'),
      row(
        'first',
        'frameLongTasks',
        'artifact.frameLongTasks',
        'long tasks (>50 ms) in the frame, the same window',
        '',
      ),
      row('first', 'frameLongTaskMaxMs', 'artifact.frameLongTaskMax', '  longest'),
      row('first', 'frameLongTaskTotalMs', 'artifact.frameLongTaskTotal', '  in all'),
      row(
        'again',
        'openMs',
        'artifact.again.openMs',
        "closed and opened again (the next frame ahead): click to 'rendered'",
      ),
      row('again', 'panelMs', 'artifact.again.panelMs', '  click to the panel painted'),
      row('again', 'longTasks', 'artifact.again.longTasks', '  long tasks (>50 ms) in the page', ''),
      row(
        'unmoved',
        'openMs',
        'artifact.unmoved.openMs',
        "without moveBefore (nothing ahead, empty cache): click to 'rendered'",
      ),
      row('unmoved', 'panelMs', 'artifact.unmoved.panelMs', '  click to the panel painted'),
      row('unmoved', 'readyMs', 'artifact.unmoved.readyMs', "  click to the frame's 'ready' (loaded)"),
      row(
        'unmoved',
        'frameRenderMs',
        'artifact.unmoved.frameRenderMs',
        "  render request in the frame to 'rendered'",
      ),
      row('unmoved', 'longTasks', 'artifact.unmoved.longTasks', '  long tasks (>50 ms) in the page', ''),
      row('unmoved', 'frameLongTaskMaxMs', 'artifact.unmoved.frameLongTaskMax', '  longest in the frame'),
    ],
    [
      `${bigDashboardLines} lines of TSX (${dashboard.code.length} characters, ${dashboard.rows} table rows); ` +
        'the click time is performance.now() in a capture-phase click listener on window.',
      `The frame ran in a renderer process of its own (out-of-process iframe) in ${isolated} of ${results.length} run(s).`,
      `Machine load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${availableParallelism()} CPUs.`,
    ],
  );
}
