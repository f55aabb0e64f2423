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
import {
  anthropicRedactedStream,
  deepseekReasoningStream,
  geminiThoughtStream,
  groqReasoningStream,
  openaiResponsesErrorStream,
  openaiResponsesIncompleteStream,
  openaiResponsesStream,
  thinkTagStream,
} from './__fixtures__/reasoning-streams.ts';
import {
  anthropicToolStream,
  compatibleNoArgumentsStream,
  geminiToolStream,
  groqToolStream,
  groqToolUseFailedStream,
  openaiResponsesParallelWrapperStream,
  openaiResponsesToolStream,
  openaiToolStream,
} from './__fixtures__/tool-streams.ts';
import {
  anthropicWebSearchStream,
  geminiGroundedStream,
  groqCompoundStream,
  openaiWebSearchStream,
} from './__fixtures__/web-search-streams.ts';
import {
  anthropicFailedRunStream,
  geminiCodeStream,
  geminiImageStream,
  groqCodeStream,
  openaiFailedRunStream,
  openaiImageStream,
} from './__fixtures__/code-image-streams.ts';
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
  /** When the provider's test configuration's model would not read this stream (a reasoning model). */
  model?: string;
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
  {
    name: 'OpenAI Responses with a reasoning summary',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiResponsesStream,
  },
  {
    name: 'OpenAI Responses error event after text',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiResponsesErrorStream,
  },
  {
    name: 'OpenAI Responses incomplete at the token limit',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiResponsesIncompleteStream,
  },
  {
    name: 'OpenAI Responses cut mid-reply',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: cutBefore(openaiResponsesStream, 'event: response.completed'),
  },
  { name: 'Groq parsed reasoning', provider: 'groq', stream: groqReasoningStream },
  { name: 'Groq raw reasoning in think tags', provider: 'groq', stream: thinkTagStream },
  { name: 'DeepSeek reasoning_content on Azure', provider: 'azure', stream: deepseekReasoningStream },
  { name: 'Claude signed and redacted thinking', provider: 'claude', stream: anthropicRedactedStream },
  { name: 'Gemini 3 thought and signature, CRLF', provider: 'gemini', stream: geminiThoughtStream },
  { name: 'OpenAI parallel tool calls by index', provider: 'openai', stream: openaiToolStream },
  {
    name: 'compatible call with empty arguments at the finish',
    provider: 'custom',
    stream: compatibleNoArgumentsStream,
  },
  { name: 'Groq whole tool arguments', provider: 'groq', stream: groqToolStream },
  { name: 'Groq tool_use_failed event', provider: 'groq', stream: groqToolUseFailedStream },
  {
    name: 'OpenAI Responses function calls after reasoning',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiResponsesToolStream,
  },
  {
    name: 'OpenAI Responses parallel wrapper',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiResponsesParallelWrapperStream,
  },
  { name: 'Claude thinking, text and tool_use with ping', provider: 'claude', stream: anthropicToolStream },
  {
    name: 'Gemini 3 parallel calls with a signature, CRLF',
    provider: 'gemini',
    model: 'gemini-3.5-flash',
    // Ids on both: a made-up id would differ between reads.
    stream: geminiToolStream.replace('{"name":"time_now"', '{"id":"fc-gem-2","name":"time_now"'),
  },
  {
    name: 'OpenAI Responses web searches and a citation',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiWebSearchStream,
  },
  {
    name: 'Claude web searches, citations and a failed search',
    provider: 'claude',
    stream: anthropicWebSearchStream,
  },
  { name: 'Gemini grounding after non-ASCII text, CRLF', provider: 'gemini', stream: geminiGroundedStream },
  {
    name: 'Groq compound executed searches',
    provider: 'groq',
    model: 'groq/compound',
    stream: groqCompoundStream,
  },
  // Code runs and pictures (code-image-streams.test.ts reads them with their downloads).
  {
    name: 'OpenAI Responses failed code run',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiFailedRunStream,
  },
  {
    name: 'OpenAI Responses picture with previews',
    provider: 'openai',
    model: 'gpt-5.4',
    stream: openaiImageStream,
  },
  { name: 'Claude failed and refused code runs', provider: 'claude', stream: anthropicFailedRunStream },
  { name: 'Gemini code runs and a plot, CRLF', provider: 'gemini', stream: geminiCodeStream },
  {
    name: 'Gemini image model with signatures, CRLF',
    provider: 'gemini',
    model: 'gemini-3-pro-image',
    stream: geminiImageStream,
  },
  { name: 'Groq compound code run', provider: 'groq', model: 'groq/compound', stream: groqCodeStream },
  {
    name: 'Claude web search cut mid-reply',
    provider: 'claude',
    stream: cutBefore(anthropicWebSearchStream, 'event: message_delta'),
  },
  {
    name: 'Claude tool_use arguments cut mid-reply',
    provider: 'claude',
    stream: cutBefore(anthropicToolStream, 'event: ping'),
  },
  {
    name: 'OpenAI tool call cut mid-reply',
    provider: 'openai',
    stream: cutBefore(
      openaiToolStream,
      'data: {"id":"chatcmpl-T1","object":"chat.completion.chunk","created":1764000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_t1","choices":[{"index":0,"delta":{},',
    ),
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
async function readChunks(provider: ProviderId, chunks: Uint8Array[], model?: string) {
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
    createChatProvider({ ...testConfigs[provider], ...(model && { model }) }, { fetch }).chat({
      messages: conversation,
    }),
  );
  const failure = isProviderError(error)
    ? { kind: error.kind, status: error.status, message: error.message, retryable: error.retryable }
    : error;
  return { parts, failure };
}

describe.each(fixtures)('$name', ({ provider, stream, model }) => {
  describe.each(['\n', '\r\n'] as const)('with line ends %j', (lineEnd) => {
    const bytes = encoder.encode(withLineEnds(stream, lineEnd));
    const read = (chunks: Uint8Array[]) => readChunks(provider, chunks, model);
    const reference = read(splitAt(bytes, eventBounds(bytes)));

    it('reads the same at random splits', async () => {
      const expected = await reference;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }),
          async (offsets) => {
            expect(await read(splitAt(bytes, offsets))).toEqual(expected);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('reads the same one byte at a time, whole, and split inside characters and CR LF', async () => {
      const expected = await reference;
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
      for (const offsets of [everyByte, [], awkwardOffsets(bytes)]) {
        expect(await read(splitAt(bytes, offsets))).toEqual(expected);
      }
    });
  });
});

describe('what the fixtures must read as', () => {
  async function read(provider: ProviderId, stream: string, model?: string) {
    return readChunks(provider, [encoder.encode(stream)], model);
  }
  type Parts = Awaited<ReturnType<typeof read>>['parts'];
  const textOf = (parts: Parts) =>
    parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
  /** The reasoning parts only, each delta's text joined into the block it belongs to. */
  const reasoningOf = (parts: Parts) =>
    parts.reduce<(string | { end: string | undefined } | { redacted: string })[]>((blocks, part) => {
      const last = blocks.at(-1);
      if (part.type === 'reasoning-delta') {
        if (typeof last === 'string') blocks[blocks.length - 1] = last + part.text;
        else blocks.push(part.text);
      }
      if (part.type === 'reasoning-end') blocks.push({ end: part.signature });
      if (part.type === 'reasoning-redacted') blocks.push({ redacted: part.data });
      return blocks;
    }, []);

  it('reads an OpenAI reasoning summary as one block of paragraphs, its encrypted item, and the usage', async () => {
    const { parts, failure } = await read('openai', openaiResponsesStream, 'gpt-5.4');
    expect(failure).toBeUndefined();
    expect(reasoningOf(parts)).toEqual([
      '**Checking** the sky — it is “blue” 🌤\n\n**Answering** briefly',
      { end: 'gAAA-final' },
    ]);
    expect(textOf(parts)).toBe('Blue, mostly.');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      rawReason: 'completed',
      usage: {
        inputTokens: 1501,
        cachedInputTokens: 1024,
        outputTokens: 314,
        reasoningTokens: 100,
        totalTokens: 1815,
      },
    });
  });

  it('fails an OpenAI Responses stream at its error event, after the text before it', async () => {
    const { parts, failure } = await read('openai', openaiResponsesErrorStream, 'gpt-5.4');
    expect(textOf(parts)).toBe('Half');
    expect(failure).toMatchObject({ kind: 'server', message: 'The server had an error.', retryable: true });
  });

  it('reads response.incomplete at the token limit as cut off', async () => {
    const { parts } = await read('openai', openaiResponsesIncompleteStream, 'gpt-5.4');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' });
  });

  it.each([
    ['groq', groqReasoningStream, ['Okay, the user says “hi” 👋.'], 'Hi there.'],
    [
      'groq',
      thinkTagStream,
      ['Weigh “hi” 👋 carefully.', { end: undefined }],
      'Hi <think> is just text here.',
    ],
    ['azure', deepseekReasoningStream, ['Two plus two is four.'], '4'],
  ] as const)('reads %s reasoning apart from the answer', async (provider, stream, reasoning, text) => {
    const { parts, failure } = await read(provider, stream);
    expect(failure).toBeUndefined();
    expect(reasoningOf(parts)).toEqual(reasoning);
    expect(textOf(parts)).toBe(text);
  });

  it('counts reasoning tokens from Groq usage and from the top-level DeepSeek field', async () => {
    const groq = await read('groq', groqReasoningStream);
    expect(groq.parts.at(-1)).toMatchObject({
      usage: { inputTokens: 18, outputTokens: 9, reasoningTokens: 6, totalTokens: 27 },
    });
    const deepseek = await read('azure', deepseekReasoningStream);
    expect(deepseek.parts.at(-1)).toMatchObject({
      usage: { inputTokens: 10, outputTokens: 12, reasoningTokens: 8, totalTokens: 22 },
    });
  });

  it('reads Claude thinking with its signature and redacted thinking whole, and the thinking tokens', async () => {
    const { parts } = await read('claude', anthropicRedactedStream);
    expect(reasoningOf(parts)).toEqual([
      'The user wants a “short” answer ✓',
      { end: 'EvQBCkYI' },
      { redacted: 'EmwKAhgB' },
    ]);
    expect(textOf(parts)).toBe('Short.');
    expect(parts.at(-1)).toMatchObject({ usage: { outputTokens: 53, reasoningTokens: 41 } });
  });

  it('reads a Gemini 3 thought as reasoning; output counts the thoughts', async () => {
    const { parts } = await read('gemini', geminiThoughtStream);
    expect(reasoningOf(parts)).toEqual(['**Processing** the “request” ✓']);
    expect(textOf(parts)).toBe('Done.');
    expect(parts.at(-1)).toMatchObject({
      usage: {
        inputTokens: 9,
        cachedInputTokens: 4,
        outputTokens: 325,
        reasoningTokens: 302,
        totalTokens: 334,
      },
    });
  });

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

  it('takes the last cumulative Claude usage, cache reads counted as input, and its web searches', async () => {
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
        webSearches: 1,
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
    async ({ provider, stream, model }) => {
      const { parts, failure } = await read(provider, stream, model);
      expect(parts.some((part) => part.type === 'finish')).toBe(false);
      expect(failure).toMatchObject({
        kind: 'network',
        message: expect.stringMatching(/was lost before the reply finished/),
      });
    },
  );
});
