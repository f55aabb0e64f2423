import { whenIdle } from '../../../lib/when-idle.ts';
import { artifactFrameSandbox, artifactFrameUrl, ReactFrame } from './react-frame.ts';

/**
 * React frames loaded ahead of use. A frame's document takes about half a second to start (a
 * renderer process of its own, React and its libraries, the Tailwind runtime): opening a React
 * artifact should not wait for that. While a reply with a React artifact is on screen, one frame
 * loads in idle time, hidden, and the next React preview moves it into place with `moveBefore`,
 * the one DOM move that keeps an iframe's document (any other move reloads it).
 *
 * Each frame serves one artifact: no code runs in a document another artifact ran in. A browser
 * without `moveBefore` loads the frame on opening, as it would with none of this.
 */

export interface PlacedFrame {
  iframe: HTMLIFrameElement;
  frame: ReactFrame;
}

/** How long a frame stays warm after the last React artifact left the screen. */
const keepAfterMs = 10_000;

let warm: PlacedFrame | null = null;
let holder: HTMLElement | null = null;
let wanted = 0;
let cancelIdle: (() => void) | undefined;
let dropTimer: ReturnType<typeof setTimeout> | undefined;

const canMove = () => typeof Element !== 'undefined' && 'moveBefore' in Element.prototype;

function newFrame(title: string): PlacedFrame {
  const iframe = document.createElement('iframe');
  iframe.title = title;
  iframe.src = artifactFrameUrl;
  // Its whole sandbox: allow-same-origin would give the model's code this origin.
  iframe.sandbox.value = artifactFrameSandbox;
  iframe.referrerPolicy = 'no-referrer';
  iframe.className = 'h-full w-full flex-1 border-0 bg-white dark:bg-gray-950';
  return { iframe, frame: new ReactFrame(iframe) };
}

function warmUp() {
  if (warm || cancelIdle || wanted === 0) return;
  cancelIdle = whenIdle(() => {
    cancelIdle = undefined;
    if (warm || wanted === 0) return;
    if (!holder) {
      holder = document.createElement('div');
      // Out of sight and out of reach: no focus, no pointer, not in the accessibility tree.
      holder.className = 'pointer-events-none invisible fixed top-0 -left-[10000px] h-96 w-[40rem]';
      holder.setAttribute('aria-hidden', 'true');
      holder.inert = true;
      document.body.append(holder);
    }
    const loading = newFrame('React preview, loaded ahead');
    // A frame that cannot load (offline before the service worker had it) is not kept.
    loading.frame.subscribe((event) => {
      if (event.type === 'unavailable' && warm === loading) drop();
    });
    warm = loading;
    holder.append(loading.iframe);
  });
}

function drop() {
  cancelIdle?.();
  cancelIdle = undefined;
  if (!warm) return;
  warm.frame.dispose();
  warm.iframe.remove();
  warm = null;
}

/**
 * Keeps a frame loaded ahead while the caller (a React artifact on screen) is there; returns the
 * release. Nothing happens where frames cannot be moved whole.
 */
export function keepReactFrameWarm(): () => void {
  if (!canMove()) return () => undefined;
  wanted++;
  clearTimeout(dropTimer);
  warmUp();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    wanted--;
    if (wanted === 0) dropTimer = setTimeout(drop, keepAfterMs);
  };
}

/**
 * Puts a React frame into `slot` (appended): the frame loaded ahead when there is one, loaded or
 * still loading, or a new one. The caller owns it from then on: it disposes the `ReactFrame` and
 * removes the iframe when done.
 */
export function placeReactFrame(slot: Element): PlacedFrame {
  const ahead = warm;
  warm = null;
  if (ahead) {
    try {
      (slot as Element & { moveBefore(node: Node, child: Node | null): void }).moveBefore(ahead.iframe, null);
      ahead.iframe.title = 'React preview';
      warmUp();
      return ahead;
    } catch {
      // Not movable here (another document): loaded anew below.
      ahead.frame.dispose();
      ahead.iframe.remove();
    }
  }
  const placed = newFrame('React preview');
  slot.append(placed.iframe);
  warmUp();
  return placed;
}
