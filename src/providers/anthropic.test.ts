import { describe, expect, it } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { anthropicStream } from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';

const config = testConfigs.claude;
const headers = {
  'x-api-key': 'sk-ant-test',
  'anthropic-version': '2023-06-01',
  'anthropic-dangerous-direct-browser-access': 'true',
  'content-type': 'application/json',
};

describe('anthropic requests', () => {
  it('posts to /v1/messages with the system prompt on top, browser-access headers and no top_p', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(anthropicStream));
    await drain(createChatProvider({ ...config, topP: 0.9 }, { fetch }).chat({ messages: conversation }));
    expect(requests).toEqual([
      {
        url: 'https://api.anthropic.com/v1/messages',
        method: 'POST',
        headers,
        body: {
          model: 'claude-sonnet-4-5',
          max_tokens: 4096,
          temperature: 0.7,
          system: 'You are a helpful assistant.',
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello! How can I help?' },
            { role: 'user', content: 'Tell me a joke' },
          ],
          stream: true,
        },
      },
    ]);
  });

  it('clamps temperature to 1, omits an empty system prompt, drops empty turns and a leading assistant turn', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(anthropicStream));
    const messages = [
      { role: 'system', content: '  ' },
      { role: 'assistant', content: 'Welcome!' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'Still there?' },
    ] as const;
    await drain(
      createChatProvider({ ...config, temperature: 1.6 }, { fetch }).chat({
        messages: [...messages],
        stream: false,
      }),
    );
    expect(requests[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      temperature: 1,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'user', content: 'Still there?' },
      ],
      stream: false,
    });
  });

  it('reads a non-streamed reply: thinking with its signature, then each text block', async () => {
    const reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 's' },
        { type: 'text', text: 'One, ' },
        { type: 'text', text: 'two.' },
      ],
      stop_reason: 'max_tokens',
      usage: { input_tokens: 5, output_tokens: 3 },
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, stream: false }),
    );
    expect(result.parts).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'reasoning-end', signature: 's' },
      { type: 'text-delta', text: 'One, ' },
      { type: 'text-delta', text: 'two.' },
      {
        type: 'finish',
        reason: 'length',
        rawReason: 'max_tokens',
        usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
      },
    ]);
  });

  it('lists models from GET /v1/models?limit=1000 with the same headers', async () => {
    const { fetch, requests } = fakeFetch(() =>
      jsonResponse({ data: [{ type: 'model', id: 'claude-sonnet-4-5-20250929' }], has_more: false }),
    );
    expect(await createChatProvider(config, { fetch }).listModels()).toEqual([
      { id: 'claude-sonnet-4-5-20250929', capabilities: {} },
    ]);
    expect(requests[0]).toMatchObject({
      url: 'https://api.anthropic.com/v1/models?limit=1000',
      method: 'GET',
    });
    expect(requests[0]?.headers).toMatchObject({
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
  });
});

describe('anthropic streams', () => {
  it.each(chunkSizes)(
    'reads thinking with its signature, then text deltas, skips ping, at %s-byte chunks',
    async (size) => {
      const { fetch } = fakeFetch(() => streamResponse(anthropicStream, size));
      const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
      expect(result.parts).toEqual([
        { type: 'reasoning-delta', text: 'Let me think about the greeting.' },
        { type: 'reasoning-end', signature: 'EqQBCgIYAhIM' },
        { type: 'text-delta', text: 'Bonjour' },
        { type: 'text-delta', text: ', ça va ? 😀' },
        {
          type: 'finish',
          reason: 'stop',
          rawReason: 'end_turn',
          usage: {
            inputTokens: 25,
            cachedInputTokens: 0,
            cacheWriteTokens: 0,
            outputTokens: 15,
            totalTokens: 40,
          },
        },
      ]);
    },
  );

  it.each([
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['refusal', 'content-filter'],
    ['tool_use', 'tool-calls'],
    ['pause_turn', 'other'],
  ])('maps stop_reason %s to %s', async (raw, reason) => {
    const stream =
      `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"${raw}","stop_sequence":null},"usage":{"output_tokens":3}}\n\n` +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const { finish } = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(finish).toMatchObject({ reason, rawReason: raw });
  });

  it('throws an overloaded error from event: error, after the text before it', async () => {
    const stream =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Half"}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('Half');
    expect(
      isProviderError(result.error) && [result.error.kind, result.error.message, result.error.retryable],
    ).toEqual(['overloaded', 'Overloaded', true]);
  });
});
