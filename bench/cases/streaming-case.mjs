// @ts-check
/**
 * Case 1, the runs and the table: per run the reference page, then the app with 0 and with N
 * prior messages, then its variants (thinking first; formulas and diagrams; web citations and a
 * picture; beside an open artifact panel), each in a fresh browser context (see streaming.mjs for
 * how each figure is measured). Ratios are taken per run, so each compares streams measured
 * minutes apart at most.
 */

import { availableParallelism } from 'node:os';
import { atLeast, atMost } from '../report.mjs';
import { pluck, ratios } from '../stats.mjs';
import { measureStream } from './streaming.mjs';

/**
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ apiKey: string, thinkingKey: string, richKey: string, researchedKey: string, replyTokens: number, tokenDelayMs: number, prior: number }} settings
 */
export async function streamingCase(ctx, settings) {
  const env = {
    browser: ctx.browser,
    appUrl: ctx.appUrl,
    mockUrl: ctx.mockUrl,
    referenceUrl: ctx.referenceUrl,
    errors: ctx.errors,
    apiKey: settings.apiKey,
    thinkingKey: settings.thinkingKey,
    richKey: settings.richKey,
    researchedKey: settings.researchedKey,
    replyTokens: settings.replyTokens,
    tokenDelayMs: settings.tokenDelayMs,
  };
  /** @type {import('./streaming.mjs').StreamResult[]} */
  const ref = [];
  /** @type {import('./streaming.mjs').StreamResult[]} */
  const app0 = [];
  /** @type {import('./streaming.mjs').StreamResult[]} */
  const appN = [];
  /** The same length of stream, a third of it thinking (2000 tokens, then a 4000-token answer). @type {import('./streaming.mjs').StreamResult[]} */
  const appThinking = [];
  /** The reply opens with 20 formulas and two Mermaid diagrams. @type {import('./streaming.mjs').StreamResult[]} */
  const appRich = [];
  /** The same text, through the Responses API with web search and image generation on: 30 citations and a ~2 MB picture. @type {import('./streaming.mjs').StreamResult[]} */
  const appResearched = [];
  /** The reference's reply beside an open artifact panel (a small React component from an earlier reply). @type {import('./streaming.mjs').StreamResult[]} */
  const appPanel = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 1, run ${run}/${ctx.runs}: reference page`);
    ref.push(await measureStream(env, { kind: 'reference' }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, 0 prior messages`);
    app0.push(await measureStream(env, { kind: 'app', prior: 0 }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, ${settings.prior} prior messages`);
    appN.push(await measureStream(env, { kind: 'app', prior: settings.prior }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, 2000 tokens of thinking then the answer`);
    appThinking.push(await measureStream(env, { kind: 'app', prior: 0, variant: 'thinking' }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, 20 formulas and two diagrams in the reply`);
    appRich.push(await measureStream(env, { kind: 'app', prior: 0, variant: 'rich' }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, 30 web citations and a drawn picture in the reply`);
    appResearched.push(await measureStream(env, { kind: 'app', prior: 0, variant: 'researched' }));
    ctx.progress(`case 1, run ${run}/${ctx.runs}: app, beside an open React artifact panel`);
    appPanel.push(await measureStream(env, { kind: 'app', prior: 0, variant: 'panel' }));
  }
  const N = settings.prior;
  /** @type {[string, string, import('./streaming.mjs').StreamResult[]][]} */
  const targets = [
    ['app0', 'app, 0 prior', app0],
    [`app${N}`, `app, ${N} prior`, appN],
    ['appThinking', 'app, thinking first', appThinking],
    ['appRich', 'app, formulas and diagrams', appRich],
    ['appResearched', 'app, web citations and a picture', appResearched],
    ['appPanel', 'app, beside an open artifact panel', appPanel],
    ['reference', 'reference', ref],
  ];
  /** @type {import('../report.mjs').Row[]} */
  const rows = [];
  for (const [key, label, list] of targets) {
    rows.push({
      key: `stream.${key}.busy`,
      label: `busy share: ${label}`,
      values: pluck(list, (r) => r.busy),
      scale: 100,
      unit: '%',
    });
  }
  for (const [key, label, list] of targets) {
    rows.push({
      key: `stream.${key}.cpuBusy`,
      label: `  main-thread CPU time share: ${label}`,
      values: pluck(list, (r) => r.cpuBusy),
      scale: 100,
      unit: '%',
    });
  }
  rows.push(
    {
      key: 'stream.busyRatio',
      label: 'busy share, app 0 prior / reference',
      values: ratios(app0, ref, (r) => r.busy),
      digits: 2,
      target: atMost(1.5),
    },
    {
      key: 'stream.cpuRatio',
      label: '  CPU time share, app 0 prior / reference',
      values: ratios(app0, ref, (r) => r.cpuBusy),
      digits: 2,
    },
    {
      key: `stream.busyRatio${N}`,
      label: `busy share, app ${N} prior / reference`,
      values: ratios(appN, ref, (r) => r.busy),
      digits: 2,
    },
    {
      key: 'stream.thinkingRatio',
      label: 'busy share, app thinking first / reference',
      values: ratios(appThinking, ref, (r) => r.busy),
      digits: 2,
      target: atMost(1.5),
    },
    {
      key: 'stream.richRatio',
      label: 'busy share, app formulas and diagrams / reference',
      values: ratios(appRich, ref, (r) => r.busy),
      digits: 2,
      target: atMost(1.5),
    },
    {
      key: 'stream.researchedRatio',
      label: 'busy share, app web citations and a picture / reference',
      values: ratios(appResearched, ref, (r) => r.busy),
      digits: 2,
      target: atMost(1.5),
    },
    {
      key: 'stream.panelRatio',
      label: 'busy share, app beside an open artifact panel / reference',
      values: ratios(appPanel, ref, (r) => r.busy),
      digits: 2,
      target: atMost(1.5),
    },
    {
      key: 'stream.historyRatio',
      label: `busy share, ${N} prior / 0 prior`,
      values: ratios(appN, app0, (r) => r.busy),
      digits: 2,
      target: atMost(1.2),
    },
  );
  for (const [key, label, list] of targets) {
    const isApp = key !== 'reference';
    rows.push(
      {
        key: `stream.${key}.growth`,
        label: `growth, last/first quarter: ${label}`,
        values: pluck(list, (r) => r.growth),
        digits: 2,
        ...(isApp && { target: atMost(1.5) }),
      },
      {
        key: `stream.${key}.busyQ1`,
        label: `  busy, first quarter: ${label}`,
        values: pluck(list, (r) => r.busyQ1),
        scale: 100,
        unit: '%',
      },
      {
        key: `stream.${key}.busyQ4`,
        label: `  busy, last quarter: ${label}`,
        values: pluck(list, (r) => r.busyQ4),
        scale: 100,
        unit: '%',
      },
      {
        key: `stream.${key}.script`,
        label: `  script share: ${label}`,
        values: pluck(list, (r) => r.scriptShare),
        scale: 100,
        unit: '%',
      },
      {
        key: `stream.${key}.layoutStyle`,
        label: `  layout+style share: ${label}`,
        values: pluck(list, (r) => r.layoutShare + r.styleShare),
        scale: 100,
        unit: '%',
      },
    );
  }
  for (const [key, label, list] of targets) {
    const isApp = key !== 'reference';
    rows.push(
      {
        key: `stream.${key}.longTasks`,
        label: `long tasks (>50 ms): ${label}`,
        values: pluck(list, (r) => r.longTasks),
        digits: 0,
        ...(isApp && { target: { text: 'none', pass: (/** @type {number} */ v) => v === 0 } }),
      },
      {
        key: `stream.${key}.longTaskMax`,
        label: `  longest task: ${label}`,
        values: pluck(list, (r) => r.longTaskMaxMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: `stream.${key}.frames`,
        label: `frames delivered / expected: ${label}`,
        values: pluck(list, (r) => r.framesPct),
        unit: '%',
        ...(isApp && { target: atLeast(97, '%') }),
      },
      {
        key: `stream.${key}.inputDelayP95`,
        label: `input delay p95: ${label}`,
        values: pluck(list, (r) => r.inputDelayP95),
        unit: ' ms',
        ...(isApp && { target: atMost(16, ' ms') }),
      },
      {
        key: `stream.${key}.inputToFrameP95`,
        label: `  keydown to next frame p95: ${label}`,
        values: pluck(list, (r) => r.inputToFrameP95),
        unit: ' ms',
      },
      {
        key: `stream.${key}.lastByteToRender`,
        label: `last byte to final render: ${label}`,
        values: pluck(list, (r) => r.lastByteToRenderMs),
        unit: ' ms',
        ...(isApp && { target: atMost(50, ' ms') }),
      },
      {
        key: `stream.${key}.heapMB`,
        label: `JS heap at end: ${label}`,
        values: pluck(list, (r) => r.heapMB),
        unit: ' MB',
      },
      {
        key: `stream.${key}.heapAfterGcMB`,
        label: `  after GC: ${label}`,
        values: pluck(list, (r) => r.heapAfterGcMB),
        unit: ' MB',
      },
      {
        key: `stream.${key}.domNodes`,
        label: `DOM elements at end: ${label}`,
        values: pluck(list, (r) => r.domNodes),
        digits: 0,
      },
    );
  }
  rows.push({
    key: 'stream.domRatio',
    label: `DOM elements, ${N} prior / 0 prior`,
    values: ratios(appN, app0, (r) => r.domNodes),
    digits: 2,
    target: atMost(1.2),
  });
  const streamSeconds = pluck([...app0, ...appN, ...ref], (r) => r.streamMs / 1000);
  const keystrokes = pluck([...app0, ...appN, ...ref], (r) => r.keystrokes);
  const load = pluck([...app0, ...appN, ...ref], (r) => r.loadAverage);
  ctx.report.table(
    `Case 1: streaming a ~${settings.replyTokens}-token markdown reply at ${1000 / settings.tokenDelayMs} chunks/s`,
    rows,
    [
      `stream window ${Math.min(...streamSeconds).toFixed(1)}-${Math.max(...streamSeconds).toFixed(1)} s, ` +
        `${Math.min(...keystrokes)}-${Math.max(...keystrokes)} keystrokes each; machine load average ` +
        `${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${availableParallelism()} CPUs.`,
      'DOM growth target read as "at most 1.2x" (room for a virtual list\'s overscan).',
    ],
  );
}
