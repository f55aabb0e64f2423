// @ts-check
/* global window, document, DataTransfer, DragEvent, requestAnimationFrame */
/**
 * Case 5: attaching a 12-megapixel photo. A 4000×3000 JPEG (drawn with fine texture, so it is
 * as big as a real photo's) is made in the page first; then, measured: it is dropped on the
 * conversation, and the time until its chip is ready (resized to 2000 px in the worker), the
 * longest main-thread task and the longest gap between animation frames meanwhile. The resize
 * runs off the main thread, so the page should stay responsive (no task over 50 ms).
 */

import { contextOptions, watchErrors } from '../browser.mjs';
import { atMost } from '../report.mjs';
import { appStorage, seed } from '../seed.mjs';
import { pluck } from '../stats.mjs';

/**
 * @typedef {{ readyMs: number, longestTaskMs: number, longTasks: number, longestFrameGapMs: number, photoBytes: number }} AttachResult
 */

/** Makes the photo in the page, before anything is measured. */
function makePhoto() {
  const canvas = document.createElement('canvas');
  canvas.width = 4000;
  canvas.height = 3000;
  const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  // Large shapes, then fine speckle all over: a JPEG of it is as big as a real photo's.
  for (let index = 0; index < 6000; index++) {
    context.fillStyle = `hsl(${random() * 360} 60% ${30 + random() * 40}%)`;
    context.fillRect(random() * 4000, random() * 3000, 20 + random() * 200, 20 + random() * 200);
  }
  for (let index = 0; index < 400_000; index++) {
    context.fillStyle = `hsl(${random() * 360} 50% ${20 + random() * 60}%)`;
    context.fillRect(random() * 4000, random() * 3000, 3 + random() * 5, 3 + random() * 5);
  }
  return new Promise((resolve) =>
    canvas.toBlob(
      (blob) => {
        /** @type {any} */ (window).__benchPhoto = new File([/** @type {Blob} */ (blob)], 'photo.jpg', {
          type: 'image/jpeg',
        });
        resolve(/** @type {Blob} */ (blob).size);
      },
      'image/jpeg',
      0.92,
    ),
  );
}

/** Drops the photo and watches the main thread until its chip is ready. */
function dropAndWatch() {
  return new Promise((resolve) => {
    const tasks = /** @type {number[]} */ ([]);
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    let lastFrame = performance.now();
    let longestGap = 0;
    let watching = true;
    const frame = () => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - lastFrame);
      lastFrame = now;
      if (watching) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const start = performance.now();
    const transfer = new DataTransfer();
    transfer.items.add(/** @type {any} */ (window).__benchPhoto);
    const target = document.querySelector('[data-testid="message-list"]');
    for (const type of ['dragenter', 'dragover', 'drop'])
      target?.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    const check = () => {
      const chip = document.querySelector('[data-testid="file-chip"]');
      if (chip && !chip.textContent?.includes('Preparing')) {
        const readyMs = performance.now() - start;
        watching = false;
        // Long tasks are reported after they end: one more frame lets the last one arrive.
        requestAnimationFrame(() => {
          observer.disconnect();
          resolve({
            readyMs,
            longestTaskMs: Math.max(0, ...tasks),
            longTasks: tasks.length,
            longestFrameGapMs: longestGap,
          });
        });
        return;
      }
      requestAnimationFrame(check);
    };
    check();
  });
}

/**
 * @param {{ browser: import('@playwright/test').Browser, appUrl: string, mockUrl: string, errors: string[] }} env
 * @returns {Promise<AttachResult>}
 */
async function measureAttach(env) {
  const context = await env.browser.newContext(contextOptions);
  try {
    await seed(context, env.appUrl, {
      localStorage: appStorage(env.mockUrl, 'ok.bench', 'bench-attach'),
      conversations: [{ id: 'bench-attach', name: 'Attach a photo', messageCount: 2, seed: 0 }],
    });
    const page = await context.newPage();
    watchErrors(page, env.errors);
    await page.goto(`${env.appUrl}/`);
    await page.getByRole('button', { name: 'Attach files' }).waitFor();
    const photoBytes = /** @type {number} */ (await page.evaluate(makePhoto));
    const result = /** @type {Omit<AttachResult, 'photoBytes'>} */ (await page.evaluate(dropAndWatch));
    return { ...result, photoBytes };
  } finally {
    await context.close();
  }
}

/**
 * @param {import('../report.mjs').CaseContext} ctx
 */
export async function attachCase(ctx) {
  const env = { browser: ctx.browser, appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  /** @type {AttachResult[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 5, run ${run}/${ctx.runs}`);
    results.push(await measureAttach(env));
  }
  const megabytes = (results[0]?.photoBytes ?? 0) / 1e6;
  ctx.report.table(`Case 5: attaching a 12-megapixel photo (4000×3000 JPEG, ${megabytes.toFixed(1)} MB)`, [
    {
      key: 'attach.readyMs',
      label: 'drop to chip ready (resized in the worker)',
      values: pluck(results, (r) => r.readyMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'attach.longestTaskMs',
      label: '  longest main-thread task meanwhile',
      values: pluck(results, (r) => r.longestTaskMs),
      digits: 0,
      unit: ' ms',
      target: atMost(50, ' ms'),
    },
    {
      key: 'attach.longTasks',
      label: '  long tasks (> 50 ms) meanwhile',
      values: pluck(results, (r) => r.longTasks),
      digits: 0,
    },
    {
      key: 'attach.longestFrameGapMs',
      label: '  longest gap between frames',
      values: pluck(results, (r) => r.longestFrameGapMs),
      digits: 0,
      unit: ' ms',
    },
  ]);
}
