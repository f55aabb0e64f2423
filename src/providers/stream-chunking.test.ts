import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../domain/config.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch } from './__fixtures__/fake-fetch.ts';
import {
  anthropicErrorStream,
  anthropicServerToolStream,
  anthropicStream,
  azureStream,
  cutBefore,
  geminiCancelledStream,
  geminiStream,
  groqErrorStream,
  groqStream,
  openaiErrorStream,
  openaiStream,
} from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';

/**
 * A decoder's result must not depend on how the network split the bytes. Each fixture is read
 * once event by event (one read per event, the reference) and then at random splits, one byte at
 * a time, inside multi-byte characters, between CR and LF, with LF and with CRLF line ends: the
 * stream parts and the error must be the same every time.
 */

interface Fixture {
  name: string;
  provider: ProviderId;
  stream: string;
}

const fixtures: Fixture[] = [
  { name: 'OpenAI with usage', provider: 'openai', stream: openaiStream },
  { name: 'OpenAI error chunk after text', provider: 'openai', stream: openaiErrorStream },
  {
    name: 'OpenAI cut mid-reply',
    provider: 'openai',
    stream: cutBefore(
      openaiStream,
      'data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{},',
    ),
  },
  { name: 'Azure with prompt_filter_results first', provider: 'azure', stream: azureStream },
  {
    name: 'Azure cut mid-reply',
    provider: 'azure',
    stream: cutBefore(azureStream, 'data: {"choices":[{"content_filter_results":{},"delta":{},'),
  },
  { name: 'Groq with x_groq usage', provider: 'groq', stream: groqStream },
  { name: 'Groq event: error after text', provider: 'groq', stream: groqErrorStream },
  {
    name: 'Groq cut mid-reply',
    provider: 'groq',
    stream: cutBefore(groqStream, 'data: [DONE]').replace(
      /data: [^\n]*"finish_reason":"length"[^\n]*\n\n/,
      '',
    ),
  },
  { name: 'Claude with thinking and ping', provider: 'claude', stream: anthropicStream },
  { name: 'Claude event: error after text', provider: 'claude', stream: anthropicErrorStream },
  { name: 'Claude with server tools', provider: 'claude', stream: anthropicServerToolStream },
  {
    name: 'Claude cut mid-reply',
    provider: 'claude',
    stream: cutBefore(anthropicStream, 'event: message_delta'),
  },
  { name: 'Gemini with thoughts, CRLF', provider: 'gemini', stream: geminiStream },
  { name: 'Gemini bare CANCELLED error after text', provider: 'gemini', stream: geminiCancelledStream },
  {
    name: 'Gemini cut mid-reply',
    provider: 'gemini',
    stream: cutBefore(geminiStream, 'data: {"candidates":[{"content":{"parts":[{"text":" mondo'),
  },
];

const encoder = new TextEncoder();

function withLineEnds(stream: string, lineEnd: '\n' | '\r\n'): string {
  return stream.replace(/\r\n|\n/g, lineEnd);
}

/** The bytes split at the given offsets (sorted, each strictly inside the buffer). */
function splitAt(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const bounds = [0, ...[...new Set(offsets)].sort((a, b) => a - b), bytes.length];
  return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end));
}

/** Offsets at which an event ends: one read per event. */
function eventBounds(bytes: Uint8Array): number[] {
  const text = new TextDecoder().decode(bytes);
  const offsets: number[] = [];
  for (const match of text.matchAll(/(\r\n\r\n|\n\n)/g)) {
    offsets.push(encoder.encode(text.slice(0, match.index + match[0].length)).length);
  }
  return offsets.filter((offset) => offset < bytes.length);
}

/** Offsets that fall inside a multi-byte UTF-8 character, or between a CR and its LF. */
function awkwardOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let index = 1; index < bytes.length; index++) {
    const byte = bytes[index] ?? 0;
    const continuation = (byte & 0xc0) === 0x80;
    if (continuation || (bytes[index - 1] === 0x0d && byte === 0x0a)) offsets.push(index);
  }
  return offsets;
}

/** What a reader sees: the parts in order, then the error as data. */
async function readChunks(provider: ProviderId, chunks: Uint8Array[]) {
  const { fetch } = fakeFetch(() => {
    const queue = [...chunks];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = queue.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const { parts, error } = await drain(
    createChatProvider(testConfigs[provider], { fetch }).chat({ messages: conversation }),
  );
  const failure = isProviderError(error)
    ? { kind: error.kind, status: error.status, message: error.message, retryable: error.retryable }
    : error;
  return { parts, failure };
}

describe.each(fixtures)('$name', ({ provider, stream }) => {
  describe.each(['\n', '\r\n'] as const)('with line ends %j', (lineEnd) => {
    const bytes = encoder.encode(withLineEnds(stream, lineEnd));
    const reference = readChunks(provider, splitAt(bytes, eventBounds(bytes)));

    it('reads the same at random splits', async () => {
      const expected = await reference;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }),
          async (offsets) => {
            expect(await readChunks(provider, splitAt(bytes, offsets))).toEqual(expected);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('reads the same one byte at a time, whole, and split inside characters and CR LF', async () => {
      const expected = await reference;
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
      for (const offsets of [everyByte, [], awkwardOffsets(bytes)]) {
        expect(await readChunks(provider, splitAt(bytes, offsets))).toEqual(expected);
      }
    });
  });
});

describe('what the fixtures must read as', () => {
  async function read(provider: ProviderId, stream: string) {
    return readChunks(provider, [encoder.encode(stream)]);
  }
  const textOf = (parts: Awaited<ReturnType<typeof read>>['parts']) =>
    parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');

  it('keeps Gemini text that arrived in the same read as a bare error, and retries a CANCELLED', async () => {
    const { parts, failure } = await read('gemini', geminiCancelledStream);
    expect(textOf(parts)).toBe('Partial answer ✂');
    expect(failure).toEqual({
      kind: 'cancelled',
      status: 499,
      message: 'The provider cancelled the request; try again. (The operation was cancelled.)',
      retryable: true,
    });
  });

  it('takes the last cumulative Claude usage, cache reads counted as input', async () => {
    const { parts, failure } = await read('claude', anthropicServerToolStream);
    expect(failure).toBeUndefined();
    expect(textOf(parts)).toBe('Sunny, 21 °C.');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      rawReason: 'end_turn',
      usage: {
        inputTokens: 23421,
        cachedInputTokens: 1024,
        cacheWriteTokens: 0,
        outputTokens: 412,
        totalTokens: 23833,
      },
    });
  });

  it.each([
    ['openai', openaiErrorStream, 'Half', 'server'],
    ['groq', groqErrorStream, 'Quick —', 'server'],
    ['claude', anthropicErrorStream, 'Über', 'overloaded'],
  ] as const)('keeps the %s text before an in-stream error', async (provider, stream, text, kind) => {
    const { parts, failure } = await read(provider, stream);
    expect(textOf(parts)).toBe(text);
    expect(failure).toMatchObject({ kind, retryable: true });
  });

  it.each(fixtures.filter(({ name }) => name.endsWith('cut mid-reply')))(
    'fails $name as a lost connection, never a complete reply',
    async ({ provider, stream }) => {
      const { parts, failure } = await read(provider, stream);
      expect(parts.some((part) => part.type === 'finish')).toBe(false);
      expect(failure).toMatchObject({
        kind: 'network',
        message: expect.stringMatching(/was lost before the reply finished/),
      });
    },
  );
});
