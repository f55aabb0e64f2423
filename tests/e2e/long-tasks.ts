import type { Browser, Page } from '@playwright/test';

/**
 * The longest task the page's main thread ran while hostile input was streamed, opened or imported,
 * from a Chromium trace: each task's thread CPU time (what the page itself spent), and its wall time
 * for the report. CPU time is what a task costs on this machine whatever else runs on it: another
 * test's browser on the other core, or a busy shared runner, stretches a task's wall time (the Long
 * Tasks API's measure) but not its CPU time, so these tests run beside the others and still measure
 * only the page's own work. A parser or layout gone super-linear costs seconds either way.
 *
 * As the Long Tasks API does, the test harness's own work in the page is left out: a task that
 * carries a DevTools protocol command (Playwright reading a megabyte of text to check it) is not
 * the page's. So is the browser's answer to a worker being started (up to 200 ms of its own work on
 * a busy machine, seen on an importer's start): the same for any file, it says nothing of the input.
 *
 * One trace at a time per browser: a test starts it with `watchTasks` and reads it with
 * `longestTask`, which ends it.
 */

export interface LongestTask {
  /** Thread CPU time of the longest task, in ms. */
  cpuMs: number;
  /** That task's wall time, in ms. */
  wallMs: number;
}

const traced = new WeakMap<Browser, Page>();

function browserOf(page: Page): Browser {
  const browser = page.context().browser();
  if (!browser) throw new Error('long tasks are read from a browser trace');
  return browser;
}

/** Starts recording the main thread's tasks (ending a recording left running). */
export async function watchTasks(page: Page): Promise<void> {
  const browser = browserOf(page);
  if (traced.has(browser)) await browser.stopTracing();
  await browser.startTracing(page, { categories: ['toplevel'] });
  traced.set(browser, page);
}

/** Messages whose task is not the page's work: a DevTools command, a worker's start. */
const notThePages = new Set(['blink.mojom.DevToolsSession', 'blink.mojom.DedicatedWorkerHostFactoryClient']);

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; chrome_mojo_event_info?: { mojo_interface_tag?: string } };
}

/** Ends the recording and gives its longest main-thread task (0 when none ran). */
export async function longestTask(page: Page): Promise<LongestTask> {
  const browser = browserOf(page);
  if (!traced.has(browser)) throw new Error('watchTasks first');
  traced.delete(browser);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mainThreads = new Set(
    events
      .filter(
        (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const thread = (event: TraceEvent) => `${event.pid}:${event.tid}`;
  /** When a message not the page's reached each main thread. */
  const foreignAt = new Map<string, number[]>();
  for (const event of events)
    if (
      event.name === 'Receive mojo message' &&
      notThePages.has(event.args?.chrome_mojo_event_info?.mojo_interface_tag ?? '') &&
      mainThreads.has(thread(event))
    )
      foreignAt.set(thread(event), [...(foreignAt.get(thread(event)) ?? []), event.ts]);
  const carriesForeign = (task: TraceEvent) =>
    (foreignAt.get(thread(task)) ?? []).some((at) => at >= task.ts && at <= task.ts + (task.dur ?? 0));
  let longest: LongestTask = { cpuMs: 0, wallMs: 0 };
  for (const event of events) {
    if (event.ph !== 'X' || event.name !== 'ThreadControllerImpl::RunTask') continue;
    if (!mainThreads.has(thread(event))) continue;
    const cpuMs = (event.tdur ?? event.dur ?? 0) / 1000;
    if (cpuMs > longest.cpuMs && !carriesForeign(event)) longest = { cpuMs, wallMs: (event.dur ?? 0) / 1000 };
  }
  return longest;
}
