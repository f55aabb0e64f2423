import type { Root } from 'hast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markdownBudget } from './markdown-budget.ts';
import type * as MarkdownWorker from './markdown-worker.ts';
import type { ParseRequest, ParseResponse } from './markdown.worker.ts';

/** A stand-in for the parser's worker: the test decides when (and whether) it answers. */
class FakeWorker extends EventTarget {
  static started: FakeWorker[] = [];
  received: string[] = [];
  terminated = false;
  constructor() {
    super();
    FakeWorker.started.push(this);
  }
  postMessage(request: ParseRequest) {
    this.received.push(request.text);
  }
  terminate() {
    this.terminated = true;
  }
  ready() {
    this.dispatchEvent(new MessageEvent('message', { data: { ready: true } satisfies ParseResponse }));
  }
  answer(text: string) {
    const tree: Root = { type: 'root', children: [{ type: 'text', value: text }] };
    this.dispatchEvent(new MessageEvent('message', { data: { text, tree } satisfies ParseResponse }));
  }
}

type Client = typeof MarkdownWorker;

describe('the markdown worker client', () => {
  let client: Client;
  beforeEach(async () => {
    vi.useFakeTimers();
    vi.stubGlobal('Worker', FakeWorker);
    FakeWorker.started = [];
    vi.resetModules();
    client = await import('./markdown-worker.ts');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const watch = (text: string) => {
    const heard = vi.fn();
    client.subscribeParsed(text, heard);
    return heard;
  };

  it('parses one block at a time and keeps each result', () => {
    const heardA = watch('a');
    client.requestParse('a');
    client.requestParse('b');
    client.requestParse('a');
    const [worker] = FakeWorker.started;
    expect(worker?.received).toEqual(['a']);
    worker?.answer('a');
    expect(heardA).toHaveBeenCalledOnce();
    expect(client.parsedTree('a')).toMatchObject({ type: 'root' });
    expect(worker?.received).toEqual(['a', 'b']);
    client.requestParse('a');
    expect(worker?.received).toEqual(['a', 'b']);
  });

  it('abandons a parse past the deadline: its block stays plain, a fresh worker takes the next', () => {
    client.requestParse('slow');
    client.requestParse('next');
    const [first] = FakeWorker.started;
    // Loading the parser does not count against the deadline.
    vi.advanceTimersByTime(markdownBudget.workerDeadlineMs * 3);
    expect(client.parsedTree('slow')).toBeUndefined();
    first?.ready();
    vi.advanceTimersByTime(markdownBudget.workerDeadlineMs - 1);
    expect(client.parsedTree('slow')).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(client.parsedTree('slow')).toBe('plain');
    expect(first?.terminated).toBe(true);
    const second = FakeWorker.started[1];
    expect(second?.received).toEqual(['next']);
    // A late answer of the ended worker changes nothing.
    first?.answer('slow');
    expect(client.parsedTree('slow')).toBe('plain');
  });

  it('does not try again a growing block whose earlier text ran over the deadline', () => {
    client.requestParse('*a*a');
    FakeWorker.started[0]?.ready();
    vi.advanceTimersByTime(markdownBudget.workerDeadlineMs);
    const heard = watch('*a*a*a');
    client.requestParse('*a*a*a');
    expect(client.parsedTree('*a*a*a')).toBe('plain');
    expect(heard).toHaveBeenCalledOnce();
    expect(FakeWorker.started).toHaveLength(1);
  });

  it('drops a queued block that is no longer shown', () => {
    client.requestParse('first');
    client.requestParse('gone');
    client.requestParse('kept');
    client.forgetBlock('gone');
    const [worker] = FakeWorker.started;
    worker?.answer('first');
    worker?.answer('kept');
    expect(worker?.received).toEqual(['first', 'kept']);
  });

  it('gives no verdict on the block in hand when the worker cannot load; the next block tries a fresh one', () => {
    client.requestParse('a');
    client.requestParse('b');
    const [worker] = FakeWorker.started;
    worker?.dispatchEvent(new Event('error'));
    expect(client.parsedTree('a')).toBeUndefined();
    vi.advanceTimersByTime(markdownBudget.workerDeadlineMs * 2);
    expect(client.parsedTree('a')).toBeUndefined();
    client.requestParse('c');
    expect(FakeWorker.started[1]?.received).toEqual(['b']);
  });
});
