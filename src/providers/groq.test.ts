import { describe, expect, it } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { groqStream } from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';

const config = testConfigs.groq;

describe('groq requests', () => {
  it('posts to /openai/v1/chat/completions without penalties, name or an empty stop', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(groqStream));
    const provider = createChatProvider(
      { ...config, frequencyPenalty: 1, presencePenalty: 1, stop: [] },
      { fetch },
    );
    await drain(provider.chat({ messages: conversation.slice(1, 2) }));
    expect(requests).toEqual([
      {
        url: 'https://api.groq.com/openai/v1/chat/completions',
        method: 'POST',
        headers: { authorization: 'Bearer gsk_test', 'content-type': 'application/json' },
        body: {
          model: 'llama-3.3-70b-versatile',
          messages: [{ role: 'user', content: 'Hi' }],
          temperature: 0.7,
          max_tokens: 800,
          top_p: 0.95,
          stream: true,
        },
      },
    ]);
  });

  it('sends stop when it has sequences', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(groqStream));
    await drain(
      createChatProvider({ ...config, stop: ['END', ''] }, { fetch }).chat({
        messages: conversation,
        stream: false,
      }),
    );
    expect(requests[0]?.body).toMatchObject({ stop: ['END'], stream: false });
  });

  it('lists models from GET /openai/v1/models, honouring the base URL', async () => {
    const { fetch, requests } = fakeFetch(() =>
      jsonResponse({ object: 'list', data: [{ id: 'llama-3.1-8b-instant' }] }),
    );
    const models = await createChatProvider(
      { ...config, baseUrl: 'http://localhost:9000//' },
      { fetch },
    ).listModels();
    expect(models.map(({ id }) => id)).toEqual(['llama-3.1-8b-instant']);
    expect(requests[0]?.url).toBe('http://localhost:9000/openai/v1/models');
  });
});

describe('groq streams', () => {
  it.each(chunkSizes)('reads usage from x_groq.usage at %s-byte chunks', async (size) => {
    const { fetch } = fakeFetch(() => streamResponse(groqStream, size));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Fast' },
      { type: 'text-delta', text: ' ✓' },
      {
        type: 'finish',
        reason: 'length',
        rawReason: 'length',
        usage: { inputTokens: 40, outputTokens: 2, totalTokens: 42 },
      },
    ]);
  });

  it('throws when x_groq reports why the stream stopped early', async () => {
    const stream =
      'data: {"choices":[{"index":0,"delta":{"content":"So"},"finish_reason":null}]}\n\n' +
      'data: {"choices":[],"x_groq":{"id":"req_1","error":"model crashed while generating"}}\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('So');
    expect(isProviderError(result.error) && [result.error.kind, result.error.message]).toEqual([
      'server',
      'model crashed while generating',
    ]);
  });
});
