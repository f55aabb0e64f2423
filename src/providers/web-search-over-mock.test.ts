import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import {
  anthropicLead,
  answerSentences,
  answerText,
  failedSearchSentence,
  openaiAnswer,
  webSearches,
  webSources,
} from '../../tools/mock-providers/web-search.mjs';
import { mockConfigs } from './__fixtures__/configs.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { webSearchOffMessage } from './anthropic.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage, StreamPart } from './types.ts';

/**
 * The providers' own web search over real HTTP against the loopback mock (tools/mock-providers,
 * web-search.mjs): what each client sends, the mock accepts; what it answers, the client reads,
 * citations landing just after the spans they cite.
 */

const mock = mockProvidersForThisFile();
const configFor = mockConfigs(() => mock().url);

const question: ChatMessage[] = [{ role: 'user', content: 'Which is the tallest mountain?' }];

async function ask(config: Config, request: { stream?: boolean; messages?: ChatMessage[] } = {}) {
  const result = await drain(
    createChatProvider(config).chat({
      messages: request.messages ?? question,
      webSearch: true,
      stream: request.stream,
    }),
  );
  const requests = mock().requests.filter((sent) => sent.key === config.apiKey);
  return { ...result, requests };
}

const of = <T extends StreamPart['type']>(parts: readonly StreamPart[], type: T) =>
  parts.filter((part): part is Extract<StreamPart, { type: T }> => part.type === type);
const queries = (parts: readonly StreamPart[]) =>
  of(parts, 'web-search').flatMap((part) => (part.status === 'done' && part.query ? [part.query] : []));
const searchQueries = webSearches.map(({ query }) => query);
const sentences = answerSentences.map(({ text }) => text);

/** Each citation's offset falls right after one of the spans it may cite. */
function expectCitationsAfter(parts: readonly StreamPart[], text: string, spans: readonly string[]) {
  const citations = of(parts, 'citation');
  expect(citations.length).toBeGreaterThan(0);
  for (const { at } of citations)
    expect(spans.filter((span) => text.slice(0, at).endsWith(span))).not.toEqual([]);
}

describe.each([true, false])('streamed %s', (stream) => {
  it.each(['gpt-4o', 'gpt-5.4'])(
    'OpenAI %s: searches through the Responses API, citations after their inline links',
    async (model) => {
      const { error, text, parts, finish, requests } = await ask(configFor('openai', 'search', { model }), {
        stream,
      });
      expect(error).toBeUndefined();
      expect(requests.map((request) => request.path)).toEqual(['/v1/responses']);
      const answer = openaiAnswer();
      expect(text).toBe(answer.text);
      expect(queries(parts)).toEqual(searchQueries);
      const links = answer.citations.map(({ start, end }) => answer.text.slice(start, end));
      expectCitationsAfter(parts, text, links);
      expect(of(parts, 'citation').map(({ source }) => source.url)).toEqual(
        answer.citations.map(({ url }) => url.replace('?utm_source=openai', '')),
      );
      const found = new Set(of(parts, 'web-source').map(({ source }) => source.url));
      for (const { url } of webSources) expect(found).toContain(url);
      expect(finish).toMatchObject({ reason: 'stop', usage: { webSearches: webSearches.length } });
    },
  );

  it('Claude: searches, results and cited blocks, with the searches in the usage', async () => {
    const { error, text, parts, finish } = await ask(configFor('claude', 'search'), { stream });
    expect(error).toBeUndefined();
    expect(text).toBe(anthropicLead + sentences.join(' '));
    expect(queries(parts)).toEqual(searchQueries);
    expectCitationsAfter(parts, text, sentences);
    expect(of(parts, 'citation').every((citation) => citation.citedText)).toBe(true);
    expect(finish).toMatchObject({ reason: 'stop', usage: { webSearches: webSearches.length } });
  });

  it.each(['gemini-2.5-flash', 'gemini-3.5-flash'])(
    'Gemini %s: grounding read at UTF-16 offsets from its byte offsets',
    async (model) => {
      const { error, text, parts } = await ask(configFor('gemini', 'search', { model }), { stream });
      expect(error).toBeUndefined();
      expect(text).toBe(answerText);
      expect(queries(parts)).toEqual(searchQueries);
      expectCitationsAfter(parts, text, sentences);
      expect(of(parts, 'search-suggestions')).toHaveLength(1);
    },
  );

  it('Groq compound: searches on its own, each reported once with its pages', async () => {
    const { error, text, parts } = await ask(configFor('groq', 'search', { model: 'groq/compound' }), {
      stream,
    });
    expect(error).toBeUndefined();
    expect(text).toBe(answerText);
    expect(queries(parts)).toEqual(searchQueries);
    const pages = of(parts, 'web-source').map(({ source }) => source.url);
    expect(new Set(pages).size).toBe(pages.length);
    for (const { url } of webSources) expect(pages).toContain(url);
  });
});

describe('searching with other settings', () => {
  it('OpenAI gpt-5 at minimal effort is asked at low, which the mock (as the API) requires with web_search', async () => {
    const result = await drain(
      createChatProvider(configFor('openai', 'search', { model: 'gpt-5' })).chat({
        messages: question,
        webSearch: true,
        effort: 'minimal',
      }),
    );
    expect(result.error).toBeUndefined();
    expect(of(result.parts, 'notice')).toHaveLength(1);
    expect(queries(result.parts)).toEqual(searchQueries);
  });

  it.each([
    ['gemini', 'gemini-3.5-flash'],
    ['openai', 'gpt-4o'],
    ['claude', 'claude-sonnet-4-5'],
  ] as const)('%s %s: searches with function tools offered too', async (id, model) => {
    const weather = {
      name: 'weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    };
    const result = await drain(
      createChatProvider(configFor(id, 'search', { model })).chat({
        messages: question,
        webSearch: true,
        tools: [weather],
      }),
    );
    expect(result.error).toBeUndefined();
    expect(queries(result.parts)).toEqual(searchQueries);
  });
});

describe('Claude: what the search scenarios change', () => {
  it('a paused turn is continued with its blocks unchanged, which the mock checks, into one reply', async () => {
    const { error, text, parts, requests } = await ask(configFor('claude', 'search-pause'));
    expect(error).toBeUndefined();
    expect(requests).toHaveLength(2);
    expect(text).toBe(anthropicLead + sentences.join(' '));
    expect(queries(parts)).toEqual(searchQueries);
    expectCitationsAfter(parts, text, sentences);
    expect(of(parts, 'finish')).toHaveLength(1);
  });

  it('a search refused for its limit is a failed search, the rest of the answer uncited', async () => {
    const { error, text, parts } = await ask(configFor('claude', 'search-failed'));
    expect(error).toBeUndefined();
    expect(text.endsWith(failedSearchSentence)).toBe(true);
    expect(of(parts, 'web-search').filter((part) => part.status === 'failed')).toEqual([
      expect.objectContaining({ error: 'max_uses_exceeded' }),
    ]);
  });

  it('an organisation without web search gets the Console setting named', async () => {
    const { error } = await ask(configFor('claude', 'search-disabled'));
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400, message: webSearchOffMessage });
  });
});

describe('without a search path, or switched off', () => {
  it('Azure answers as ever (Chat Completions, no search)', async () => {
    const config = configFor('azure', 'search', { endpoint: mock().url, deploymentName: 'gpt-4o' });
    const { error, parts } = await ask(config);
    expect(error).toBeUndefined();
    expect(of(parts, 'web-search')).toEqual([]);
  });

  it.each(['openai', 'claude', 'gemini'] as const)(
    '%s: off, the mock sees no search and echoes',
    async (id) => {
      const config = configFor(id, 'search');
      const { parts, error } = await drain(createChatProvider(config).chat({ messages: question }));
      expect(error).toBeUndefined();
      expect(parts.filter((part) => part.type.startsWith('web') || part.type === 'citation')).toEqual([]);
    },
  );
});

describe('a later turn carries the searched reply as its text only, and the API takes it', () => {
  it.each([
    ['openai', 'gpt-5.4'],
    ['claude', 'claude-sonnet-4-5'],
    ['gemini', 'gemini-2.5-flash'],
    ['groq', 'groq/compound'],
  ] as const)('%s %s', async (id, model) => {
    const config = configFor(id, 'search', { model });
    const first = await ask(config);
    expect(first.error).toBeUndefined();
    const history: ChatMessage[] = [
      ...question,
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'And the second tallest?' },
    ];
    const second = await ask(config, { messages: history });
    expect(second.error).toBeUndefined();
    const body = second.requests.at(-1)?.body as Record<string, unknown>;
    const sent = JSON.stringify(body.input ?? body.messages ?? body.contents);
    expect(sent).toContain('And the second tallest?');
    for (const marker of [
      'server_tool_use',
      'web_search_tool_result',
      'web_search_call',
      'groundingMetadata',
    ])
      expect(sent).not.toContain(marker);
  });
});
