import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import {
  anthropicCitation,
  anthropicContinuedStream,
  anthropicPausedStream,
  anthropicWebSearchStream,
  geminiAnswer,
  geminiGroundedReply,
  geminiGroundedStream,
  geminiGrounding,
  groqCompoundStream,
  openaiLink,
  openaiWebSearchReply,
  openaiWebSearchStream,
} from './__fixtures__/web-search-streams.ts';
import { webSearchOffMessage } from './anthropic.ts';
import { forgetUnverifiedKeys } from './openai-responses.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage, StreamPart } from './types.ts';
import { codePointsToUtf16, utf8BytesToUtf16, webSource } from './web-search-wire.ts';

/**
 * What each API's web search streams read as: searches, pages, citations at UTF-16 offsets in the
 * text the request streamed, suggestions, and the usage (docs/providers.md#web-search). Every
 * stream is also read split at every byte size (stream-chunking.test.ts reads them at random splits).
 */

beforeEach(() => {
  forgetRefusedFields();
  forgetUnverifiedKeys();
});

function configFor(provider: ProviderId, model?: string): Config {
  return { ...testConfigs[provider], ...(model && { model }) };
}

async function read(config: Config, respond: (index: number) => Response, messages = conversation) {
  const { fetch, requests } = fakeFetch((_, index) => respond(index));
  const result = await drain(createChatProvider(config, { fetch }).chat({ messages, webSearch: true }));
  return { ...result, requests };
}

/** The same parts whatever the byte size the body arrives in. */
async function readSplit(config: Config, streams: readonly string[], messages = conversation) {
  const results = [];
  for (const size of chunkSizes) {
    const { parts, error, requests } = await read(
      config,
      (index) => streamResponse(streams[Math.min(index, streams.length - 1)] ?? '', size),
      messages,
    );
    results.push({ parts, error, requests });
  }
  const [first] = results;
  for (const result of results) expect(result.parts).toEqual(first?.parts);
  return first ?? { parts: [], error: undefined, requests: [] };
}

const textOf = (parts: readonly StreamPart[]) =>
  parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
const webParts = (parts: readonly StreamPart[]) =>
  parts.filter((part) => ['web-search', 'web-source', 'citation', 'search-suggestions'].includes(part.type));
/** The text just before each citation's offset: what it cites ends there. */
const citedEnds = (parts: readonly StreamPart[], length = 12) => {
  const text = textOf(parts);
  return parts.flatMap((part) => (part.type === 'citation' ? [text.slice(part.at - length, part.at)] : []));
};

describe('offsets', () => {
  it('turn code points and UTF-8 bytes into UTF-16 offsets, a split character counted whole', () => {
    const text = 'Zü🌧x';
    expect([0, 1, 2, 3, 4, 9].map((count) => codePointsToUtf16(text, count))).toEqual([0, 1, 2, 4, 5, 5]);
    // Z 1 byte, ü 2, 🌧 4, x 1.
    expect([0, 1, 2, 3, 4, 5, 7, 8, 20].map((bytes) => utf8BytesToUtf16(text, bytes))).toEqual([
      0, 1, 2, 2, 4, 4, 4, 5, 5,
    ]);
  });

  it("drop OpenAI's utm_source=openai tag from an address, and only that", () => {
    expect(webSource('https://a.example/p?utm_source=openai', ' A ')).toEqual({
      url: 'https://a.example/p',
      title: 'A',
    });
    expect(webSource('https://a.example/p?x=1&utm_source=openai')).toEqual({
      url: 'https://a.example/p?x=1',
    });
    expect(webSource('https://a.example/p?utm_source=news')).toEqual({
      url: 'https://a.example/p?utm_source=news',
    });
    expect(webSource(undefined)).toBeUndefined();
  });
});

describe('OpenAI Responses', () => {
  const config = configFor('openai', 'gpt-5.4');

  it('reads searches, their pages, a failed search, an opened page and a citation at the end of its inline link', async () => {
    const { parts, error } = await readSplit(config, [openaiWebSearchStream]);
    expect(error).toBeUndefined();
    const text = textOf(parts);
    expect(text).toBe(`Let me check. Zürich 🌧 today: rain ${openaiLink}.`);
    const meteo = { url: 'https://meteo.ch/zurich' };
    expect(webParts(parts)).toEqual([
      { type: 'web-search', id: 'ws_1', status: 'searching' },
      { type: 'web-search', id: 'ws_1', status: 'done', query: 'Zürich weather' },
      { type: 'web-source', source: meteo },
      { type: 'web-source', source: { url: 'https://weather.example/zh' } },
      { type: 'web-search', id: 'ws_2', status: 'searching' },
      { type: 'web-search', id: 'ws_2', status: 'failed', query: 'Zürich radar' },
      { type: 'web-search', id: 'ws_3', status: 'searching' },
      { type: 'web-search', id: 'ws_3', status: 'done' },
      { type: 'web-source', source: { url: 'https://meteo.ch/radar' } },
      // Characters 21 to 76 of the second message: UTF-16 22 to 77 (🌧 is two units), after the first message's 14.
      { type: 'citation', source: { ...meteo, title: 'Zürich weather | MeteoSwiss' }, at: 14 + 77 },
    ]);
    expect(citedEnds(parts, openaiLink.length)).toEqual([openaiLink]);
    expect(text.length).toBe(14 + 77 + 1);
  });

  it('counts the searches that searched in the usage', async () => {
    const { parts } = await readSplit(config, [openaiWebSearchStream]);
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      rawReason: 'completed',
      usage: { inputTokens: 9012, outputTokens: 210, reasoningTokens: 64, totalTokens: 9222, webSearches: 1 },
    });
  });

  it('reads an unstreamed reply the same way', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(openaiWebSearchReply));
    const { parts } = await drain(
      createChatProvider(configFor('openai'), { fetch }).chat({
        messages: conversation,
        webSearch: true,
        stream: false,
      }),
    );
    expect(textOf(parts)).toBe(`Let me check. Zürich 🌧 today: rain ${openaiLink}.`);
    expect(webParts(parts)).toEqual([
      { type: 'web-search', id: 'ws_1', status: 'done', query: 'Zürich weather' },
      { type: 'web-source', source: { url: 'https://meteo.ch/zurich' } },
      {
        type: 'citation',
        source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather | MeteoSwiss' },
        at: 14 + 77,
      },
    ]);
    expect(parts.at(-1)).toMatchObject({ usage: { webSearches: 1 } });
  });
});

describe('Anthropic', () => {
  const config = configFor('claude');

  it('reads the search, its query when whole, its results, citations at the end of their block, and a failed search', async () => {
    const { parts, error } = await readSplit(config, [anthropicWebSearchStream]);
    expect(error).toBeUndefined();
    expect(textOf(parts)).toBe('Zürich 🌧: rain all day, 12 °C. No radar.');
    const cited = {
      type: 'citation',
      source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' },
      at: 'Zürich 🌧: rain all day, 12 °C.'.length,
      citedText: anthropicCitation.cited_text,
    };
    expect(webParts(parts)).toEqual([
      { type: 'web-search', id: 'srvtoolu_1', status: 'searching' },
      { type: 'web-search', id: 'srvtoolu_1', status: 'searching', query: 'Zürich weather' },
      { type: 'web-search', id: 'srvtoolu_1', status: 'done', query: 'Zürich weather' },
      { type: 'web-source', source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' } },
      { type: 'web-source', source: { url: 'https://weather.example/zh', title: 'Weather in Zurich' } },
      cited,
      { type: 'web-search', id: 'srvtoolu_2', status: 'searching' },
      { type: 'web-search', id: 'srvtoolu_2', status: 'searching', query: 'Zürich radar' },
      {
        type: 'web-search',
        id: 'srvtoolu_2',
        status: 'failed',
        error: 'max_uses_exceeded',
        query: 'Zürich radar',
      },
    ]);
    expect(citedEnds(parts)).toEqual([' day, 12 °C.']);
    // No tool-call parts: the server's tool is not the app's to run.
    expect(parts.some((part) => part.type.startsWith('tool-call'))).toBe(false);
  });

  it("reads the searches from the usage's server_tool_use", async () => {
    const { parts } = await readSplit(config, [anthropicWebSearchStream]);
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      rawReason: 'end_turn',
      usage: {
        inputTokens: 15665,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 795,
        totalTokens: 16460,
        webSearches: 2,
      },
    });
  });

  describe('a paused turn (stop_reason pause_turn)', () => {
    const thinking = configFor('claude', 'claude-sonnet-4-6');

    it('is continued with its content so far, unchanged, and streams on into the same reply', async () => {
      const { parts, error, requests } = await readSplit(thinking, [
        anthropicPausedStream,
        anthropicContinuedStream,
      ]);
      expect(error).toBeUndefined();
      expect(requests).toHaveLength(2);
      const [first, second] = requests.map((request) => request.body as Record<string, unknown>);
      const { messages: firstMessages, ...firstRest } = first ?? {};
      const { messages: secondMessages, ...secondRest } = second ?? {};
      expect(secondRest).toEqual(firstRest);
      expect(secondMessages).toEqual([
        ...(firstMessages as unknown[]),
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Search “Zürich”.', signature: 'EqQBsig' },
            { type: 'text', text: 'Looking… ' },
            { type: 'server_tool_use', id: 'srvtoolu_p1', name: 'web_search', input: { query: 'Zürich' } },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_p1',
              content: [
                {
                  type: 'web_search_result',
                  title: 'Zürich weather',
                  url: 'https://meteo.ch/zurich',
                  encrypted_content: 'Eo14enc',
                  page_age: null,
                },
              ],
            },
            // The final assistant text may not end with whitespace: only there is it trimmed.
            { type: 'text', text: 'Still looking.' },
          ],
        },
      ]);
      expect(textOf(parts)).toBe('Looking… Still looking. Rain, 12 °C.');
      // Offsets count the text of both requests.
      expect(parts.filter((part) => part.type === 'citation')).toEqual([
        {
          type: 'citation',
          source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' },
          at: 'Looking… Still looking. Rain, 12 °C.'.length,
          citedText: anthropicCitation.cited_text,
        },
      ]);
      // One finish: the last input, the output and searches of both requests.
      expect(parts.filter((part) => part.type === 'finish')).toEqual([
        {
          type: 'finish',
          reason: 'stop',
          rawReason: 'end_turn',
          usage: { inputTokens: 4600, outputTokens: 70, totalTokens: 4670, webSearches: 2 },
        },
      ]);
    });

    it('is continued at most 8 times, then ends as it is', async () => {
      const { parts, requests } = await read(thinking, () => streamResponse(anthropicPausedStream));
      expect(requests).toHaveLength(9);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', rawReason: 'pause_turn', reason: 'other' });
      // Each continuation carries everything the turn said so far: the last, the 5 blocks of each of 8 requests.
      const last = (requests.at(-1)?.body as { messages: { content: unknown[] }[] }).messages.at(-1);
      expect(last?.content).toHaveLength(8 * 5);
    });

    it('leaves nothing behind: the next request carries the reply as its text only', async () => {
      const { fetch, requests } = fakeFetch((_, index) =>
        streamResponse(index === 0 ? anthropicPausedStream : anthropicContinuedStream),
      );
      const client = createChatProvider(thinking, { fetch });
      const first = await drain(client.chat({ messages: conversation, webSearch: true }));
      const history: ChatMessage[] = [
        ...conversation,
        { role: 'assistant', content: first.text },
        { role: 'user', content: 'And tomorrow?' },
      ];
      await drain(client.chat({ messages: history, webSearch: true }));
      const body = requests.at(-1)?.body as { messages: unknown[] };
      expect(body.messages.slice(-2)).toEqual([
        { role: 'assistant', content: 'Looking… Still looking. Rain, 12 °C.' },
        { role: 'user', content: 'And tomorrow?' },
      ]);
    });
  });

  it('reads an unstreamed reply the same way', async () => {
    const reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'Zürich weather' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [{ type: 'web_search_result', url: 'https://meteo.ch/zurich', title: 'Zürich weather' }],
        },
        { type: 'text', text: 'Zürich 🌧: ' },
        { type: 'text', text: 'rain.', citations: [anthropicCitation] },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 100, output_tokens: 10, server_tool_use: { web_search_requests: 1 } },
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const { parts } = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, webSearch: true, stream: false }),
    );
    expect(webParts(parts)).toEqual([
      { type: 'web-search', id: 'srvtoolu_1', status: 'searching', query: 'Zürich weather' },
      { type: 'web-search', id: 'srvtoolu_1', status: 'done', query: 'Zürich weather' },
      { type: 'web-source', source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' } },
      {
        type: 'citation',
        source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' },
        at: 'Zürich 🌧: rain.'.length,
        citedText: anthropicCitation.cited_text,
      },
    ]);
    expect(parts.at(-1)).toMatchObject({ usage: { webSearches: 1 } });
  });

  it("names the Console setting when the organisation's web search is off", async () => {
    // [A] The wording is assumed; the docs say only that an admin must enable web search in the Console.
    const refusal = {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Web search is not enabled for this organization. Enable it in the Console.',
      },
    };
    const { error } = await read(config, () => jsonResponse(refusal, { status: 400 }));
    expect(
      isProviderError(error) && { kind: error.kind, status: error.status, message: error.message },
    ).toEqual({
      kind: 'invalid-request',
      status: 400,
      message: webSearchOffMessage,
    });
  });

  it("keeps other 400s as the provider's own words", async () => {
    const refusal = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: too large' },
    };
    const { error } = await read(config, () => jsonResponse(refusal, { status: 400 }));
    expect(isProviderError(error) && error.message).toBe('max_tokens: too large');
  });
});

describe('Gemini', () => {
  const config = configFor('gemini');
  const pages = geminiGrounding.groundingChunks.map(({ web }) => ({ url: web.uri, title: web.title }));
  const expected = [
    { type: 'web-search', id: 'google-search-1', status: 'done', query: 'Wetter Zürich heute' },
    { type: 'web-search', id: 'google-search-2', status: 'done', query: 'Wetter Zürich morgen' },
    { type: 'web-source', source: pages[0] },
    { type: 'web-source', source: pages[1] },
    // endIndex 45 bytes is 38 UTF-16 units (ß, ü, ☀️ and ° take more bytes than units).
    { type: 'citation', source: pages[0], at: 38, citedText: 'Straße in Zürich: sonnig ☀️ und 21 °C.' },
    { type: 'citation', source: pages[1], at: 38, citedText: 'Straße in Zürich: sonnig ☀️ und 21 °C.' },
    // 65 bytes: the whole answer, 56 units.
    { type: 'citation', source: pages[1], at: 56, citedText: 'Morgen: 🌧 Regen.' },
    { type: 'search-suggestions', html: geminiGrounding.searchEntryPoint.renderedContent },
  ];

  it('reads the grounding: queries as searches done, pages, a citation per chunk at the segment end in UTF-16, suggestions', async () => {
    const { parts, error } = await readSplit(config, [geminiGroundedStream]);
    expect(error).toBeUndefined();
    expect(textOf(parts)).toBe(geminiAnswer);
    expect(webParts(parts)).toEqual(expected);
    for (const part of parts)
      if (part.type === 'citation')
        expect(geminiAnswer.slice(0, part.at).endsWith(part.citedText ?? '')).toBe(true);
  });

  it('reads an unstreamed reply whose segments name the answer part after a thought (partIndex 1)', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(geminiGroundedReply));
    const { parts } = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, webSearch: true, stream: false }),
    );
    expect(textOf(parts)).toBe(geminiAnswer);
    expect(webParts(parts)).toEqual(expected);
  });

  it('places a segment by its text when its offsets do not fit the answer', async () => {
    const wrong = {
      ...geminiGroundedReply,
      candidates: geminiGroundedReply.candidates.map((candidate) => ({
        ...candidate,
        groundingMetadata: {
          ...candidate.groundingMetadata,
          groundingSupports: [
            { segment: { partIndex: 0, endIndex: 12, text: 'Morgen: 🌧 Regen.' }, groundingChunkIndices: [0] },
          ],
        },
      })),
    };
    const { fetch } = fakeFetch(() => jsonResponse(wrong));
    const { parts } = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, webSearch: true, stream: false }),
    );
    expect(parts.filter((part) => part.type === 'citation')).toEqual([
      { type: 'citation', source: pages[0], at: geminiAnswer.length, citedText: 'Morgen: 🌧 Regen.' },
    ]);
  });

  it('reports metadata that repeats in later chunks once', async () => {
    const again = {
      candidates: [
        { content: { parts: [{ text: '' }], role: 'model' }, index: 0, groundingMetadata: geminiGrounding },
      ],
    };
    const { parts } = await readSplit(config, [
      `${geminiGroundedStream}data: ${JSON.stringify(again)}\r\n\r\n`,
    ]);
    expect(webParts(parts)).toEqual(expected);
  });
});

describe('Groq compound', () => {
  it('reads executed searches, their query and results, once each however often the stream repeats them', async () => {
    const { parts, error } = await readSplit(configFor('groq', 'groq/compound'), [groqCompoundStream]);
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'I should search “Zürich”.' },
      { type: 'web-search', id: 'groq-search-0', status: 'searching', query: 'Zürich weather today' },
      { type: 'web-search', id: 'groq-search-0', status: 'done', query: 'Zürich weather today' },
      { type: 'web-source', source: { url: 'https://meteo.ch/zurich', title: 'Zürich weather' } },
      { type: 'web-source', source: { url: 'https://weather.example/zh', title: 'Weather in Zurich' } },
      { type: 'text-delta', text: 'Rain, 12 °C.' },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'stop',
        usage: { inputTokens: 900, outputTokens: 40, totalTokens: 940 },
      },
    ]);
  });
});
