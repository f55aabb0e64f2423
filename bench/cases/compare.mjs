// @ts-check
/* global document, window */
/**
 * Case 13: four replies streaming at once ('Compare', src/domain/compare.ts) cost the main thread
 * little more than one.
 *
 *   one   one reply: a conversation without a compare set, asking OpenAI's gpt-4o-mini;
 *   four  four replies at once: the same conversation with the compare set OpenAI gpt-4o-mini,
 *         Claude claude-haiku-4-5, Gemini gemini-2.5-flash and Groq llama-3.3-70b-versatile
 *         (Conversation.compare, seeded in IndexedDB as a user's choice in 'Compare models' is
 *         stored), so one message is asked of the four providers' APIs at once and their replies
 *         stream side by side into the group 'Compared replies', a column (a region named by its
 *         model) each, in a 1280 x 800 window (four columns).
 * Each is the mock's `markdown` scenario (a ~1500-token markdown reply: headings, lists, a table,
 * code blocks; about 35 s at 50 chunks per second), each provider's connection pointing at the
 * mock with that key (ai-chat-connections, as the e2e suite sets them), automatic titles off, in
 * a fresh browser context, nothing typed. Per run both, in alternating order.
 *
 * The fetch wrapper of this case (compareFetchProbeInit) notes each chat request (Chat
 * Completions, Messages, streamGenerateContent) on its own: its first body chunk, and its last
 * byte (the chunk with `data: [DONE]`, Claude's message_stop event, the end of the Gemini frame
 * that carries finishReason, or else the end of the body). The stream window runs from the first
 * chunk of the first request to the last byte of the last one; `four` expects four requests.
 * Over it, as in case 1 (streaming.mjs, probes.mjs):
 * - main-thread busy ms: CDP TaskDuration delta (wall clock), sampled every 100 ms, from the first
 *   chunk to the final render (every column's streaming cursor gone and the last column holding
 *   the final sentence, painted: installStreamProbe); the same tasks' thread CPU time beside it;
 *   script and layout+style; four / one per run, then the median. Target: at most 1.6;
 * - busy share: busy ms / the window's wall time;
 * - long tasks (PerformanceObserver 'longtask', >50 ms) from the first chunk to the final render,
 *   and the longest. Target for four: none;
 * - frames: requestAnimationFrame callbacks from the first chunk to the last byte / (wall time /
 *   16.67 ms), as case 1 counts them (a 60 Hz display). Target for four: 100%, read as at least
 *   99.9% (the window's two edges are not aligned to frames: up to one frame, 0.05% of a 35 s
 *   window; two frames missed fail it); beside it the frames missed: per gap between two
 *   callbacks longer than 1.5 frames, the frames it skipped (round(gap / 16.67) - 1), and the
 *   longest gap;
 * - last byte to final render, the stagger of the four first chunks, DOM elements at the end.
 * A run whose replies are not as planned (not the expected number of requests, or a column or the
 * reply not holding the final sentence at the end) keeps no figures: they are n/a, which fails the
 * targets, with a note.
 */

import { availableParallelism, loadavg } from 'node:os';
import { busyShare, clockOffset, contextOptions, startMetricsSampler, watchErrors } from '../browser.mjs';
import { collectStreamProbe, installStreamProbe } from '../probes.mjs';
import { atMost } from '../report.mjs';
import { finalSentence, mockConfig, seed } from '../seed.mjs';
import { median, pluck, ratios, sleep, sum } from '../stats.mjs';

const conversationId = 'bench-compare';
/** The mock's scenario for every reply (tools/mock-providers/scenarios.mjs). */
const replyKey = 'markdown.bench-compare';
/** About how many pieces the scenario streams per reply, for the timeout. */
const replyPieces = 1500;
const frameMs = 1000 / 60;

/**
 * The four models compared, in column order, and each provider's connection to the mock (as
 * tests/e2e/fixtures.ts mockConfig has them).
 * @type {{ provider: string, model: string, label: string }[]}
 */
const compared = [
  { provider: 'openai', model: 'gpt-4o-mini', label: 'OpenAI' },
  { provider: 'claude', model: 'claude-haiku-4-5', label: 'Claude' },
  { provider: 'gemini', model: 'gemini-2.5-flash', label: 'Gemini' },
  { provider: 'groq', model: 'llama-3.3-70b-versatile', label: 'Groq' },
];

/** @param {string} mockUrl */
function connections(mockUrl) {
  const common = { apiKey: replyKey, temperature: 0.7, maxTokens: 800, baseUrl: mockUrl };
  return {
    openai: JSON.parse(mockConfig(mockUrl, replyKey)),
    claude: { ...common, provider: 'claude', model: 'claude-haiku-4-5', maxTokens: 1024 },
    gemini: { ...common, provider: 'gemini', model: 'gemini-2.5-flash', topP: 0.95, topK: 40 },
    groq: { ...common, provider: 'groq', model: 'llama-3.3-70b-versatile', topP: 0.95 },
  };
}

/**
 * @typedef {object} RequestTiming One chat request, page times.
 * @property {string} url
 * @property {number} requestAt
 * @property {number | null} firstChunkAt
 * @property {number | null} lastByteAt
 * @property {number} chunks
 *
 * @typedef {import('../probes.mjs').BenchWindow & { __benchRequests?: RequestTiming[] }} CompareWindow
 *
 * @typedef {'one' | 'four'} Variant
 *
 * @typedef {object} CompareResult
 * @property {number} streamMs First chunk to last byte.
 * @property {number} windowMs First chunk to final render.
 * @property {number} busyMs
 * @property {number} cpuMs
 * @property {number} busyShare busyMs / windowMs.
 * @property {number} scriptMs
 * @property {number} layoutStyleMs
 * @property {number} longTasks
 * @property {number} longTaskMaxMs
 * @property {number} framesPct
 * @property {number} missedFrames
 * @property {number} longestGapMs Between two animation frames, inside the stream window.
 * @property {number} lastByteToRenderMs
 * @property {number} staggerMs The last request's first chunk after the first one's.
 * @property {number} requests
 * @property {number} chunks Body chunks of all the requests.
 * @property {number} domNodes
 * @property {number} renderedChars Text in the reply or the columns at the end.
 * @property {number} loadAverage
 */

/**
 * Init script: notes each chat request's first chunk and last byte in __benchRequests; the
 * __benchFetch that installStreamProbe reads spans them all: the first request's first chunk, and
 * as lastByteAt the moment the `expected`-th request ended, which also calls onDone.
 * @param {{ expected: number }} options
 */
export function compareFetchProbeInit(options) {
  const w = /** @type {CompareWindow} */ (window);
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
  let ended = 0;
  const original = window.fetch.bind(window);
  /** @param {RequestInfo | URL} input @param {RequestInit} [init] */
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const chat =
      url.includes('/chat/completions') ||
      url.includes('/v1/messages') ||
      url.includes(':streamGenerateContent') ||
      url.includes('/v1/responses');
    if (!chat) return original(input, init);
    /** @type {RequestTiming} */
    const request = { url, requestAt: performance.now(), firstChunkAt: null, lastByteAt: null, chunks: 0 };
    requests.push(request);
    probe.requestAt ??= request.requestAt;
    const response = await original(input, init);
    if (!response.body) return response;
    probe.responseAt ??= performance.now();
    const decoder = new TextDecoder();
    let tail = '';
    // Gemini: the frame with finishReason has begun (it may span several chunks).
    let finishing = false;
    const markEnd = () => {
      if (request.lastByteAt !== null) return;
      request.lastByteAt = performance.now();
      ended += 1;
      if (ended < options.expected || probe.lastByteAt !== null) return;
      probe.lastByteAt = request.lastByteAt;
      probe.onDone?.();
    };
    /** @type {TransformStream<Uint8Array, Uint8Array>} */
    const tap = new TransformStream({
      transform(chunk, controller) {
        const now = performance.now();
        request.firstChunkAt ??= now;
        probe.firstChunkAt ??= now;
        request.chunks += 1;
        probe.chunks += 1;
        probe.bytes += chunk.byteLength;
        const text = tail + decoder.decode(chunk, { stream: true });
        tail = text.slice(-40);
        finishing ||= text.includes('"finishReason"');
        const ends =
          text.includes('data: [DONE]') ||
          text.includes('event: message_stop') ||
          (finishing && text.endsWith('\n\n'));
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

/**
 * Runs in the page: the compared columns (model, whether the final sentence is there, text
 * length), and the last assistant message's text otherwise.
 * @param {string} final
 */
function shownReplies(final) {
  const columns = [...document.querySelectorAll('[data-testid=compare-turn] [data-testid=compare-column]')];
  const messages = document.querySelectorAll(
    '[data-testid=message-list] [data-testid=message][data-role=assistant]',
  );
  const last = messages[messages.length - 1];
  return {
    columns: columns.map((column) => ({
      label: column.getAttribute('aria-label') ?? '',
      done: column.textContent?.includes(final) === true,
      chars: column.textContent?.length ?? 0,
    })),
    reply: { done: last?.textContent?.includes(final) === true, chars: last?.textContent?.length ?? 0 },
  };
}

/**
 * One message asked, measured.
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ tokenDelayMs: number }} settings
 * @param {Variant} variant
 * @returns {Promise<CompareResult>}
 */
async function measureCompare(ctx, settings, variant) {
  const four = variant === 'four';
  const expected = four ? compared.length : 1;
  const context = await ctx.browser.newContext(contextOptions);
  /** The page's notes, for ctx.errors once the run is over. @type {string[]} */
  const notes = [];
  try {
    await context.addInitScript(compareFetchProbeInit, { expected });
    const links = connections(ctx.mockUrl);
    await seed(context, ctx.appUrl, {
      localStorage: {
        'ai-chat-config': JSON.stringify(links.openai),
        'ai-chat-connections': JSON.stringify(links),
        'ai-chat-active-conversation': conversationId,
        // No title request after the reply (src/storage/keys.ts): only the replies are measured.
        'ai-chat-auto-title': 'off',
      },
      conversations: [
        {
          id: conversationId,
          name: 'Compare benchmark',
          messageCount: 0,
          seed: 1,
          ...(four && { compare: compared.map(({ provider, model }) => ({ provider, model })) }),
        },
      ],
    });
    const page = await context.newPage();
    watchErrors(page, notes);
    await page.goto(`${ctx.appUrl}/`);
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor({ state: 'visible', timeout: 60_000 });
    // The stored compare set was read (or, for one, there is none).
    await page
      .getByRole('button', { name: four ? `Compare: ${compared.length} models` : 'Compare', exact: true })
      .waitFor({ timeout: 30_000 });
    await composer.fill('Write the benchmark reply.');
    await page.waitForLoadState('networkidle');
    await sleep(1500);
    await page.evaluate(installStreamProbe, {
      scopeSelector: '[data-testid=message-list]',
      textSelector: four ? '[data-testid=compare-column]' : '[data-testid=message][data-role=assistant]',
      cursorSelector: '[data-testid=streaming-cursor]',
      finalText: finalSentence,
    });
    const sampler = await startMetricsSampler(context, page);
    const { cdp } = sampler;

    await composer.press('Enter');
    const streamTimeout = replyPieces * settings.tokenDelayMs * 3 + 60_000;
    await page.waitForFunction(
      () => /** @type {CompareWindow} */ (window).__benchFetch?.lastByteAt != null,
      undefined,
      { polling: 250, timeout: streamTimeout },
    );
    const rendered = await page
      .waitForFunction(
        () => /** @type {CompareWindow} */ (window).__benchProbe?.finalRenderAt != null,
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
    const requests = await page.evaluate(() => /** @type {CompareWindow} */ (window).__benchRequests ?? []);
    const shown = await page.evaluate(shownReplies, finalSentence);
    await cdp.detach();

    const { firstChunkAt, lastByteAt } = data.fetch;
    if (firstChunkAt === null || lastByteAt === null)
      throw new Error(`${variant}: the replies were not observed from start to end`);
    const end = data.finalRenderAt ?? lastByteAt;
    /** Main-thread ms in [from, to] (page times). @param {number} from @param {number} to @param {import('../browser.mjs').MetricKey} [key] */
    const busyMs = (from, to, key) => busyShare(samples, from + offset, to + offset, key) * (to - from);
    const longTasks = data.longTasks.filter(
      (task) => task.start + task.duration >= firstChunkAt && task.start <= end,
    );
    for (const task of longTasks) {
      const at =
        task.start <= lastByteAt
          ? `${((task.start - firstChunkAt) / 1000).toFixed(1)} s after the first chunk`
          : `${Math.round(task.start - lastByteAt)} ms after the last byte`;
      ctx.errors.push(`compare ${variant}: a long task of ${Math.round(task.duration)} ms, ${at}`);
    }
    const frames = data.frames.filter((time) => time >= firstChunkAt && time <= lastByteAt);
    const gaps = frames.slice(1).map((time, index) => time - /** @type {number} */ (frames[index]));
    const missedFrames = sum(
      gaps.filter((gap) => gap > 1.5 * frameMs).map((gap) => Math.round(gap / frameMs) - 1),
    );

    const firstChunks = requests.flatMap((request) =>
      request.firstChunkAt === null ? [] : [request.firstChunkAt],
    );
    const columnsDone =
      shown.columns.length === compared.length &&
      shown.columns.every((column, index) => column.done && column.label === compared[index]?.model);
    const planned =
      requests.length === expected &&
      requests.every((request) => request.lastByteAt !== null) &&
      (four ? columnsDone : shown.columns.length === 0 && shown.reply.done);
    if (!planned)
      ctx.errors.push(
        `compare ${variant}: not the planned replies: ${requests.length} request(s) of ${expected}, ` +
          (four
            ? `columns [${shown.columns.map((column) => `${column.label}${column.done ? '' : ' (unfinished)'}`).join(', ')}]`
            : `reply ${shown.reply.done ? 'finished' : 'unfinished'}, ${shown.columns.length} column(s)`),
      );
    if (!rendered)
      ctx.errors.push(`compare ${variant}: the final text was not in the page 30 s after the last byte`);
    const valid = planned && rendered;
    /** @param {number} value */
    const kept = (value) => (valid ? value : Number.NaN);
    const stream = lastByteAt - firstChunkAt;
    return {
      streamMs: stream,
      windowMs: kept(end - firstChunkAt),
      busyMs: kept(busyMs(firstChunkAt, end)),
      cpuMs: kept(busyMs(firstChunkAt, end, 'cpu')),
      busyShare: kept(busyMs(firstChunkAt, end) / (end - firstChunkAt)),
      scriptMs: kept(busyMs(firstChunkAt, end, 'script')),
      layoutStyleMs: kept(busyMs(firstChunkAt, end, 'layout') + busyMs(firstChunkAt, end, 'style')),
      longTasks: kept(longTasks.length),
      longTaskMaxMs: kept(Math.max(0, ...longTasks.map((task) => task.duration))),
      framesPct: kept((100 * frames.length) / (stream / frameMs)),
      missedFrames: kept(missedFrames),
      longestGapMs: kept(Math.max(0, ...gaps)),
      lastByteToRenderMs: data.finalRenderAt === null ? Number.NaN : data.finalRenderAt - lastByteAt,
      staggerMs: Math.max(...firstChunks) - Math.min(...firstChunks),
      requests: requests.length,
      chunks: data.fetch.chunks,
      domNodes: kept(data.domNodes),
      renderedChars: four ? sum(shown.columns.map((column) => column.chars)) : shown.reply.chars,
      loadAverage: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    // The app cancels a reply's body once it has read the terminating event, on every API:
    // watchErrors knows it of Chat Completions and Responses only (whether each reply ended is
    // checked above, column by column).
    const cancelled = /^request failed \(net::ERR_ABORTED\): .*(\/v1\/messages|:streamGenerateContent)/;
    ctx.errors.push(...notes.filter((note) => !cancelled.test(note)));
    await context.close();
  }
}

/**
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ tokenDelayMs: number }} settings
 */
export async function compareCase(ctx, settings) {
  /** @type {CompareResult[]} */
  const one = [];
  /** @type {CompareResult[]} */
  const four = [];
  for (let run = 1; run <= ctx.runs; run++) {
    // Alternating which goes first, so a drift in the machine's load does not favour one.
    const order = /** @type {Variant[]} */ (run % 2 === 1 ? ['one', 'four'] : ['four', 'one']);
    for (const variant of order) {
      ctx.progress(
        `case 13, run ${run}/${ctx.runs}: ${variant === 'four' ? `${compared.length} replies at once` : 'one reply'}`,
      );
      (variant === 'four' ? four : one).push(await measureCompare(ctx, settings, variant));
    }
  }
  /** @type {[Variant, string, CompareResult[]][]} */
  const targets = [
    ['four', `${compared.length} replies at once`, four],
    ['one', 'one reply', one],
  ];
  /** @type {import('../report.mjs').Row[]} */
  const rows = [];
  for (const [key, label, list] of targets)
    rows.push({
      key: `compare.${key}.busyMs`,
      label: `main-thread busy: ${label}`,
      values: pluck(list, (r) => r.busyMs),
      digits: 0,
      unit: ' ms',
    });
  rows.push({
    key: 'compare.busyRatio',
    label: `busy, ${compared.length} at once / one`,
    values: ratios(four, one, (r) => r.busyMs),
    digits: 2,
    target: atMost(1.6),
  });
  for (const [key, label, list] of targets)
    rows.push({
      key: `compare.${key}.cpuMs`,
      label: `  main-thread CPU time: ${label}`,
      values: pluck(list, (r) => r.cpuMs),
      digits: 0,
      unit: ' ms',
    });
  rows.push({
    key: 'compare.cpuRatio',
    label: `  CPU time, ${compared.length} at once / one`,
    values: ratios(four, one, (r) => r.cpuMs),
    digits: 2,
  });
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `compare.${key}.script`,
        label: `  script: ${label}`,
        values: pluck(list, (r) => r.scriptMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: `compare.${key}.layoutStyle`,
        label: `  layout+style: ${label}`,
        values: pluck(list, (r) => r.layoutStyleMs),
        digits: 0,
        unit: ' ms',
      },
    );
  for (const [key, label, list] of targets)
    rows.push({
      key: `compare.${key}.busyShare`,
      label: `busy share of the window: ${label}`,
      values: pluck(list, (r) => r.busyShare),
      scale: 100,
      unit: '%',
    });
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `compare.${key}.longTasks`,
        label: `long tasks (>50 ms): ${label}`,
        values: pluck(list, (r) => r.longTasks),
        digits: 0,
        ...(key === 'four' && { target: { text: 'none', pass: (/** @type {number} */ v) => v === 0 } }),
      },
      {
        key: `compare.${key}.longTaskMax`,
        label: `  longest task: ${label}`,
        values: pluck(list, (r) => r.longTaskMaxMs),
        digits: 0,
        unit: ' ms',
      },
    );
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `compare.${key}.frames`,
        label: `frames delivered / expected: ${label}`,
        values: pluck(list, (r) => r.framesPct),
        unit: '%',
        ...(key === 'four' && {
          target: { text: '100% (>= 99.9%)', pass: (/** @type {number} */ v) => v >= 99.9 },
        }),
      },
      {
        key: `compare.${key}.missedFrames`,
        label: `  frames missed (gaps > 1.5 frames): ${label}`,
        values: pluck(list, (r) => r.missedFrames),
        digits: 0,
      },
      {
        key: `compare.${key}.longestGap`,
        label: `  longest gap between frames: ${label}`,
        values: pluck(list, (r) => r.longestGapMs),
        unit: ' ms',
      },
    );
  for (const [key, label, list] of targets)
    rows.push(
      {
        key: `compare.${key}.lastByteToRender`,
        label: `last byte to final render: ${label}`,
        values: pluck(list, (r) => r.lastByteToRenderMs),
        unit: ' ms',
      },
      {
        key: `compare.${key}.window`,
        label: `  stream window (first chunk to last byte): ${label}`,
        values: pluck(list, (r) => r.streamMs / 1000),
        unit: ' s',
      },
      {
        key: `compare.${key}.domNodes`,
        label: `  DOM elements at end: ${label}`,
        values: pluck(list, (r) => r.domNodes),
        digits: 0,
      },
    );
  rows.push({
    key: 'compare.four.stagger',
    label: `first chunks of the ${compared.length}: last after first`,
    values: pluck(four, (r) => r.staggerMs),
    digits: 0,
    unit: ' ms',
  });
  const load = pluck([...one, ...four], (r) => r.loadAverage);
  const chunks = (/** @type {CompareResult[]} */ list) => Math.round(median(pluck(list, (r) => r.chunks)));
  const chars = (/** @type {CompareResult[]} */ list) =>
    Math.round(median(pluck(list, (r) => r.renderedChars)));
  ctx.report.table(
    `Case 13: ${compared.length} replies streaming at once (Compare) against one, ` +
      `${1000 / settings.tokenDelayMs} chunks/s each`,
    rows,
    [
      `Target: busy ${compared.length} at once / one <= 1.6, no long task and every frame while the ` +
        `${compared.length} stream; busy is main-thread task time from the first chunk to the final render, ` +
        `wall clock (CPU time beside it, steadier on a busy machine). Frames are rAF callbacks / ` +
        `(stream window / 16.67 ms), as case 1 counts them; 100% read as >= 99.9% for the window's edges.`,
      `Models: ${compared.map((pin) => `${pin.label} ${pin.model}`).join(', ')} (one: the first), ` +
        `side by side in a 1280 x 800 window; each the mock's ~${replyPieces}-token markdown reply. ` +
        `Body chunks (median): four ${chunks(four)}, one ${chunks(one)}; text in the page at the end: ` +
        `four ${chars(four)} characters in the columns, one ${chars(one)}.`,
      `Machine load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ` +
        `${availableParallelism()} CPUs.`,
    ],
  );
}
