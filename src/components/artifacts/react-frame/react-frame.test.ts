import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { artifactLimits, parseFrameMessage, parseRenderRequest } from './protocol.ts';
import { artifactFrameUrl, isFromFrame, ReactFrame, type ReactFrameEvent } from './react-frame.ts';

describe('parseFrameMessage', () => {
  it('reads each message the frame sends', () => {
    expect(parseFrameMessage({ type: 'ready' })).toEqual({ type: 'ready' });
    expect(parseFrameMessage({ type: 'rendered', height: 120.5, id: 3 })).toEqual({
      type: 'rendered',
      height: 120.5,
      id: 3,
    });
    expect(parseFrameMessage({ type: 'resized', height: 0 })).toEqual({ type: 'resized', height: 0 });
    expect(
      parseFrameMessage({
        type: 'error',
        message: 'TypeError: x',
        phase: 'runtime',
        line: 4,
        column: 2,
        id: 1,
      }),
    ).toEqual({ type: 'error', message: 'TypeError: x', phase: 'runtime', line: 4, column: 2, id: 1 });
    expect(parseFrameMessage({ type: 'error', message: 'm', phase: 'import' })).toEqual({
      type: 'error',
      message: 'm',
      phase: 'import',
    });
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string', 'ready'],
    ['an array', [{ type: 'ready' }]],
    ['an unknown type', { type: 'navigate', url: 'https://example.com' }],
    ['a type that is not a string', { type: 1 }],
    ['ready with more', { type: 'ready', html: '<img>' }],
    ['a height as text', { type: 'rendered', height: '100' }],
    ['a negative height', { type: 'rendered', height: -1 }],
    ['an endless height', { type: 'rendered', height: Infinity }],
    ['a height past the bound', { type: 'resized', height: artifactLimits.height + 1 }],
    ['a NaN height', { type: 'rendered', height: NaN }],
    ['a fractional id', { type: 'rendered', height: 1, id: 1.5 }],
    ['a negative id', { type: 'rendered', height: 1, id: -1 }],
    ['an error without a message', { type: 'error', phase: 'runtime' }],
    ['an error message as an object', { type: 'error', message: { toString: 1 }, phase: 'runtime' }],
    ['an unknown phase', { type: 'error', message: 'm', phase: 'network' }],
    ['line zero', { type: 'error', message: 'm', phase: 'runtime', line: 0 }],
    ['a line as text', { type: 'error', message: 'm', phase: 'runtime', line: '3' }],
    ['a fractional column', { type: 'error', message: 'm', phase: 'runtime', column: 2.5 }],
    ['an error with more', { type: 'error', message: 'm', phase: 'runtime', html: '<b>' }],
  ])('ignores %s', (_, data) => {
    expect(parseFrameMessage(data)).toBeUndefined();
  });

  it('bounds the message length', () => {
    const at = 'x'.repeat(artifactLimits.message);
    expect(parseFrameMessage({ type: 'error', message: at, phase: 'runtime' })).toBeDefined();
    expect(parseFrameMessage({ type: 'error', message: `${at}x`, phase: 'runtime' })).toBeUndefined();
  });
});

describe('parseRenderRequest', () => {
  it('reads a render request, with or without an id', () => {
    const request = { type: 'render', code: 'export default () => null', language: 'tsx', theme: 'dark' };
    expect(parseRenderRequest(request)).toEqual(request);
    expect(parseRenderRequest({ ...request, id: 7 })).toEqual({ ...request, id: 7 });
  });

  it.each([
    ['another type', { type: 'html', code: '', language: 'tsx', theme: 'light' }],
    ['code that is not text', { type: 'render', code: 1, language: 'tsx', theme: 'light' }],
    ['another language', { type: 'render', code: '', language: 'vue', theme: 'light' }],
    ['another theme', { type: 'render', code: '', language: 'jsx', theme: 'blue' }],
    ['an extra field', { type: 'render', code: '', language: 'jsx', theme: 'light', eval: 'x' }],
    [
      'too much code',
      { type: 'render', code: 'x'.repeat(artifactLimits.code + 1), language: 'jsx', theme: 'light' },
    ],
  ])('ignores %s', (_, data) => {
    expect(parseRenderRequest(data)).toBeUndefined();
  });
});

/** A window the frame's messages arrive at, and an iframe with a window of its own. */
function setup(options: { readyAfterLoadMs?: number; renderTimeoutMs?: number } = {}) {
  let onMessage: ((event: MessageEvent) => void) | undefined;
  let onLoad: (() => void) | undefined;
  const sent: unknown[] = [];
  const frameWindow = { postMessage: (data: unknown) => sent.push(data) };
  const host = {
    addEventListener: (_type: string, listener: (event: MessageEvent) => void) => (onMessage = listener),
    removeEventListener: () => (onMessage = undefined),
  } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>;
  const iframe = {
    contentWindow: frameWindow,
    addEventListener: (_type: string, listener: () => void) => (onLoad = listener),
    removeEventListener: () => (onLoad = undefined),
  } as unknown as HTMLIFrameElement;
  const frame = new ReactFrame(iframe, { host, ...options });
  const events: ReactFrameEvent[] = [];
  frame.subscribe((event) => events.push(event));
  const deliver = (data: unknown, from: { source?: unknown; origin?: string } = {}) =>
    onMessage?.({ data, source: frameWindow, origin: 'null', ...from } as unknown as MessageEvent);
  return {
    frame,
    sent,
    events,
    deliver,
    iframe,
    load: () => onLoad?.(),
    listening: () => onMessage !== undefined,
  };
}

describe('ReactFrame', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('points at the frame document under the base', () => {
    expect(artifactFrameUrl).toBe('/artifact.html');
  });

  it('waits for ready, then sends the latest render only', () => {
    const { frame, sent, deliver, events } = setup();
    frame.render('first', 'tsx', 'light');
    frame.render('second', 'jsx', 'dark');
    expect(sent).toEqual([]);
    deliver({ type: 'ready' });
    expect(frame.ready).toBe(true);
    expect(sent).toEqual([{ type: 'render', code: 'second', language: 'jsx', theme: 'dark', id: 2 }]);
    expect(events).toEqual([{ type: 'ready' }]);
    frame.render('third', 'tsx', 'light');
    expect(sent).toHaveLength(2);
  });

  it('sends the render again when the frame reloads and says ready again', () => {
    const { frame, sent, deliver, load } = setup();
    deliver({ type: 'ready' });
    frame.render('code', 'tsx', 'light');
    load();
    expect(frame.ready).toBe(false);
    deliver({ type: 'ready' });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('passes on answers about the current render, without their id', () => {
    const { frame, deliver, events } = setup();
    deliver({ type: 'ready' });
    frame.render('code', 'tsx', 'light');
    deliver({ type: 'rendered', height: 300, id: 1 });
    deliver({ type: 'resized', height: 320, id: 1 });
    deliver({ type: 'error', message: 'TypeError: x', phase: 'runtime', line: 9, id: 1 });
    expect(events.slice(1)).toEqual([
      { type: 'rendered', height: 300 },
      { type: 'resized', height: 320 },
      { type: 'error', message: 'TypeError: x', phase: 'runtime', line: 9 },
    ]);
  });

  it('drops answers about an earlier render, or with no id', () => {
    const { frame, deliver, events } = setup();
    deliver({ type: 'ready' });
    frame.render('one', 'tsx', 'light');
    frame.render('two', 'tsx', 'light');
    deliver({ type: 'rendered', height: 300, id: 1 });
    deliver({ type: 'rendered', height: 300 });
    expect(events).toEqual([{ type: 'ready' }]);
  });

  it('ignores messages from another window, from a frame with an origin, or of another shape', () => {
    const { frame, deliver, events, sent } = setup();
    deliver({ type: 'ready' }, { source: {} });
    deliver({ type: 'ready' }, { source: null });
    deliver({ type: 'ready' }, { origin: 'http://127.0.0.1:4173' });
    deliver({ type: 'ready', extra: true });
    deliver({ ready: true });
    frame.render('code', 'tsx', 'light');
    expect(events).toEqual([]);
    expect(sent).toEqual([]);
    expect(frame.ready).toBe(false);
  });

  it('says unavailable when a loaded frame never gets ready', () => {
    const { events, load } = setup({ readyAfterLoadMs: 1_000 });
    load();
    vi.advanceTimersByTime(999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([{ type: 'unavailable' }]);
  });

  it('says timeout when a render gets no answer, and not once it has one', () => {
    const { frame, deliver, events } = setup({ renderTimeoutMs: 1_000 });
    deliver({ type: 'ready' });
    frame.render('while (true) {}', 'tsx', 'light');
    vi.advanceTimersByTime(1_000);
    expect(events.at(-1)).toEqual({ type: 'timeout' });
    frame.render('ok', 'tsx', 'light');
    deliver({ type: 'error', message: 'm', phase: 'transpile', line: 1, id: 2 });
    vi.advanceTimersByTime(5_000);
    expect(events.at(-1)).toEqual({ type: 'error', message: 'm', phase: 'transpile', line: 1 });
  });

  it('stops listening when disposed', () => {
    const { frame, listening, events, deliver } = setup();
    frame.dispose();
    expect(listening()).toBe(false);
    deliver({ type: 'ready' });
    expect(events).toEqual([]);
  });
});

describe('isFromFrame', () => {
  const contentWindow = {};
  const iframe = { contentWindow } as unknown as HTMLIFrameElement;
  it('accepts only the iframe’s own window with an opaque origin', () => {
    expect(isFromFrame({ source: contentWindow as Window, origin: 'null' }, iframe)).toBe(true);
    expect(isFromFrame({ source: {} as Window, origin: 'null' }, iframe)).toBe(false);
    expect(isFromFrame({ source: contentWindow as Window, origin: 'https://app.example' }, iframe)).toBe(
      false,
    );
    const detached = { contentWindow: null } as unknown as HTMLIFrameElement;
    expect(isFromFrame({ source: null, origin: 'null' }, detached)).toBe(false);
  });
});
