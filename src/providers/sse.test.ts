import { describe, expect, it } from 'vitest';
import { hangingStream, streamResponse } from './__fixtures__/fake-fetch.ts';
import type { HttpRequest } from './http.ts';
import { isProviderError } from './provider-error.ts';
import { readServerSentEvents, type ServerSentEvent } from './sse.ts';

function requestFor(signal?: AbortSignal): HttpRequest {
  return {
    provider: 'gemini',
    fetch: globalThis.fetch,
    url: 'https://example.test/stream',
    headers: {},
    signal,
  };
}

async function collect(text: string, chunkSize = Infinity) {
  const events: ServerSentEvent[] = [];
  let error: unknown;
  try {
    const body = streamResponse(text, chunkSize).body;
    if (!body) throw new Error('no body');
    for await (const event of readServerSentEvents(body, requestFor())) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

describe('readServerSentEvents', () => {
  it('reads events with names, multi-line data, comments and mixed line endings', async () => {
    const text =
      ': keep-alive\n\nevent: greeting\ndata: one\ndata: two\r\n\r\nid: 7\rdata: three\r\rdata: four\n\n';
    for (const size of [1, 4, Infinity]) {
      expect((await collect(text, size)).events).toEqual([
        { event: 'greeting', data: 'one\ntwo' },
        { event: undefined, data: 'three' },
        { event: undefined, data: 'four' },
      ]);
    }
  });

  it('decodes a multi-byte character split across chunks', async () => {
    // With 1-byte chunks, every byte of 🌍 (4 bytes) and é (2 bytes) arrives alone.
    expect((await collect('data: é🌍\n\n', 1)).events).toEqual([{ event: undefined, data: 'é🌍' }]);
  });

  it('drops an event the body cut off before its blank line', async () => {
    expect((await collect('data: complete\n\ndata: cut')).events).toEqual([
      { event: undefined, data: 'complete' },
    ]);
  });

  it('throws a bare JSON error object, on one line or pretty-printed, even without a final line break', async () => {
    const single = '{"error":{"code":429,"message":"Quota","status":"RESOURCE_EXHAUSTED"}}';
    const pretty = JSON.stringify(
      [{ error: { code: 500, message: 'Internal', status: 'INTERNAL' } }],
      null,
      2,
    );
    for (const [text, kind] of [
      [single, 'rate-limited'],
      [`data: {"a":1}\n\n${pretty}\n`, 'server'],
    ] as const) {
      const { error } = await collect(text, 5);
      expect(isProviderError(error) && [error.provider, error.kind]).toEqual(['gemini', kind]);
    }
  });

  it('delivers the events before a bare JSON error that arrives in the same read, then throws', async () => {
    // Google's CANCELLED error after some text: one network read holds both.
    const error499 = JSON.stringify(
      { error: { code: 499, message: 'The operation was cancelled.', status: 'CANCELLED' } },
      null,
      2,
    );
    const text = `data: {"t":"Hel"}\r\n\r\ndata: {"t":"lo"}\r\n\r\n${error499}\ndata: after\n\n`;
    for (const size of [Infinity, 7, 1]) {
      const { events, error } = await collect(text, size);
      expect(events.map(({ data }) => data)).toEqual(['{"t":"Hel"}', '{"t":"lo"}']);
      expect(isProviderError(error) && [error.kind, error.status]).toEqual(['cancelled', 499]);
    }
  });

  it('finds an error after a stray JSON line that was not one', async () => {
    const { events, error } = await collect(
      '{"note": 1}\ndata: x\n\n{"error":{"code":500,"status":"INTERNAL"}}',
    );
    expect(events).toEqual([{ event: undefined, data: 'x' }]);
    expect(isProviderError(error) && error.kind).toBe('server');
  });

  it('still finds an error after more than 64 KB of stray text that was none', async () => {
    // An unclosed list of long lines: kept while it might still become an error object.
    const junk = `[\n${`"${'x'.repeat(1000)}",\n`.repeat(70)}`;
    const { error } = await collect(`${junk}data: x\n\n{"error":{"code":503,"status":"UNAVAILABLE"}}`);
    expect(isProviderError(error) && error.kind).toBe('overloaded');
  });

  it('ignores stray lines that are not an error', async () => {
    const { events, error } = await collect('{"hello": "world"}\ndata: x\n\n');
    expect([events, error]).toEqual([[{ event: undefined, data: 'x' }], undefined]);
  });

  it('stops a pending read at once when the signal aborts, cancelling the body', async () => {
    const { response, cancelled } = hangingStream('data: first\n\n');
    const controller = new AbortController();
    if (!response.body) throw new Error('no body');
    const events = readServerSentEvents(response.body, requestFor(controller.signal));
    expect((await events.next()).value).toEqual({ event: undefined, data: 'first' });
    const pending = events.next();
    controller.abort();
    await expect(pending).rejects.toSatisfy((error) => isProviderError(error) && error.kind === 'aborted');
    await expect(cancelled).resolves.toBeUndefined();
  });

  it('cancels the body when the consumer stops early', async () => {
    const { response, cancelled } = hangingStream('data: only\n\n');
    if (!response.body) throw new Error('no body');
    for await (const event of readServerSentEvents(response.body, requestFor())) {
      expect(event.data).toBe('only');
      break;
    }
    await expect(cancelled).resolves.toBeUndefined();
  });
});
