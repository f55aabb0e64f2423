import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import type { ReasoningEffort } from '../domain/provider-definitions/capabilities.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { openaiResponsesStream } from './__fixtures__/reasoning-streams.ts';
import { forgetUnverifiedKeys, unverifiedNotice } from './openai-responses.ts';
import { anthropicStream, geminiStream, groqStream } from './__fixtures__/streams.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage } from './types.ts';

/** How each provider is asked to reason: the fields per model and effort, and reasoning sent back. */

const signedHistory: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi' },
  {
    role: 'assistant',
    content: 'Hello!',
    reasoning: [
      { type: 'reasoning', text: 'A greeting.', signature: 'sig-1' },
      { type: 'reasoning', text: '', signature: 'redacted-1', redacted: true },
      { type: 'reasoning', text: 'Cut before its signature came.' },
    ],
  },
  { role: 'user', content: 'And now?' },
];

async function bodyOf(config: Config, stream: string, messages = conversation, effort?: ReasoningEffort) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  await drain(createChatProvider(config, { fetch }).chat({ messages, effort }));
  return requests[0]?.body as Record<string, unknown>;
}

describe('Claude thinking', () => {
  const claude = (model: string, extra: Partial<Config> = {}) => ({ ...testConfigs.claude, model, ...extra });

  it('keeps the original exact body for a model that does not reason', async () => {
    const body = await bodyOf(claude('claude-3-opus-20240229'), anthropicStream, signedHistory);
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'temperature', 'system', 'messages', 'stream']);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('thinks on a budget model only when an effort is chosen, on top of max tokens, without temperature', async () => {
    const off = await bodyOf(claude('claude-sonnet-4-5'), anthropicStream, signedHistory);
    expect(off).not.toHaveProperty('thinking');
    expect(off).toMatchObject({ temperature: 0.7 });
    const medium = await bodyOf(claude('claude-sonnet-4-5'), anthropicStream, signedHistory, 'medium');
    // The answer keeps its 4096 tokens; thinking gets its own 8192 on top.
    expect(medium).toMatchObject({ max_tokens: 12288, thinking: { type: 'enabled', budget_tokens: 8192 } });
    expect(Object.keys(medium).slice(0, 2)).toEqual(['model', 'max_tokens']);
    expect(medium).not.toHaveProperty('temperature');
    // Within the model's 64,000 output tokens there is no room for the smallest budget (1024).
    const cramped = await bodyOf(
      claude('claude-sonnet-4-5', { maxTokens: 63_500 }),
      anthropicStream,
      conversation,
      'low',
    );
    expect(cramped).not.toHaveProperty('thinking');
  });

  it('sends signed and redacted blocks back unchanged, before the text, while thinking is on', async () => {
    const body = await bodyOf(claude('claude-sonnet-4-5'), anthropicStream, signedHistory, 'low');
    expect(body.messages).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'A greeting.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'redacted-1' },
          { type: 'text', text: 'Hello!' },
        ],
      },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('asks adaptive models for summarized thinking, with an effort when chosen, and can turn it off', async () => {
    const model = claude('claude-opus-4-8');
    const byDefault = await bodyOf(model, anthropicStream);
    expect(byDefault).toMatchObject({
      max_tokens: 4096 + 8192,
      thinking: { type: 'adaptive', display: 'summarized' },
    });
    expect(byDefault).not.toHaveProperty('output_config');
    const xhigh = await bodyOf(model, anthropicStream, conversation, 'xhigh');
    expect(xhigh).toMatchObject({ max_tokens: 4096 + 32_768, output_config: { effort: 'xhigh' } });
    const off = await bodyOf(model, anthropicStream, signedHistory, 'off');
    expect(off).toMatchObject({ max_tokens: 4096, thinking: { type: 'disabled' } });
    // With thinking off, thinking blocks in history are a 400: the text alone goes.
    expect((off.messages as unknown[])[1]).toEqual({ role: 'assistant', content: 'Hello!' });
  });

  it('ignores an effort the model does not take (xhigh on Opus 4.6)', async () => {
    const body = await bodyOf(claude('claude-opus-4-6'), anthropicStream, conversation, 'xhigh');
    expect(body).not.toHaveProperty('output_config');
  });

  it('marks a long conversation for prompt caching, a short one not', async () => {
    const short = await bodyOf(claude('claude-3-opus-20240229'), anthropicStream);
    expect(short).not.toHaveProperty('cache_control');
    const long: ChatMessage[] = [...conversation, { role: 'user', content: 'x'.repeat(5000) }];
    const body = await bodyOf(claude('claude-3-opus-20240229'), anthropicStream, long);
    expect(body.cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('Gemini thinking', () => {
  const gemini = (model: string) => ({ ...testConfigs.gemini, model });
  const thinkingOf = async (model: string, effort?: ReasoningEffort) =>
    (
      (await bodyOf(gemini(model), geminiStream, conversation, effort)).generationConfig as Record<
        string,
        unknown
      >
    ).thinkingConfig;

  it('asks for thoughts; a level on Gemini 3, a budget on 2.5, never both', async () => {
    expect(await thinkingOf('gemini-3.5-flash')).toEqual({ includeThoughts: true });
    expect(await thinkingOf('gemini-3.5-flash', 'minimal')).toEqual({
      includeThoughts: true,
      thinkingLevel: 'minimal',
    });
    expect(await thinkingOf('gemini-3.1-pro-preview', 'medium')).toEqual({ includeThoughts: true });
    expect(await thinkingOf('gemini-2.5-flash', 'high')).toEqual({
      includeThoughts: true,
      thinkingBudget: 24576,
    });
    expect(await thinkingOf('gemini-2.5-flash', 'off')).toEqual({
      includeThoughts: false,
      thinkingBudget: 0,
    });
    // 2.5 Pro cannot stop thinking: 'off' is not offered and not sent.
    expect(await thinkingOf('gemini-2.5-pro', 'off')).toEqual({ includeThoughts: true });
    expect(await thinkingOf('gemini-pro')).toBeUndefined();
    expect(await thinkingOf('gemini-flash-latest', 'off')).toEqual({ includeThoughts: true });
  });

  it('leaves Gemini 3 at its default temperature, as Google advises', async () => {
    const config = await bodyOf(gemini('gemini-3.5-flash'), geminiStream);
    expect(config.generationConfig).not.toHaveProperty('temperature');
    const older = await bodyOf(gemini('gemini-2.5-flash'), geminiStream);
    expect(older.generationConfig).toMatchObject({ temperature: 0.7 });
  });
});

describe('Chat Completions reasoning fields', () => {
  it('asks Groq qwen3 for parsed reasoning and maps off to none; gpt-oss takes an effort', async () => {
    const qwen = { ...testConfigs.groq, model: 'qwen/qwen3-32b' };
    expect(await bodyOf(qwen, groqStream, conversation, 'off')).toMatchObject({
      reasoning_effort: 'none',
      reasoning_format: 'parsed',
    });
    const oss = await bodyOf(
      { ...testConfigs.groq, model: 'openai/gpt-oss-120b' },
      groqStream,
      conversation,
      'high',
    );
    expect(oss).toMatchObject({ reasoning_effort: 'high' });
    expect(oss).not.toHaveProperty('reasoning_format');
  });

  it('never sends reasoning back in Chat Completions history', async () => {
    const body = await bodyOf({ ...testConfigs.groq, model: 'qwen/qwen3-32b' }, groqStream, signedHistory);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('keeps the original body for a model that does not reason, whatever the effort', async () => {
    const body = await bodyOf(testConfigs.groq, groqStream, conversation, 'high');
    expect(Object.keys(body)).toEqual(['model', 'messages', 'temperature', 'max_tokens', 'top_p', 'stream']);
  });
});

describe('OpenAI reasoning models through the Responses API', () => {
  const gpt = { ...testConfigs.openai, model: 'gpt-5.4' };

  it('sends the system prompt as instructions and its own encrypted reasoning before the reply', async () => {
    const body = await bodyOf(gpt, openaiResponsesStream, signedHistory, 'xhigh');
    expect(body).toEqual({
      model: 'gpt-5.4',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Hi' },
        {
          type: 'reasoning',
          encrypted_content: 'sig-1',
          summary: [{ type: 'summary_text', text: 'A greeting.' }],
        },
        { type: 'reasoning', encrypted_content: 'redacted-1', summary: [] },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'And now?' },
      ],
      // xhigh sets 32,768 tokens aside for the reasoning, on top of Max Tokens.
      max_output_tokens: 800 + 32_768,
      reasoning: { effort: 'xhigh', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('retries without summaries when the organisation is not verified, says so once, and remembers the key', async () => {
    forgetUnverifiedKeys();
    const refusal = {
      error: {
        message: 'Your organization must be verified to generate reasoning summaries.',
        type: 'invalid_request_error',
        param: 'reasoning.summary',
        code: 'unsupported_value',
      },
    };
    const { fetch, requests } = fakeFetch((_request, index) =>
      index === 0 ? jsonResponse(refusal, { status: 400 }) : streamResponse(openaiResponsesStream),
    );
    const provider = createChatProvider(gpt, { fetch });
    const first = await drain(provider.chat({ messages: conversation }));
    expect(first.error).toBeUndefined();
    expect(first.parts.filter((part) => part.type === 'notice')).toEqual([
      { type: 'notice', text: unverifiedNotice },
    ]);
    expect(requests.map((request) => (request.body as { reasoning?: unknown }).reasoning)).toEqual([
      { summary: 'auto' },
      undefined,
    ]);
    const second = await drain(provider.chat({ messages: conversation }));
    expect(second.parts.some((part) => part.type === 'notice')).toBe(false);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.body).not.toHaveProperty('reasoning');
  });
});
