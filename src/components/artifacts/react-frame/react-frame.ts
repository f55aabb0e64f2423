import {
  parseFrameMessage,
  type ArtifactLanguage,
  type ArtifactTheme,
  type FrameMessage,
  type RenderRequest,
} from './protocol.ts';

/**
 * The app's side of the React artifact frame (`artifact.html`, built by
 * tools/artifact-frame/plugin.ts; the protocol is protocol.ts, the whole is docs/artifacts.md).
 * No UI: whoever shows the frame makes the iframe, with `src={artifactFrameUrl}` and
 * `sandbox={artifactFrameSandbox}` and nothing more in the sandbox (allow-same-origin would give
 * the model's code this origin), and hands it to a `ReactFrame`.
 *
 * The client waits for the frame's 'ready', sends the latest render (again after any reload of
 * the frame), and passes on only messages from that frame's window, of exactly the protocol's
 * shapes, about the render last asked for. Everything they carry came from the model's code:
 * show their text as text.
 */

export const artifactFrameUrl = `${import.meta.env.BASE_URL}artifact.html`;
/** The frame's whole sandbox: scripts, and an opaque origin. */
export const artifactFrameSandbox = 'allow-scripts';

/**
 * What subscribers hear: the frame's messages without their render id, plus the client's own
 * 'unavailable' (the frame did not load, offline before the service worker had it) and
 * 'timeout' (a render got no answer: an endless loop; reload the frame).
 */
export type ReactFrameEvent =
  DistributiveOmit<FrameMessage, 'id'> | { type: 'unavailable' } | { type: 'timeout' };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface ReactFrameOptions {
  /** Where messages arrive; the page's window unless a test gives another. */
  host?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** After the iframe's load event, how long 'ready' may take before 'unavailable'. */
  readyAfterLoadMs?: number;
  /** How long a render may go without 'rendered' or 'error' before 'timeout'. */
  renderTimeoutMs?: number;
}

const frames = new WeakMap<HTMLIFrameElement, ReactFrame>();

export class ReactFrame {
  readonly #iframe: HTMLIFrameElement;
  readonly #host: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  readonly #listeners = new Set<(event: ReactFrameEvent) => void>();
  readonly #readyAfterLoadMs: number;
  readonly #renderTimeoutMs: number;
  #ready = false;
  #latest: RenderRequest | undefined;
  #nextId = 1;
  #answered = true;
  #loadTimer: ReturnType<typeof setTimeout> | undefined;
  #renderTimer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  constructor(iframe: HTMLIFrameElement, options: ReactFrameOptions = {}) {
    this.#iframe = iframe;
    this.#host = options.host ?? window;
    this.#readyAfterLoadMs = options.readyAfterLoadMs ?? 5_000;
    this.#renderTimeoutMs = options.renderTimeoutMs ?? 15_000;
    this.#host.addEventListener('message', this.#onMessage);
    iframe.addEventListener('load', this.#onLoad);
  }

  /** Whether the frame has said it is ready (since it last loaded). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Renders `code` in the frame, in place of what it showed; sent once the frame is ready. */
  render(code: string, language: ArtifactLanguage, theme: ArtifactTheme): void {
    if (this.#disposed) return;
    this.#latest = { type: 'render', code, language, theme, id: this.#nextId++ };
    if (this.#ready) this.#send();
  }

  /** Hears every event from now on; returns the unsubscribe. */
  subscribe(listener: (event: ReactFrameEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops listening; the iframe itself is its owner's to remove. */
  dispose(): void {
    this.#disposed = true;
    if (frames.get(this.#iframe) === this) frames.delete(this.#iframe);
    this.#host.removeEventListener('message', this.#onMessage);
    this.#iframe.removeEventListener('load', this.#onLoad);
    clearTimeout(this.#loadTimer);
    clearTimeout(this.#renderTimer);
    this.#listeners.clear();
  }

  #send() {
    const target = this.#iframe.contentWindow;
    if (!target || !this.#latest) return;
    this.#answered = false;
    clearTimeout(this.#renderTimer);
    this.#renderTimer = setTimeout(() => {
      if (!this.#answered) this.#emit({ type: 'timeout' });
    }, this.#renderTimeoutMs);
    // The target is '*' because an opaque origin has no name; the code is all it receives.
    target.postMessage(this.#latest, '*');
  }

  #emit(event: ReactFrameEvent) {
    for (const listener of [...this.#listeners]) listener(event);
  }

  readonly #onLoad = () => {
    // A load is a new document: it says 'ready' again (during its load, so before this event,
    // or soon after), and the render is sent again.
    this.#ready = false;
    clearTimeout(this.#loadTimer);
    this.#loadTimer = setTimeout(() => {
      if (!this.#ready && !this.#disposed) this.#emit({ type: 'unavailable' });
    }, this.#readyAfterLoadMs);
  };

  readonly #onMessage = (event: MessageEvent) => {
    if (!isFromFrame(event, this.#iframe)) return;
    const message = parseFrameMessage(event.data);
    if (!message) return;
    if (message.type === 'ready') {
      this.#ready = true;
      clearTimeout(this.#loadTimer);
      this.#emit(message);
      this.#send();
      return;
    }
    // An answer about an earlier render, or with no id (not from the frame's own code): dropped.
    if (message.id === undefined || message.id !== this.#latest?.id) return;
    if (message.type === 'rendered' || message.type === 'error') {
      this.#answered = true;
      clearTimeout(this.#renderTimer);
    }
    this.#emit(withoutId(message));
  };
}

/**
 * Whether a message came from this iframe's document, framed as it must be: sandboxed, so with
 * an opaque origin ('null'). Anything else (another frame, another window, the frame loaded
 * without its sandbox) is ignored.
 */
export function isFromFrame(
  event: Pick<MessageEvent, 'source' | 'origin'>,
  iframe: HTMLIFrameElement,
): boolean {
  return event.source !== null && event.source === iframe.contentWindow && event.origin === 'null';
}

function withoutId(message: Exclude<FrameMessage, { type: 'ready' }>): ReactFrameEvent {
  const event: Record<string, unknown> = { ...message };
  delete event.id;
  return event as ReactFrameEvent;
}

/**
 * Renders `code` in `iframe` (an iframe of `artifactFrameUrl`): the `ReactFrame` for that
 * iframe, made on first use, to subscribe to.
 */
export function renderReact(
  iframe: HTMLIFrameElement,
  code: string,
  language: ArtifactLanguage,
  theme: ArtifactTheme,
): ReactFrame {
  let frame = frames.get(iframe);
  if (!frame) {
    frame = new ReactFrame(iframe);
    frames.set(iframe, frame);
  }
  frame.render(code, language, theme);
  return frame;
}
