// @ts-check
/* global document, window, requestAnimationFrame, location, HTMLInputElement, HTMLIFrameElement, MutationObserver */
/**
 * Code that runs inside the page (handed to page.evaluate or addInitScript, so each function is
 * self-contained: it may use no module-level name). All times are the page's performance.now().
 *
 * "Painted" throughout: the first animation frame whose callbacks see the awaited DOM state, then
 * a task posted from that callback, which runs after the frame's style, layout and paint.
 */

/**
 * @typedef {object} FetchProbe
 * @property {number | null} requestAt
 * @property {number | null} responseAt Headers received.
 * @property {number | null} firstChunkAt First body chunk handed to the page.
 * @property {number | null} lastByteAt The chunk with the terminating `data: [DONE]` event (Chat
 *   Completions; on the Responses API, the chunk that ends the response.completed event) was handed
 *   to the page, or else the body ended (a reader that stops at [DONE] never reads the end).
 * @property {number} chunks
 * @property {number} bytes
 * @property {(() => void) | null} onDone
 *
 * @typedef {{ at: number, delay: number, frame: number }} KeyTiming
 *   at: event.timeStamp (the input's creation); delay: until the first listener ran;
 *   frame: until the next animation frame after the listener.
 * @typedef {{ start: number, duration: number }} TaskTiming
 * @typedef {{ start: number, delay: number, duration: number }} EventTiming
 *
 * @typedef {object} StreamProbe
 * @property {number[]} frames Times of requestAnimationFrame callbacks.
 * @property {TaskTiming[]} longTasks
 * @property {KeyTiming[]} keys
 * @property {EventTiming[]} slowEvents Event Timing entries (keydown, duration >= 16 ms).
 * @property {number | null} domFinalAt
 * @property {number | null} finalRenderAt
 * @property {boolean} stopped
 *
 * @typedef {{ clickAt: number | null, domAt: number | null, paintedAt: number | null }} SwitchProbe
 * @typedef {{ rowsAt: number | null, activeAt: number | null, paintedAt: number | null, lastAt: number | null }} ColdProbe
 *
 * @typedef {object} ArtifactProbe Case 11, page times.
 * @property {number | null} clickAt performance.now() in the first capture-phase 'click' listener
 *   on window (installed before the click; it runs before the button's own handler).
 * @property {number | null} clickStamp That click event's timeStamp (its creation).
 * @property {number | null} panelAt The panel (the aside labelled with the artifact's title) holds
 *   its 'React preview' iframe: the first animation frame that sees it.
 * @property {number | null} panelPaintedAt That frame painted.
 * @property {number | null} readyAt The frame's first 'ready' message.
 * @property {number | null} renderedAt The frame's first 'rendered' message.
 * @property {number | null} height What that message says.
 * @property {string | null} error The frame's first 'error' message, if any.
 *
 * @typedef {object} ArtifactFrameProbe Case 11, inside the React frame (artifact.html), its times.
 * @property {number} timeOrigin performance.timeOrigin, to map its times onto the page's.
 * @property {number[]} requests A render request reached the frame (capture-phase listener
 *   added before the frame's own).
 * @property {number[]} compiles The frame's compile function was called: transpiled.
 * @property {number[]} commits The component's root element was added to #artifact-content
 *   (a mutation observer's callback: React's commit).
 *
 * @typedef {Window & {
 *   __benchFetch?: FetchProbe,
 *   __benchProbe?: StreamProbe,
 *   __benchSwitch?: SwitchProbe,
 *   __benchCold?: ColdProbe,
 *   __benchArtifact?: ArtifactProbe,
 *   __benchArtifactFrame?: ArtifactFrameProbe,
 *   __benchFramesReady?: number[],
 *   __benchReferenceStart?: () => void,
 * }} BenchWindow
 */

/**
 * Init script (every document of the context): wraps window.fetch so that the response of a
 * chat completion (or Responses API) request passes through a TransformStream that notes the first chunk and the end
 * of the body. The app and the reference page get the same wrapper, so its cost cancels out.
 */
export function fetchProbeInit() {
  const w = /** @type {BenchWindow} */ (window);
  /** @type {FetchProbe} */
  const probe = {
    requestAt: null,
    responseAt: null,
    firstChunkAt: null,
    lastByteAt: null,
    chunks: 0,
    bytes: 0,
    onDone: null,
  };
  w.__benchFetch = probe;
  const original = window.fetch.bind(window);
  /** @param {RequestInfo | URL} input @param {RequestInit} [init] */
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const streaming = url.includes('/chat/completions') || url.includes('/v1/responses');
    if (streaming) probe.requestAt = performance.now();
    const response = await original(input, init);
    if (!streaming || !response.body) return response;
    probe.responseAt = performance.now();
    const decoder = new TextDecoder();
    let tail = '';
    // Responses API: its terminating event has begun (its data line may span several chunks).
    let completing = false;
    const markEnd = () => {
      if (probe.lastByteAt !== null) return;
      probe.lastByteAt = performance.now();
      probe.onDone?.();
    };
    /** @type {TransformStream<Uint8Array, Uint8Array>} */
    const tap = new TransformStream({
      transform(chunk, controller) {
        probe.firstChunkAt ??= performance.now();
        probe.chunks += 1;
        probe.bytes += chunk.byteLength;
        // The app stops reading at the terminating event, so the body's end may never be read.
        const text = tail + decoder.decode(chunk, { stream: true });
        tail = text.slice(-32);
        // Chat Completions end with `data: [DONE]`; the Responses API with the event
        // response.completed, whose one data line ends at the first blank line after it.
        completing ||= text.includes('event: response.completed\n');
        const ends = text.includes('data: [DONE]') || (completing && text.endsWith('\n\n'));
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
 * Adds a text input above the page to type into while a reply streams: the app's composer is
 * disabled during a reply, and an input outside the app measures how long the main thread keeps
 * a keystroke waiting, which is what a user typing anywhere on the page feels.
 */
export function injectInputOverlay() {
  const input = document.createElement('input');
  input.id = 'bench-input';
  input.type = 'text';
  input.setAttribute('aria-label', 'Benchmark keystrokes');
  Object.assign(input.style, {
    position: 'fixed',
    top: '8px',
    left: '50%',
    width: '180px',
    zIndex: '2147483647',
    font: '12px monospace',
  });
  document.body.append(input);
}

/**
 * Starts recording: animation frames, long tasks, keystroke delays (own capturing listener plus
 * Event Timing entries), and, once the body has ended, when the final text is painted: inside the
 * visible element matching `scopeSelector`, the last element matching `textSelector` contains
 * `finalText`, and `cursorSelector` (if any) matches nothing.
 * @param {{ scopeSelector: string, textSelector: string, cursorSelector: string | null, finalText: string }} options
 */
export function installStreamProbe(options) {
  const w = /** @type {BenchWindow} */ (window);
  const fetchProbe = w.__benchFetch;
  if (!fetchProbe) throw new Error('The fetch probe is not installed');
  /** @type {StreamProbe} */
  const probe = {
    frames: [],
    longTasks: [],
    keys: [],
    slowEvents: [],
    domFinalAt: null,
    finalRenderAt: null,
    stopped: false,
  };
  w.__benchProbe = probe;

  /** @param {number} time */
  const onFrame = (time) => {
    probe.frames.push(time);
    if (!probe.stopped) requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask' });
  new PerformanceObserver((list) => {
    for (const entry of /** @type {PerformanceEventTiming[]} */ (list.getEntries())) {
      if (entry.name !== 'keydown') continue;
      probe.slowEvents.push({
        start: entry.startTime,
        delay: entry.processingStart - entry.startTime,
        duration: entry.duration,
      });
    }
  }).observe(/** @type {PerformanceObserverInit} */ ({ type: 'event', durationThreshold: 16 }));

  window.addEventListener(
    'keydown',
    (event) => {
      /** @type {KeyTiming} */
      const key = { at: event.timeStamp, delay: performance.now() - event.timeStamp, frame: Number.NaN };
      probe.keys.push(key);
      requestAnimationFrame(() => {
        key.frame = performance.now() - key.at;
      });
    },
    { capture: true },
  );

  const finalShown = () => {
    if (options.cursorSelector && document.querySelector(options.cursorSelector) !== null) return false;
    // Each visible scope is checked (the app might keep other lists mounted).
    return [...document.querySelectorAll(options.scopeSelector)].some((scope) => {
      if (!scope.checkVisibility()) return false;
      const all = scope.querySelectorAll(options.textSelector);
      return all[all.length - 1]?.textContent?.includes(options.finalText) === true;
    });
  };
  fetchProbe.onDone = () => {
    const check = () => {
      if (!finalShown()) {
        requestAnimationFrame(check);
        return;
      }
      probe.domFinalAt = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        probe.finalRenderAt = performance.now();
        channel.port1.close();
      };
      channel.port2.postMessage(null);
    };
    requestAnimationFrame(check);
  };
}

/** Stops the frame loop and returns what the probes recorded. */
export function collectStreamProbe() {
  const w = /** @type {BenchWindow} */ (window);
  const probe = w.__benchProbe;
  const fetchProbe = w.__benchFetch;
  if (!probe || !fetchProbe) throw new Error('The stream probe is not installed');
  probe.stopped = true;
  const overlay = document.getElementById('bench-input');
  return {
    fetch: {
      requestAt: fetchProbe.requestAt,
      responseAt: fetchProbe.responseAt,
      firstChunkAt: fetchProbe.firstChunkAt,
      lastByteAt: fetchProbe.lastByteAt,
      chunks: fetchProbe.chunks,
      bytes: fetchProbe.bytes,
    },
    frames: probe.frames,
    longTasks: probe.longTasks,
    keys: probe.keys,
    slowEvents: probe.slowEvents,
    domFinalAt: probe.domFinalAt,
    finalRenderAt: probe.finalRenderAt,
    domNodes: document.getElementsByTagName('*').length,
    typedLength: overlay instanceof HTMLInputElement ? overlay.value.length : -1,
  };
}

/**
 * Case 2: from the click on a sidebar row until the conversation's last message, recognised by
 * `marker`, is in the message list, inside its visible area, and painted.
 * @param {{ marker: string }} options
 */
export function installSwitchProbe(options) {
  const w = /** @type {BenchWindow} */ (window);
  /** @type {SwitchProbe} */
  const probe = { clickAt: null, domAt: null, paintedAt: null };
  w.__benchSwitch = probe;
  // Each visible message list is checked (the app might keep others mounted).
  const shown = () =>
    [...document.querySelectorAll('[data-testid=message-list]')].some((list) => {
      if (!list.checkVisibility()) return false;
      const messages = list.querySelectorAll('[data-testid=message]');
      const last = messages[messages.length - 1];
      if (!last?.textContent?.includes(options.marker)) return false;
      const box = last.getBoundingClientRect();
      const view = list.getBoundingClientRect();
      return box.height > 0 && box.bottom > view.top && box.top < view.bottom;
    });
  window.addEventListener(
    'click',
    (event) => {
      if (probe.clickAt !== null) return;
      probe.clickAt = event.timeStamp;
      const check = () => {
        if (!shown()) {
          requestAnimationFrame(check);
          return;
        }
        probe.domAt = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          probe.paintedAt = performance.now();
          channel.port1.close();
        };
        channel.port2.postMessage(null);
      };
      requestAnimationFrame(check);
    },
    { capture: true },
  );
}

/**
 * Case 3, init script: from navigation start (performance.now() is relative to it) until the
 * sidebar has a row and a message of the active conversation (its text contains `name`) is in a
 * visible message list, then painted: paintedAt. Checked once per animation frame, and on for up
 * to 10 s more until the conversation's last message (it contains `marker`) is there too: lastAt.
 * @param {{ name: string, marker: string }} options
 */
export function coldStartProbeInit(options) {
  if (location.pathname !== '/') return;
  const w = /** @type {BenchWindow} */ (window);
  /** @type {ColdProbe} */
  const probe = { rowsAt: null, activeAt: null, paintedAt: null, lastAt: null };
  w.__benchCold = probe;
  let posted = false;
  const check = () => {
    const now = performance.now();
    if (probe.rowsAt === null && document.querySelector('[data-testid=conversation-row]')) probe.rowsAt = now;
    const messages = [...document.querySelectorAll('[data-testid=message-list]')]
      .filter((list) => list.checkVisibility())
      .flatMap((list) => [...list.querySelectorAll('[data-testid=message]')]);
    if (probe.activeAt === null && messages.some((message) => message.textContent?.includes(options.name)))
      probe.activeAt = now;
    if (probe.lastAt === null && messages.at(-1)?.textContent?.includes(options.marker)) probe.lastAt = now;
    if (!posted && probe.rowsAt !== null && probe.activeAt !== null) {
      posted = true;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        probe.paintedAt = performance.now();
        channel.port1.close();
      };
      channel.port2.postMessage(null);
    }
    if (probe.lastAt === null && (probe.paintedAt === null || now - probe.paintedAt < 10_000))
      requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** Init script: long tasks, kept on the window for the case to read. */
export function longTaskProbeInit() {
  const w = /** @type {Window & { __benchLongTasks?: { start: number, duration: number }[] }} */ (window);
  const tasks = (w.__benchLongTasks = /** @type {{ start: number, duration: number }[]} */ ([]));
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * The long tasks `longTaskProbeInit` saw on the page between two of its `performance.now()` times.
 * @param {import('@playwright/test').Page} page @param {number} from @param {number} to
 */
export async function longTasksBetween(page, from, to) {
  const tasks = await page.evaluate(
    () =>
      /** @type {Window & { __benchLongTasks?: { start: number, duration: number }[] }} */ (window)
        .__benchLongTasks ?? [],
  );
  const during = tasks.filter((task) => task.start >= from && task.start <= to);
  return { count: during.length, longest: Math.max(0, ...during.map((task) => task.duration)) };
}

/**
 * Case 11: from the click on 'Open in panel' until the React frame's first 'rendered' message
 * (a capture-phase listener on window, for messages whose source is the window of the 'React
 * preview' iframe inside the panel labelled `title`), with the panel's own paint on the way.
 * @param {{ title: string }} options
 */
export function installArtifactProbe(options) {
  const w = /** @type {BenchWindow} */ (window);
  /** @type {ArtifactProbe} */
  const probe = {
    clickAt: null,
    clickStamp: null,
    panelAt: null,
    panelPaintedAt: null,
    readyAt: null,
    renderedAt: null,
    height: null,
    error: null,
  };
  w.__benchArtifact = probe;
  const frameElement = () =>
    [...document.querySelectorAll('aside')]
      .find((aside) => aside.getAttribute('aria-label') === options.title)
      ?.querySelector('iframe[title="React preview"]') ?? null;
  window.addEventListener(
    'message',
    (event) => {
      const frame = frameElement();
      if (
        probe.clickAt === null ||
        !(frame instanceof HTMLIFrameElement) ||
        event.source !== frame.contentWindow
      )
        return;
      const now = performance.now();
      const data = /** @type {{ type?: unknown, height?: unknown, message?: unknown }} */ (event.data ?? {});
      if (data.type === 'ready' && probe.readyAt === null) probe.readyAt = now;
      if (data.type === 'rendered' && probe.renderedAt === null) {
        probe.renderedAt = now;
        probe.height = typeof data.height === 'number' ? data.height : null;
      }
      if (data.type === 'error' && probe.error === null) probe.error = String(data.message);
    },
    { capture: true },
  );
  window.addEventListener(
    'click',
    (event) => {
      if (probe.clickAt !== null) return;
      probe.clickAt = performance.now();
      probe.clickStamp = event.timeStamp;
      const check = () => {
        if (frameElement() === null) {
          requestAnimationFrame(check);
          return;
        }
        probe.panelAt = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          probe.panelPaintedAt = performance.now();
          channel.port1.close();
        };
        channel.port2.postMessage(null);
      };
      requestAnimationFrame(check);
    },
    { capture: true },
  );
}

/**
 * Case 11, init script (the page): notes when React frames (any iframe of artifact.html) say
 * 'ready', in `__benchFramesReady`: a frame loaded ahead says it before any click.
 */
export function framesReadyProbeInit() {
  if (location.pathname.endsWith('/artifact.html')) return;
  const w = /** @type {BenchWindow} */ (window);
  /** @type {number[]} */
  const times = [];
  w.__benchFramesReady = times;
  window.addEventListener(
    'message',
    (event) => {
      const data = /** @type {{ type?: unknown }} */ (event.data ?? {});
      if (data.type !== 'ready') return;
      const from = [...document.querySelectorAll('iframe')].find(
        (frame) => frame.contentWindow === event.source,
      );
      if (from?.src.endsWith('/artifact.html')) times.push(performance.now());
    },
    { capture: true },
  );
}

/**
 * Case 11, init script (every document; it acts only in the React frame, artifact.html): notes,
 * on the frame's clock, when a render request arrives (a capture-phase listener added before the
 * frame's own), when the frame's compile function is called (the transpiled code is then ready:
 * the page's inline script sets `self.artifactCompile`, which a setter here wraps, passing every
 * call through unchanged), and when the component's root element is added to #artifact-content
 * (React's commit). The frame itself reports no times (its 'rendered' carries only a height).
 */
export function artifactFrameProbeInit() {
  if (!location.pathname.endsWith('/artifact.html')) return;
  const w = /** @type {BenchWindow} */ (window);
  /** @type {ArtifactFrameProbe} */
  const probe = { timeOrigin: performance.timeOrigin, requests: [], compiles: [], commits: [] };
  w.__benchArtifactFrame = probe;
  window.addEventListener(
    'message',
    (event) => {
      const data = /** @type {{ type?: unknown }} */ (event.data ?? {});
      if (event.source === window.parent && data.type === 'render') probe.requests.push(performance.now());
    },
    { capture: true },
  );
  /** @type {((parameters: string[], body: string) => unknown) | undefined} */
  let compile;
  Object.defineProperty(window, 'artifactCompile', {
    configurable: true,
    get: () => compile,
    /** @param {(parameters: string[], body: string) => unknown} original */
    set: (original) => {
      compile = (parameters, body) => {
        probe.compiles.push(performance.now());
        return original(parameters, body);
      };
    },
  });
  let content = /** @type {Element | null} */ (null);
  const contentObserver = new MutationObserver(() => {
    // The frame adds a div#root for code that mounts itself, then takes it away again.
    if (content && [...content.children].some((child) => child.id !== 'root'))
      probe.commits.push(performance.now());
  });
  const finder = new MutationObserver(() => {
    content = document.getElementById('artifact-content');
    if (!content) return;
    finder.disconnect();
    contentObserver.observe(content, { childList: true });
  });
  finder.observe(document, { childList: true, subtree: true });
}
