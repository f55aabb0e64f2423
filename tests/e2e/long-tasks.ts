import type { Page } from '@playwright/test';

/**
 * Records every main-thread task over 50 ms in the page (the Long Tasks API) from the document's
 * start, across reloads. `longestTask` reads the longest so far: a test of bounded work asserts it
 * stays under its budget while hostile input is streamed, opened or imported.
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const durations: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = durations;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) durations.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest main-thread task seen since the page (re)loaded, in ms (0 when none). */
export async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
}

/** Forgets the tasks seen so far: what follows is measured alone. */
export async function resetLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks.length = 0;
  });
}
