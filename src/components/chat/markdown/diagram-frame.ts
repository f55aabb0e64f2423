import DOMPurify from 'dompurify';

/**
 * Draws Mermaid diagrams in the diagram frame (`diagram.html`, built by
 * tools/diagram-frame/plugin.ts): a sandboxed frame with an opaque origin, which Chromium runs in
 * its own process, so a diagram's layout never stalls the chat. One frame serves every diagram;
 * it is made on the first one. Mermaid runs there with `securityLevel: 'strict'` and labels as
 * SVG text; its SVG is sanitized once more here and then shown as an image, which runs nothing
 * and loads nothing.
 */

export type DiagramResult = { svg: string } | { error: string };

type FrameMessage =
  { ready: true } | { unavailable: true } | { id: number; svg: string } | { id: number; error: string };

const frameUrl = `${import.meta.env.BASE_URL}diagram.html`;
/** The frame says it is ready while it loads, before its load event; this is the margin. */
const readyAfterLoadMs = 2_000;
/** A frame not ready by then (a fetch that hangs) is given up, and the next diagram tries anew. */
const readyTimeoutMs = 60_000;
/** One diagram; Mermaid's worst inputs take seconds, not this long. */
const drawTimeoutMs = 30_000;
const unavailable = 'The diagram renderer could not load (offline?).';

interface Frame {
  ready: Promise<Window>;
  /** Each diagram being drawn: its result, or an Error when the frame failed. */
  waiting: Map<number, (result: DiagramResult | Error) => void>;
  /** Removes the frame and fails what it was drawing; the next diagram opens a new one. */
  close(reason: string): void;
}

let current: Frame | undefined;
let nextId = 0;

function openFrame(): Frame {
  const element = document.createElement('iframe');
  element.src = frameUrl;
  element.sandbox.add('allow-scripts');
  element.referrerPolicy = 'no-referrer';
  element.title = 'Diagram renderer';
  element.tabIndex = -1;
  element.setAttribute('aria-hidden', 'true');
  // Laid out (Mermaid measures its labels) but out of sight and out of the way.
  element.style.cssText =
    'position:fixed;left:-10000px;top:0;width:1024px;height:768px;border:0;visibility:hidden;pointer-events:none';
  const waiting = new Map<number, (result: DiagramResult | Error) => void>();
  const timers: number[] = [];
  let closed = false;
  let markReady: (target: Window) => void = () => undefined;
  let markFailed: (error: Error) => void = () => undefined;
  const ready = new Promise<Window>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  // Nobody may be waiting when it fails: the rejection is handled by whoever awaits it later.
  ready.catch(() => undefined);

  const listen = (event: MessageEvent<FrameMessage>) => {
    if (event.source !== element.contentWindow || event.origin !== 'null') return;
    const message = event.data;
    if ('unavailable' in message) return frame.close(unavailable);
    if ('ready' in message) {
      if (element.contentWindow) markReady(element.contentWindow);
      return;
    }
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    settle?.('svg' in message ? { svg: message.svg } : { error: message.error });
  };

  const frame: Frame = {
    ready,
    waiting,
    close(reason) {
      if (closed) return;
      closed = true;
      for (const timer of timers) window.clearTimeout(timer);
      window.removeEventListener('message', listen);
      element.remove();
      if (current === frame) current = undefined;
      for (const settle of waiting.values()) settle(new Error(reason));
      waiting.clear();
      markFailed(new Error(reason));
    },
  };
  let isReady = false;
  void ready.then(
    () => (isReady = true),
    () => undefined,
  );
  // A document that could not be fetched loads too, as the browser's error page, which says nothing.
  element.addEventListener('load', () =>
    timers.push(window.setTimeout(() => isReady || frame.close(unavailable), readyAfterLoadMs)),
  );
  timers.push(window.setTimeout(() => isReady || frame.close(unavailable), readyTimeoutMs));
  window.addEventListener('message', listen);
  document.body.append(element);
  return frame;
}

/**
 * The diagram, or the reason Mermaid gave for not drawing it. Rejects, with a message for the
 * reader, when the frame could not load or did not answer: worth trying again later.
 */
export async function renderDiagram(source: string, dark: boolean): Promise<DiagramResult> {
  const frame = (current ??= openFrame());
  const target = await frame.ready;
  const id = nextId++;
  const result = await new Promise<DiagramResult>((resolve, reject) => {
    const timer = window.setTimeout(() => {
      // A frame that does not answer (Mermaid stuck, its process gone) is replaced, not waited on.
      frame.close('The diagram took too long to draw.');
    }, drawTimeoutMs);
    frame.waiting.set(id, (settled) => {
      window.clearTimeout(timer);
      if (settled instanceof Error) reject(settled);
      else resolve(settled);
    });
    // The target is '*' because an opaque origin has no name; the source is all it receives.
    target.postMessage({ id, source, dark }, '*');
  });
  if ('error' in result) return result;
  const clean = DOMPurify.sanitize(result.svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    RETURN_DOM_FRAGMENT: true,
  });
  const root = clean.firstElementChild;
  if (!(root instanceof SVGSVGElement)) return { error: 'The diagram could not be drawn.' };
  return { svg: new XMLSerializer().serializeToString(withNaturalSize(root)) };
}

/**
 * Mermaid sizes its SVG to fill the width it is put in (`width="100%"`); as an image that
 * stretches a small diagram across the reply. Its own size is its viewBox; the image is scaled
 * down from there when the reply is narrower.
 */
function withNaturalSize(svg: SVGSVGElement): SVGSVGElement {
  const [, , width, height] = (svg.getAttribute('viewBox') ?? '').split(/[\s,]+/).map(Number);
  if (width && height && Number.isFinite(width) && Number.isFinite(height)) {
    svg.setAttribute('width', String(Math.ceil(width)));
    svg.setAttribute('height', String(Math.ceil(height)));
    svg.style.removeProperty('max-width');
  }
  return svg;
}
