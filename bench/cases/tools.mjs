// @ts-check
/* global document, window */
/**
 * Case 10: a reply that calls tools costs the main thread what text of the same length does.
 *
 *   A  a reply that calls the built-in `run_javascript` 10 times in a row (the mock's `tools`
 *      scenario, a recipe with rounds 10: each round says a paragraph, then calls the tool with a
 *      few lines of code), each call run in the app's sandbox, then answers: 11 requests;
 *   B  a plain reply (the mock's Echo of the user's text) of the same length as what A streams:
 *      as many chunks, its paragraphs those of A, at the same rate.
 * Both in the same setting: a fresh context, one conversation with the built-in tools switched on
 * (through the Tools popover), `run_javascript` always allowed (no approval waits) and a step
 * limit of 11 (10 tool steps and the answer), automatic titles off; A's key is `tools.*`, B's
 * `ok.*`. No keystrokes are typed (A's window is longer, which would add more of them).
 *
 * The window runs from the first body chunk of the first request to the final render of the answer
 * (the terminating event of the request that calls no tool, then the answer in the page with the
 * streaming cursor gone, painted: installStreamProbe of probes.mjs). Over it:
 * - main-thread busy ms: CDP TaskDuration delta (wall clock), and the same tasks' thread CPU time,
 *   both sampled every 100 ms (browser.mjs); for A also split into the stretches while a request
 *   streams and those between them (the tool runs, the next request until its first chunk);
 * - long tasks (>50 ms) in the window, and the longest;
 * - A/B per run, then the median. Target: A/B at most 1.2 (the issue: about 1), and no long task.
 * A run whose reply is not as planned (not 11 requests and 10 tool cards that ran, or the answer
 * not shown) keeps no figures: they are n/a, which fails the targets, with a note.
 */

import { availableParallelism, loadavg } from 'node:os';
import { argumentPieces } from '../../tools/mock-providers/tools.mjs';
import { tokenize } from '../../tools/mock-providers/tokens.mjs';
import { busyShare, clockOffset, contextOptions, startMetricsSampler, watchErrors } from '../browser.mjs';
import { collectStreamProbe, installStreamProbe } from '../probes.mjs';
import { atMost } from '../report.mjs';
import { appStorage, seed } from '../seed.mjs';
import { pluck, ratios, sleep, sum } from '../stats.mjs';

const conversationId = 'bench-tools';
const toolCalls = 10;
/** What the model says before each call (a little markdown, as replies have). */
const roundText =
  'Let me check that with a quick calculation before I answer. I will run a **short script** that ' +
  'takes the list of values, prints how many there are and returns their mean, so that the number ' +
  'in my reply comes from the code rather than from a guess. The script adds the values up with ' +
  '`reduce`; once the result comes back I will read it and decide whether another step is needed.';
const code = [
  'const values = [3, 1, 4, 1, 5, 9, 2, 6];',
  'console.log(values.length);',
  'return values.reduce((a, b) => a + b, 0) / values.length;',
].join('\n');
const args = JSON.stringify({ code });
/** The user's text for A: the mock's recipe (tools/mock-providers/tools.mjs). */
const recipe = JSON.stringify({
  call: { name: 'run_javascript', arguments: args },
  text: roundText,
  rounds: toolCalls,
});
/** Only the answer to the last results says this: the tool cards stay closed. */
const answerStart = 'Tool results: run_javascript:';
/** About what the answer streams (the result's exact wording is the sandbox's). */
const answerGuess = `${answerStart} 8\nReturned: 3.875`;
/** The pieces A streams: each round's text and arguments, then the answer. */
const chunksA =
  toolCalls * (tokenize(roundText).length + argumentPieces(args).length) + tokenize(answerGuess).length;
const charsA = toolCalls * (roundText.length + args.length) + answerGuess.length;
const endB = 'End of the plain reply.';
/** B's text: A's paragraphs again and again, the last one cut where the Echo streams as many pieces as A. */
const textB = (() => {
  const words = roundText.split(' ');
  /** @type {string[]} */
  const paragraphs = [];
  /** @param {string} last */
  const count = (last) =>
    tokenize(`Echo: ${[...paragraphs, `${last} ${endB}`].join('\n\n')} (2 messages received)`).length;
  while (count(roundText) <= chunksA) paragraphs.push(roundText);
  let cut = 0;
  while (cut < words.length && count(words.slice(0, cut + 1).join(' ')) <= chunksA) cut++;
  return [...paragraphs, `${words.slice(0, cut).join(' ')} ${endB}`.trim()].join('\n\n');
})();
const chunksB = tokenize(`Echo: ${textB} (2 messages received)`).length;

/**
 * @typedef {object} RequestTiming One chat request, page times.
 * @property {number} requestAt
 * @property {number | null} firstChunkAt
 * @property {number | null} lastByteAt Its terminating event, or the end of its body.
 * @property {boolean} calls It ended in tool calls.
 *
 * @typedef {import('../probes.mjs').BenchWindow & { __benchRequests?: RequestTiming[] }} ToolsWindow
 *
 * @typedef {'A' | 'B'} Variant
 *
 * @typedef {object} ToolsResult
 * @property {number} windowMs First chunk to final render.
 * @property {number} busyMs
 * @property {number} cpuMs
 * @property {number} busyShare busyMs / windowMs.
 * @property {number} scriptMs
 * @property {number} layoutStyleMs
 * @property {number} streamingBusyMs Busy while a request streamed.
 * @property {number} betweenBusyMs Busy between one request's last byte and the next one's first chunk.
 * @property {number} betweenMs Wall time between requests.
 * @property {number} requests
 * @property {number} longTasks
 * @property {number} longTaskMaxMs
 * @property {number} lastByteToRenderMs
 * @property {number} renderedChars The reply's text in the page.
 * @property {number} loadAverage
 */

/**
 * Init script: fetchProbeInit of probes.mjs for a reply that takes several requests. Each chat
 * request's times go to __benchRequests; __benchFetch, which installStreamProbe reads, spans the
 * reply: the first request's first chunk, and as lastByteAt the terminating event of the first
 * request that does not end in tool calls (the answer), which also calls onDone.
 */
export function replyFetchProbeInit() {
  const w = /** @type {ToolsWindow} */ (window);
  /** @type {import('../probes.mjs').FetchProbe} */
  const probe = {
    requestAt: null,
    responseAt: null,
    firstChunkAt: null,
    lastByteAt: null,
    chunks: 0,
    bytes: 0,
    onDone: null,
  };
  /** @type {RequestTiming[]} */
  const requests = [];
  w.__benchFetch = probe;
  w.__benchRequests = requests;
  const original = window.fetch.bind(window);
  /** @param {RequestInfo | URL} input @param {RequestInit} [init] */
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/chat/completions')) return original(input, init);
    /** @type {RequestTiming} */
    const request = { requestAt: performance.now(), firstChunkAt: null, lastByteAt: null, calls: false };
    requests.push(request);
    probe.requestAt ??= request.requestAt;
    const response = await original(input, init);
    if (!response.body) return response;
    probe.responseAt ??= performance.now();
    const decoder = new TextDecoder();
    let tail = '';
    const markEnd = () => {
      if (request.lastByteAt !== null) return;
      request.lastByteAt = performance.now();
      if (request.calls || probe.lastByteAt !== null) return;
      probe.lastByteAt = request.lastByteAt;
      probe.onDone?.();
    };
    /** @type {TransformStream<Uint8Array, Uint8Array>} */
    const tap = new TransformStream({
      transform(chunk, controller) {
        const now = performance.now();
        request.firstChunkAt ??= now;
        probe.firstChunkAt ??= now;
        probe.chunks += 1;
        probe.bytes += chunk.byteLength;
        const text = tail + decoder.decode(chunk, { stream: true });
        tail = text.slice(-40);
        if (text.includes('"finish_reason":"tool_calls"')) request.calls = true;
        const ends = text.includes('data: [DONE]');
        controller.enqueue(chunk);
        if (ends) markEnd();
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

/** Runs in the page: the tool cards' outcomes and the reply's text length. */
function replyShape() {
  const replies = document.querySelectorAll(
    '[data-testid=message-list] [data-testid=message][data-role=assistant]',
  );
  const reply = replies[replies.length - 1];
  return {
    outcomes: [...(reply?.querySelectorAll('[data-testid=tool-card]') ?? [])].map(
      (card) => card.getAttribute('data-outcome') ?? '',
    ),
    chars: reply?.textContent?.length ?? 0,
  };
}

/**
 * One reply, measured.
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ tokenDelayMs: number }} settings
 * @param {Variant} variant
 * @returns {Promise<ToolsResult>}
 */
async function measureReply(ctx, settings, variant) {
  const context = await ctx.browser.newContext(contextOptions);
  try {
    await context.addInitScript(replyFetchProbeInit);
    await seed(context, ctx.appUrl, {
      localStorage: {
        ...appStorage(ctx.mockUrl, variant === 'A' ? 'tools.bench' : 'ok.bench', conversationId),
        // src/storage/keys.ts and local-settings.ts; the key is permissionKey() of tool-runner.ts.
        'ai-chat-tools': JSON.stringify({
          alwaysAllowed: ['builtin/run_javascript'],
          stepLimit: toolCalls + 1,
        }),
        // No title request after the reply (src/storage/keys.ts): only the reply is measured.
        'ai-chat-auto-title': 'off',
      },
      conversations: [{ id: conversationId, name: 'Tools benchmark', messageCount: 0, seed: 1 }],
    });
    const page = await context.newPage();
    watchErrors(page, ctx.errors);
    await page.goto(`${ctx.appUrl}/`);
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor({ state: 'visible', timeout: 60_000 });
    // The built-in tools are off until a conversation turns them on: as a user does.
    await page.getByRole('button', { name: /^Tools: / }).click();
    const builtin = page.getByRole('switch', { name: 'Built-in' });
    await builtin.click();
    await page.getByRole('switch', { name: 'Built-in', checked: true }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Tools: 1 on' }).waitFor({ timeout: 10_000 });
    await composer.fill(variant === 'A' ? recipe : textB);
    await page.waitForLoadState('networkidle');
    await sleep(1500);
    await page.evaluate(installStreamProbe, {
      scopeSelector: '[data-testid=message-list]',
      textSelector: '[data-testid=message][data-role=assistant]',
      cursorSelector: '[data-testid=streaming-cursor]',
      finalText: variant === 'A' ? answerStart : endB,
    });
    const sampler = await startMetricsSampler(context, page);
    const { cdp } = sampler;

    await composer.press('Enter');
    const streamTimeout = chunksA * settings.tokenDelayMs * 3 + 60_000;
    await page.waitForFunction(
      () => /** @type {ToolsWindow} */ (window).__benchFetch?.lastByteAt != null,
      undefined,
      { polling: 250, timeout: streamTimeout },
    );
    const rendered = await page
      .waitForFunction(
        () => /** @type {ToolsWindow} */ (window).__benchProbe?.finalRenderAt != null,
        undefined,
        { polling: 50, timeout: 30_000 },
      )
      .then(
        () => true,
        () => false,
      );
    await sleep(300);
    const samples = await sampler.stop();
    const offset = await clockOffset(cdp, page);
    const data = await page.evaluate(collectStreamProbe);
    const allRequests = await page.evaluate(() => /** @type {ToolsWindow} */ (window).__benchRequests ?? []);
    const shape = await page.evaluate(replyShape);
    await cdp.detach();

    const { firstChunkAt, lastByteAt } = data.fetch;
    if (firstChunkAt === null || lastByteAt === null)
      throw new Error(`${variant}: the reply was not observed from start to end`);
    const end = data.finalRenderAt ?? lastByteAt;
    // The reply's requests (any later one, as a title, is not its).
    const requests = allRequests.filter((request) => request.requestAt <= lastByteAt);
    /** Main-thread ms in [from, to] (page times). @param {number} from @param {number} to @param {import('../browser.mjs').MetricKey} [key] */
    const busyMs = (from, to, key) => busyShare(samples, from + offset, to + offset, key) * (to - from);
    const streamed = requests.flatMap((request) =>
      request.firstChunkAt !== null && request.lastByteAt !== null
        ? [{ from: request.firstChunkAt, to: request.lastByteAt }]
        : [],
    );
    const gaps = streamed.slice(1).map((request, index) => ({
      from: /** @type {{ to: number }} */ (streamed[index]).to,
      to: request.from,
    }));
    const longTasks = data.longTasks.filter(
      (task) => task.start + task.duration >= firstChunkAt && task.start <= end,
    );
    for (const task of longTasks) {
      ctx.errors.push(
        `tools ${variant}: a long task of ${Math.round(task.duration)} ms, ` +
          `${((task.start - firstChunkAt) / 1000).toFixed(1)} s after the first chunk`,
      );
    }

    const planned =
      variant === 'A'
        ? requests.length === toolCalls + 1 &&
          shape.outcomes.length === toolCalls &&
          shape.outcomes.every((outcome) => outcome === 'done')
        : requests.length === 1 && shape.outcomes.length === 0;
    if (!planned)
      ctx.errors.push(
        `tools ${variant}: not the planned reply: ${requests.length} request(s), ` +
          `tool cards [${shape.outcomes.join(', ')}]`,
      );
    if (!rendered)
      ctx.errors.push(`tools ${variant}: the answer was not in the page 30 s after the last byte`);
    const valid = planned && rendered;
    /** @param {number} value */
    const kept = (value) => (valid ? value : Number.NaN);
    return {
      windowMs: kept(end - firstChunkAt),
      busyMs: kept(busyMs(firstChunkAt, end)),
      cpuMs: kept(busyMs(firstChunkAt, end, 'cpu')),
      busyShare: kept(busyMs(firstChunkAt, end) / (end - firstChunkAt)),
      scriptMs: kept(busyMs(firstChunkAt, end, 'script')),
      layoutStyleMs: kept(busyMs(firstChunkAt, end, 'layout') + busyMs(firstChunkAt, end, 'style')),
      streamingBusyMs: kept(sum(streamed.map(({ from, to }) => busyMs(from, to)))),
      betweenBusyMs: kept(sum(gaps.map(({ from, to }) => busyMs(from, to)))),
      betweenMs: kept(sum(gaps.map(({ from, to }) => to - from))),
      requests: requests.length,
      longTasks: kept(longTasks.length),
      longTaskMaxMs: kept(Math.max(0, ...longTasks.map((task) => task.duration))),
      lastByteToRenderMs: data.finalRenderAt === null ? Number.NaN : data.finalRenderAt - lastByteAt,
      renderedChars: shape.chars,
      loadAverage: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    await context.close();
  }
}

/**
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ tokenDelayMs: number }} settings
 */
export async function toolsCase(ctx, settings) {
  /** @type {ToolsResult[]} */
  const a = [];
  /** @type {ToolsResult[]} */
  const b = [];
  for (let run = 1; run <= ctx.runs; run++) {
    // Alternating which goes first, so a drift in the machine's load does not favour one.
    const order = /** @type {Variant[]} */ (run % 2 === 1 ? ['A', 'B'] : ['B', 'A']);
    for (const variant of order) {
      ctx.progress(
        `case 10, run ${run}/${ctx.runs}: ${variant === 'A' ? `${toolCalls} tool calls` : 'plain text'}`,
      );
      (variant === 'A' ? a : b).push(await measureReply(ctx, settings, variant));
    }
  }
  /** @type {[string, string, ToolsResult[]][]} */
  const targets = [
    ['A', `A, ${toolCalls} tool calls`, a],
    ['B', 'B, plain text', b],
  ];
  /** @type {import('../report.mjs').Row[]} */
  const rows = [];
  for (const [key, label, list] of targets)
    rows.push({
      key: `tools.${key}.busyMs`,
      label: `main-thread busy: ${label}`,
      values: pluck(list, (r) => r.busyMs),
      digits: 0,
      unit: ' ms',
    });
  rows.push({
    key: 'tools.busyRatio',
    label: 'busy, A / B',
    values: ratios(a, b, (r) => r.busyMs),
    digits: 2,
    target: atMost(1.2),
  });
  for (const [key, label, list] of targets)
    rows.push({
      key: `tools.${key}.cpuMs`,
      label: `  main-thread CPU time: ${label}`,
      values: pluck(list, (r) => r.cpuMs),
      digits: 0,
      unit: ' ms',
    });
  rows.push({
    key: 'tools.cpuRatio',
    label: '  CPU time, A / B',
    values: ratios(a, b, (r) => r.cpuMs),
    digits: 2,
  });
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `tools.${key}.script`,
        label: `  script: ${label}`,
        values: pluck(list, (r) => r.scriptMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: `tools.${key}.layoutStyle`,
        label: `  layout+style: ${label}`,
        values: pluck(list, (r) => r.layoutStyleMs),
        digits: 0,
        unit: ' ms',
      },
    );
  rows.push(
    {
      key: 'tools.A.streamingBusyMs',
      label: '  A: busy while a request streams',
      values: pluck(a, (r) => r.streamingBusyMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'tools.A.betweenBusyMs',
      label: '  A: busy between requests (tools run, next request)',
      values: pluck(a, (r) => r.betweenBusyMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'tools.A.betweenMs',
      label: '  A: time between requests',
      values: pluck(a, (r) => r.betweenMs),
      digits: 0,
      unit: ' ms',
    },
  );
  for (const [key, label, list] of targets)
    rows.push({
      key: `tools.${key}.busyShare`,
      label: `busy share of the window: ${label}`,
      values: pluck(list, (r) => r.busyShare),
      scale: 100,
      unit: '%',
    });
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `tools.${key}.longTasks`,
        label: `long tasks (>50 ms): ${label}`,
        values: pluck(list, (r) => r.longTasks),
        digits: 0,
        target: { text: 'none', pass: (/** @type {number} */ v) => v === 0 },
      },
      {
        key: `tools.${key}.longTaskMax`,
        label: `  longest task: ${label}`,
        values: pluck(list, (r) => r.longTaskMaxMs),
        digits: 0,
        unit: ' ms',
      },
    );
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `tools.${key}.window`,
        label: `first chunk to final render: ${label}`,
        values: pluck(list, (r) => r.windowMs / 1000),
        unit: ' s',
      },
      {
        key: `tools.${key}.lastByteToRender`,
        label: `  last byte to final render: ${label}`,
        values: pluck(list, (r) => r.lastByteToRenderMs),
        unit: ' ms',
      },
    );
  const load = pluck([...a, ...b], (r) => r.loadAverage);
  const shown = (/** @type {ToolsResult[]} */ list) =>
    [...new Set(list.map((r) => r.renderedChars))].join('/');
  ctx.report.table(
    `Case 10: a reply with ${toolCalls} tool calls and their results (A) against plain text of the same length (B), ` +
      `${1000 / settings.tokenDelayMs} chunks/s`,
    rows,
    [
      `Target: busy A / B <= 1.2 (the issue: about 1) and no long task; busy is main-thread task time ` +
        `from the first chunk to the final render, wall clock (CPU time beside it, steadier on a busy machine).`,
      `A streams ~${chunksA} pieces (~${charsA} characters: ${toolCalls} x a ${roundText.length}-character ` +
        `paragraph and ${args.length} characters of arguments, then the answer) in ${toolCalls + 1} requests; ` +
        `B ${chunksB} pieces (${textB.length} characters) in one. Text in the page at the end: ` +
        `A ${shown(a)}, B ${shown(b)} characters (A's tool cards closed).`,
      `Machine load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ` +
        `${availableParallelism()} CPUs.`,
    ],
  );
}
