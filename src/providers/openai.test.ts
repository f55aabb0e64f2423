import { describe, expect, it } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { openaiStream } from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage } from './types.ts';

const config = testConfigs.openai;
const expectedBody = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello! How can I help?' },
    { role: 'user', content: 'Tell me a joke' },
  ],
  temperature: 0.7,
  max_tokens: 800,
  top_p: 0.95,
  frequency_penalty: 0.1,
  presence_penalty: -0.2,
};

describe('openai requests', () => {
  it('streams from POST https://api.openai.com/v1/chat/completions with bearer auth and the exact body', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(openaiStream));
    await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(requests).toEqual([
      {
        url: 'https://api.openai.com/v1/chat/completions',
        method: 'POST',
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
        body: { ...expectedBody, stream: true, stream_options: { include_usage: true } },
      },
    ]);
  });

  it('sends only role and content of each message, whatever else the caller attached', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(openaiStream));
    const annotated = [
      { role: 'user', content: 'Hi', status: 'interrupted', error: 'x', id: 7 },
    ] as unknown as ChatMessage[];
    await drain(createChatProvider(config, { fetch }).chat({ messages: annotated }));
    expect((requests[0]?.body as { messages: unknown }).messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('makes a non-streamed call without stream_options and yields the whole reply once', async () => {
    const reply = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Whole reply' },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    };
    const { fetch, requests } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, stream: false }),
    );
    expect(requests[0]?.body).toEqual({ ...expectedBody, stream: false });
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Whole reply' },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
      },
    ]);
  });

  it('replaces the public origin with the base URL', async () => {
    const { fetch, requests } = fakeFetch((request) =>
      request.method === 'GET' ? jsonResponse({ object: 'list', data: [] }) : streamResponse(openaiStream),
    );
    const provider = createChatProvider({ ...config, baseUrl: 'http://127.0.0.1:4319/' }, { fetch });
    await drain(provider.chat({ messages: conversation }));
    await provider.listModels();
    expect(requests.map((request) => request.url)).toEqual([
      'http://127.0.0.1:4319/v1/chat/completions',
      'http://127.0.0.1:4319/v1/models',
    ]);
  });

  it('lists models from GET /v1/models', async () => {
    const { fetch, requests } = fakeFetch(() =>
      jsonResponse({
        object: 'list',
        data: [
          { id: 'gpt-4o', object: 'model' },
          { id: 'text-embedding-3-small', object: 'model' },
          { id: 'whisper-1', object: 'model' },
          { id: 'gpt-4.1', object: 'model' },
        ],
      }),
    );
    // Models that cannot chat are left out of the picker.
    expect(await createChatProvider(config, { fetch }).listModels()).toEqual([
      { id: 'gpt-4o', capabilities: {} },
      { id: 'gpt-4.1', capabilities: {} },
    ]);
    expect(requests[0]).toMatchObject({
      url: 'https://api.openai.com/v1/models',
      method: 'GET',
      headers: { authorization: 'Bearer sk-test' },
    });
  });
});

describe('openai streams', () => {
  it.each(chunkSizes)('reads the documented stream split into %s-byte chunks', async (size) => {
    const { fetch } = fakeFetch(() => streamResponse(openaiStream, size));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.error).toBeUndefined();
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', wörld 🌍' },
      { type: 'text-delta', text: ' 日本語' },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'stop',
        usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      },
    ]);
  });

  it('reads CRLF line endings', async () => {
    const { fetch } = fakeFetch(() => streamResponse(openaiStream.replaceAll('\n', '\r\n'), 3));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect([result.text, result.finish?.type]).toEqual(['Hello, wörld 🌍 日本語', 'finish']);
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    const stream = `data: {"choices":[{"index":0,"delta":{"content":"A"},"finish_reason":null}]}\n\ndata: [DONE]\n\ndata: {not json\n\n`;
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.error).toBeUndefined();
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'A' },
      { type: 'finish', reason: 'other', rawReason: undefined, usage: undefined },
    ]);
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['insufficient_system_resource', 'other'],
  ])('maps finish_reason %s to %s', async (raw, reason) => {
    const stream = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"${raw}"}]}\n\ndata: [DONE]\n\n`;
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const { finish } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(finish).toEqual({ type: 'finish', reason, rawReason: raw, usage: undefined });
  });

  it('throws a mid-stream data: {"error"} after yielding the text before it', async () => {
    const stream =
      'data: {"choices":[{"index":0,"delta":{"content":"Partial"},"finish_reason":null}]}\n\n' +
      'data: {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('Partial');
    expect(isProviderError(result.error) && [result.error.kind, result.error.message]).toEqual([
      'server',
      'The server had an error while processing your request. Sorry about that!',
    ]);
  });

  it('throws an event: error', async () => {
    const stream =
      'event: error\ndata: {"message":"Rate limit hit mid-stream","type":"rate_limit_exceeded"}\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const { error } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(isProviderError(error) && [error.kind, error.message]).toEqual([
      'rate-limited',
      'Rate limit hit mid-stream',
    ]);
  });

  it('throws a server error for malformed data', async () => {
    const { fetch } = fakeFetch(() => streamResponse('data: {"choices":[{"delta":\n\n'));
    const { error } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(isProviderError(error) && [error.kind, error.message]).toEqual([
      'server',
      'Malformed stream data from api.openai.com: {"choices":[{"delta":',
    ]);
  });

  it('reads a JSON reply from a compatible server that ignores stream: true', async () => {
    const reply = {
      choices: [{ index: 0, message: { role: 'assistant', content: 'Not streamed' }, finish_reason: 'stop' }],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('Not streamed');
  });
});
