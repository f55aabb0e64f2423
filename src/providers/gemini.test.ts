import { describe, expect, it } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { geminiStream } from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';

const config = testConfigs.gemini;
const crlf = (...events: string[]) => events.map((event) => `data: ${event}\r\n\r\n`).join('');

describe('gemini requests', () => {
  it('streams from :streamGenerateContent?alt=sse with only the key and content-type headers', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(geminiStream));
    await drain(createChatProvider({ ...config, stop: ['END'] }, { fetch }).chat({ messages: conversation }));
    expect(requests).toEqual([
      {
        url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
        method: 'POST',
        headers: { 'x-goog-api-key': 'AIza-test', 'content-type': 'application/json' },
        body: {
          contents: [
            { role: 'user', parts: [{ text: 'Hi' }] },
            { role: 'model', parts: [{ text: 'Hello! How can I help?' }] },
            { role: 'user', parts: [{ text: 'Tell me a joke' }] },
          ],
          systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
          generationConfig: {
            temperature: 0.7,
            topK: 40,
            topP: 0.95,
            maxOutputTokens: 800,
            stopSequences: ['END'],
            // A thinking model (gemini-2.5-flash): its thoughts are asked for, the budget left to it.
            thinkingConfig: { includeThoughts: true },
          },
        },
      },
    ]);
  });

  it('calls :generateContent when not streaming; drops empty entries and leading model turns; no empty stop', async () => {
    const reply = {
      candidates: [
        { content: { parts: [{ text: 'Sure.' }], role: 'model' }, finishReason: 'STOP', index: 0 },
      ],
    };
    const { fetch, requests } = fakeFetch(() => jsonResponse(reply));
    const messages = [
      { role: 'assistant', content: 'Welcome!' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: ' ' },
      { role: 'user', content: 'Again' },
    ] as const;
    const provider = createChatProvider({ ...config, model: 'models/gemini-2.5-pro', stop: [] }, { fetch });
    const result = await drain(provider.chat({ messages: [...messages], stream: false }));
    expect(requests[0]?.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
    );
    expect(requests[0]?.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
      generationConfig: {
        temperature: 0.7,
        topK: 40,
        topP: 0.95,
        maxOutputTokens: 800,
        thinkingConfig: { includeThoughts: true },
      },
    });
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Sure.' },
      { type: 'finish', reason: 'stop', rawReason: 'STOP', usage: undefined },
    ]);
  });

  it('sends Gemini 3.6 and later no sampling settings and no final model turn', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(geminiStream));
    const messages = [...conversation, { role: 'assistant', content: 'Why did' } as const];
    await drain(createChatProvider({ ...config, model: 'gemini-3.8-flash' }, { fetch }).chat({ messages }));
    const body = requests[0]?.body as { contents: { role: string }[]; generationConfig: object };
    expect(body.contents.map(({ role }) => role)).toEqual(['user', 'model', 'user']);
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 800,
      thinkingConfig: { includeThoughts: true },
    });
  });

  it('lists models that support generateContent, without the models/ prefix', async () => {
    const { fetch, requests } = fakeFetch(() =>
      jsonResponse({
        models: [
          { name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
          { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
        ],
      }),
    );
    expect((await createChatProvider(config, { fetch }).listModels()).map(({ id }) => id)).toEqual([
      'gemini-2.5-flash',
    ]);
    expect(requests[0]).toMatchObject({
      url: 'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000',
      method: 'GET',
      headers: { 'x-goog-api-key': 'AIza-test' },
    });
  });
});

describe('gemini streams', () => {
  it.each(chunkSizes)('reads CRLF events, thought parts as reasoning, at %s-byte chunks', async (size) => {
    const { fetch } = fakeFetch(() => streamResponse(geminiStream, size));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.parts).toEqual([
      { type: 'reasoning-delta', text: 'Weighing the question.' },
      { type: 'text-delta', text: 'Ciao' },
      { type: 'text-delta', text: ' mondo, 你好' },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'STOP',
        // The output counts the answer and the thoughts.
        usage: { inputTokens: 9, outputTokens: 11, reasoningTokens: 7, totalTokens: 20 },
      },
    ]);
  });

  it('maps MAX_TOKENS to length', async () => {
    const stream = crlf(
      '{"candidates":[{"content":{"parts":[{"text":"Cut"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}]}',
    );
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const { finish } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(finish).toMatchObject({ reason: 'length', rawReason: 'MAX_TOKENS' });
  });

  it('throws a blocked error when the prompt is blocked', async () => {
    const stream = crlf(
      '{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]},"usageMetadata":{"promptTokenCount":5,"totalTokenCount":5}}',
    );
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(isProviderError(result.error) && [result.error.kind, result.error.message]).toEqual([
      'blocked',
      'Gemini blocked the prompt (SAFETY).',
    ]);
  });

  it.each(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST'])(
    'yields the text that arrived, then throws blocked for finishReason %s',
    async (reason) => {
      const stream = crlf(
        '{"candidates":[{"content":{"parts":[{"text":"Here is"}],"role":"model"},"index":0}]}',
        `{"candidates":[{"content":{"parts":[{"text":" some"}],"role":"model"},"finishReason":"${reason}","index":0}]}`,
      );
      const { fetch } = fakeFetch(() => streamResponse(stream));
      const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
      expect(result.text).toBe('Here is some');
      expect(isProviderError(result.error) && [result.error.kind, result.error.message]).toEqual([
        'blocked',
        `Gemini stopped the reply (${reason}).`,
      ]);
    },
  );

  it.each(chunkSizes)(
    'throws the bare JSON error object Google writes into a 200 stream (%s-byte chunks)',
    async (size) => {
      const bare = JSON.stringify(
        {
          error: {
            code: 503,
            message: 'The model is overloaded. Please try again later.',
            status: 'UNAVAILABLE',
          },
        },
        null,
        2,
      );
      const stream =
        crlf('{"candidates":[{"content":{"parts":[{"text":"Start"}],"role":"model"},"index":0}]}') + bare;
      const { fetch } = fakeFetch(() => streamResponse(stream, size));
      const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
      expect(result.text).toBe('Start');
      expect(
        isProviderError(result.error) && [result.error.kind, result.error.status, result.error.message],
      ).toEqual(['overloaded', 503, 'The model is overloaded. Please try again later.']);
    },
  );

  it('throws a data: {"error"} event', async () => {
    const stream = crlf(
      '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}',
    );
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const { error } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(isProviderError(error) && [error.kind, error.status]).toEqual(['server', 500]);
  });

  it('treats a non-streamed blocked reply as a blocked error', async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } }),
    );
    const { error } = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, stream: false }),
    );
    expect(isProviderError(error) && error.message).toBe('Gemini blocked the prompt (PROHIBITED_CONTENT).');
  });
});
