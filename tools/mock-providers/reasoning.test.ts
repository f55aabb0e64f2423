import { describe, expect, it } from 'vitest';
import { tokenize } from './server.mjs';
import {
  userTurn,
  openaiHeaders,
  anthropicHeaders,
  errorMessage,
  namedEvents,
  dataPayloads,
  hiReasoning,
  hiThoughts,
  hiEcho,
  joined,
  type SseEvent,
  type ChatChunk,
  rawRequests,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 1 });
const raw = rawRequests(() => mock().url);

describe('Claude thinking', () => {
  const claudeThinking = {
    model: 'claude-sonnet-4-5',
    max_tokens: 2048,
    messages: userTurn,
    thinking: { type: 'enabled', budget_tokens: 1024 },
  };
  const claude = (key: string, body: unknown) => raw('POST', '/v1/messages', anthropicHeaders(key), body);
  const deltasOf = (events: SseEvent[]) =>
    events
      .filter((event) => event.name === 'content_block_delta')
      .map((event) => event.data.delta as { type: string; thinking?: string; text?: string });

  it('streams a signed thinking block, a whole redacted block, then the text, with thinking tokens in the usage', async () => {
    const events = namedEvents((await claude('thinking.c1', { ...claudeThinking, stream: true })).text);
    expect(events.map((event) => event.name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(hiThoughts + 1).fill('content_block_delta'),
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      ...Array<string>(6).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const deltas = deltasOf(events);
    expect(deltas.slice(0, hiThoughts).map((delta) => delta.thinking)).toEqual(tokenize(hiReasoning));
    expect(deltas[hiThoughts]).toEqual({
      type: 'signature_delta',
      signature: expect.stringMatching(/^sig_/),
    });
    expect(events[hiThoughts + 5]?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'redacted_thinking', data: expect.stringMatching(/^redacted_/) },
    });
    expect(deltas.slice(hiThoughts + 1).map((delta) => delta.text)).toEqual(tokenize(hiEcho));
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 6 + hiThoughts,
        output_tokens_details: { thinking_tokens: hiThoughts },
      },
    });
  });

  it('with display omitted streams no thinking text, only the signature', async () => {
    const body = {
      ...claudeThinking,
      model: 'claude-opus-4-8',
      thinking: { type: 'adaptive', display: 'omitted' },
      stream: true,
    };
    const events = namedEvents((await claude('thinking.c2', body)).text);
    expect(deltasOf(events).map((delta) => delta.type)).toEqual([
      'signature_delta',
      ...Array<string>(6).fill('text_delta'),
    ]);
    expect(events.at(-2)?.data).toMatchObject({
      usage: { output_tokens_details: { thinking_tokens: hiThoughts } },
    });
  });

  it('answers plainly when the request does not turn thinking on', async () => {
    const { model, max_tokens, messages } = claudeThinking;
    const response = await claude('thinking.c3', { model, max_tokens, messages });
    expect(response.json).toMatchObject({
      content: [{ type: 'text', text: hiEcho }],
      usage: { input_tokens: 1, output_tokens: 6 },
    });
  });

  it('takes its thinking blocks back unchanged, and refuses a changed or foreign one', async () => {
    const first = await claude('thinking.c4', claudeThinking);
    const content = (first.json as { content: Record<string, string>[] }).content;
    expect(content).toEqual([
      { type: 'thinking', thinking: hiReasoning, signature: expect.stringMatching(/^sig_/) },
      { type: 'redacted_thinking', data: expect.stringMatching(/^redacted_/) },
      { type: 'text', text: hiEcho },
    ]);
    const [thinking, redacted, text] = content;
    const followUp = (assistant: unknown[], model = claudeThinking.model) =>
      claude('thinking.c4', {
        ...claudeThinking,
        model,
        messages: [
          ...userTurn,
          { role: 'assistant', content: assistant },
          { role: 'user', content: 'Again' },
        ],
      });
    const accepted = await followUp(content);
    expect(accepted.status).toBe(200);
    expect((accepted.json as { content: { text?: string }[] }).content.at(-1)?.text).toBe(
      'Echo: Again (3 messages received)',
    );
    const changed = await followUp([
      { ...thinking, thinking: `${hiReasoning.slice(0, -1)}!` },
      redacted,
      text,
    ]);
    expect([changed.status, errorMessage(changed)]).toEqual([
      400,
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    ]);
    const forged = await followUp([thinking, { ...redacted, data: `${redacted?.data ?? ''}A` }, text]);
    expect([forged.status, errorMessage(forged)]).toEqual([
      400,
      'messages.1.content.1: Invalid `data` in `redacted_thinking` block',
    ]);
    const otherModel = await followUp(content, 'claude-opus-4-1-20250805');
    expect(errorMessage(otherModel)).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('reads text blocks in content arrays as text', async () => {
    const response = await claude('ok.tb', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(response.json).toMatchObject({ content: [{ type: 'text', text: hiEcho }] });
  });

  const assistantWith = (content: unknown[]) => [...userTurn, { role: 'assistant', content }];
  it.each([
    [
      'thinking.type enabled on a model after Opus 4.6',
      { ...claudeThinking, model: 'claude-opus-4-8' },
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    ],
    [
      'a budget below 1024',
      { ...claudeThinking, thinking: { type: 'enabled', budget_tokens: 500 } },
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    ],
    [
      'a budget not below max_tokens',
      { ...claudeThinking, max_tokens: 1024 },
      '`max_tokens` must be greater than `thinking.budget_tokens`.',
    ],
    [
      'temperature with thinking on',
      { ...claudeThinking, temperature: 0.5 },
      '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode',
    ],
    [
      'top_p below 0.95 with thinking on',
      { ...claudeThinking, top_p: 0.9 },
      '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled or in adaptive mode',
    ],
    [
      'top_k with adaptive thinking',
      { ...claudeThinking, thinking: { type: 'adaptive' }, top_k: 5 },
      '`top_k` must be unset when thinking is enabled or in adaptive mode',
    ],
    [
      'thinking in the final assistant message with thinking off',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: assistantWith([
          { type: 'thinking', thinking: 'x', signature: 'y' },
          { type: 'text', text: 'Hello' },
        ]),
      },
      'When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`',
    ],
    [
      'an assistant message ending in thinking',
      {
        ...claudeThinking,
        messages: [
          ...assistantWith([
            { type: 'text', text: 'Hello' },
            { type: 'redacted_thinking', data: 'x' },
          ]),
          { role: 'user', content: 'More' },
        ],
      },
      'The final block in an assistant message cannot be `thinking`',
    ],
    [
      'a cache_control type other than ephemeral',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: userTurn,
        cache_control: { type: 'persistent' },
      },
      "cache_control.type: Input should be 'ephemeral'",
    ],
  ])('Anthropic rejects %s', async (_case, body, message) => {
    const response = await claude('ok.tv', body);
    expect([response.status, errorMessage(response)]).toEqual([400, message]);
    expect(response.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

describe('Claude prompt caching', () => {
  const system = 'You are terse.';
  const turn1 = userTurn;
  const turn2 = [
    ...userTurn,
    { role: 'assistant', content: 'Echo: Hi (2 messages received)' },
    { role: 'user', content: 'Tell me more' },
  ];
  const promptTokens = (messages: { content: string }[]) =>
    tokenize([system, ...messages.map((message) => message.content)].join('\n')).length;
  const ask = async (key: string, messages: unknown[], cacheControl?: unknown) => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system,
      messages,
      cache_control: cacheControl,
    };
    const response = await raw('POST', '/v1/messages', anthropicHeaders(key), body);
    return (response.json as { usage: Record<string, number> }).usage;
  };
  const ephemeral = { type: 'ephemeral' };

  it('writes the prompt, then reads the prefix an earlier request wrote; the three counts add up to the prompt', async () => {
    expect(await ask('ok.cache1', turn1, ephemeral)).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: promptTokens(turn1),
      cache_read_input_tokens: 0,
    });
    expect(await ask('ok.cache1', turn2, ephemeral)).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: promptTokens(turn2) - promptTokens(turn1),
      cache_read_input_tokens: promptTokens(turn1),
    });
    expect(await ask('ok.cache1', turn2)).toMatchObject({
      input_tokens: promptTokens(turn2),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(await ask('ok.cache2', turn2, ephemeral)).toMatchObject({ cache_read_input_tokens: 0 });
  });

  it('streams the figures in message_start, with a 1h ttl in its own bucket', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system,
      messages: turn1,
      cache_control: { type: 'ephemeral', ttl: '1h' },
      stream: true,
    };
    const response = await raw('POST', '/v1/messages', anthropicHeaders('ok.cache3'), body);
    const written = promptTokens(turn1);
    expect(namedEvents(response.text)[0]?.data).toMatchObject({
      message: {
        usage: {
          input_tokens: 0,
          cache_creation_input_tokens: written,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: written },
          output_tokens: 1,
        },
      },
    });
  });
});

describe('Gemini thinking', () => {
  const contents = [{ role: 'user', parts: [{ text: 'Hi' }] }];
  const gemini = (model: string, key: string, body: unknown, stream = false) =>
    raw(
      'POST',
      `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      { 'x-goog-api-key': key },
      body,
    );
  interface Part {
    text: string;
    thought?: boolean;
    thoughtSignature?: string;
  }
  interface GeminiChunk {
    candidates: { content: { parts: Part[] }; finishReason?: string }[];
    usageMetadata: Record<string, number | undefined>;
  }
  const streamed = async (key: string, thinkingConfig: unknown) =>
    dataPayloads<GeminiChunk>(
      (await gemini('gemini-2.5-flash', key, { contents, generationConfig: { thinkingConfig } }, true)).text,
    );

  it('streams thought parts, then the answer, then the signature with STOP; cumulative usage in every chunk', async () => {
    const chunks = await streamed('thinking.g1', { includeThoughts: true, thinkingBudget: 1024 });
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const thoughtCount = parts.filter((part) => part.thought).length;
    expect(
      parts
        .slice(0, thoughtCount)
        .map((part) => part.text)
        .join(''),
    ).toBe(hiReasoning);
    expect(
      parts
        .slice(thoughtCount, -1)
        .map((part) => part.text)
        .join(''),
    ).toBe(hiEcho);
    expect(chunks.at(-1)?.candidates[0]).toMatchObject({
      content: { parts: [{ text: '', thoughtSignature: expect.any(String) }] },
      finishReason: 'STOP',
    });
    expect(chunks.slice(0, -1).map((chunk) => chunk.candidates[0]?.finishReason)).not.toContain('STOP');
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 1,
      candidatesTokenCount: 6,
      thoughtsTokenCount: hiThoughts,
      totalTokenCount: 7 + hiThoughts,
    });
    const thoughts = chunks.map((chunk) => chunk.usageMetadata.thoughtsTokenCount ?? 0);
    expect(thoughts).toEqual([...thoughts].sort((a, b) => a - b));
  });

  it('without includeThoughts sends no thought parts but counts the thoughts in every chunk', async () => {
    const chunks = await streamed('thinking.g2', { thinkingBudget: 1024 });
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts.some((part) => part.thought)).toBe(false);
    expect(chunks.map((chunk) => chunk.usageMetadata.thoughtsTokenCount)).toEqual(
      chunks.map(() => hiThoughts),
    );
  });

  it('not streamed, carries the signature on the answer part', async () => {
    const thinkingConfig = { includeThoughts: true, thinkingLevel: 'LOW' };
    const response = await gemini('gemini-3-pro-preview', 'thinking.g3', {
      contents,
      generationConfig: { thinkingConfig },
    });
    expect(response.json).toMatchObject({
      candidates: [
        {
          content: {
            parts: [
              { text: hiReasoning, thought: true },
              { text: hiEcho, thoughtSignature: expect.any(String) },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        candidatesTokenCount: 6,
        thoughtsTokenCount: hiThoughts,
        totalTokenCount: 7 + hiThoughts,
      },
    });
  });

  it.each([
    [
      'a level together with a budget',
      'gemini-3-pro-preview',
      { thinkingLevel: 'low', thinkingBudget: 1024 },
      'You can only set only one of thinking budget and thinking level.',
    ],
    [
      'an unknown level',
      'gemini-3-pro-preview',
      { thinkingLevel: 'extreme' },
      `Invalid JSON payload received. Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "extreme"`,
    ],
    [
      'a level on a 2.x model',
      'gemini-2.5-flash',
      { thinkingLevel: 'low' },
      'Thinking level is not supported for this model.',
    ],
    [
      'budget 0 on 2.5 Pro',
      'gemini-2.5-pro',
      { thinkingBudget: 0 },
      'Budget 0 is invalid. This model only works in thinking mode.',
    ],
    [
      'budget 0 on Gemini 3',
      'gemini-3-flash-preview',
      { thinkingBudget: 0 },
      'Budget 0 is invalid. This model only works in thinking mode.',
    ],
  ])('Gemini rejects %s', async (_case, model, thinkingConfig, message) => {
    const response = await gemini(model, 'ok.gv', { contents, generationConfig: { thinkingConfig } });
    expect([response.status, response.json]).toEqual([
      400,
      { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
    ]);
  });

  it('takes a budget on Gemini 3, and budget 0 on 2.5 Flash', async () => {
    const budget = await gemini('gemini-3-pro-preview', 'ok.gv', {
      contents,
      generationConfig: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    const off = await gemini('gemini-2.5-flash', 'ok.gv', {
      contents,
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect([budget.status, off.status]).toEqual([200, 200]);
  });
});

describe('Chat Completions reasoning', () => {
  const groq = (key: string, body: unknown) =>
    raw('POST', '/openai/v1/chat/completions', openaiHeaders(key), body);
  const groqStream = async (key: string, extra: Record<string, unknown>) =>
    dataPayloads<ChatChunk>(
      (await groq(key, { model: 'qwen/qwen3-32b', messages: userTurn, stream: true, ...extra })).text,
    );

  it('Groq parsed: delta.reasoning pieces before the content, reasoning tokens in both usages', async () => {
    const chunks = await groqStream('thinking.q1', { reasoning_format: 'parsed' });
    expect(joined(chunks, 'reasoning')).toBe(hiReasoning);
    expect(joined(chunks, 'content')).toBe(hiEcho);
    const lastReasoning = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.reasoning);
    const firstContent = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    expect(lastReasoning).toBeLessThan(firstContent);
    const usage = {
      completion_tokens: 6 + hiThoughts,
      completion_tokens_details: { reasoning_tokens: hiThoughts },
      prompt_tokens_details: { cached_tokens: 0 },
    };
    expect(chunks.at(-1)).toMatchObject({ usage, x_groq: { usage } });
  });

  it.each([
    ['raw', 'thinking.q2', { reasoning_format: 'raw' }],
    ['absent', 'thinking.q3', {}],
    ['think-tags', 'think-tags.q4', {}],
  ])(
    'Groq %s: the reasoning inside leading <think> tags, each tag a piece of its own',
    async (_case, key, extra) => {
      const chunks = await groqStream(key, extra);
      expect(joined(chunks, 'reasoning')).toBe('');
      expect(joined(chunks, 'content')).toBe(`<think>${hiReasoning}</think>\n\n${hiEcho}`);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(
        expect.arrayContaining(['<think>', '</think>']),
      );
    },
  );

  it('Groq hidden: no reasoning shown, but counted; not streamed, parsed reasoning is message.reasoning', async () => {
    const chunks = await groqStream('thinking.q5', { reasoning_format: 'hidden' });
    expect([joined(chunks, 'reasoning'), joined(chunks, 'content')]).toEqual(['', hiEcho]);
    expect(chunks.at(-1)?.usage).toMatchObject({
      completion_tokens_details: { reasoning_tokens: hiThoughts },
    });
    const parsed = await groq('thinking.q6', { model: 'openai/gpt-oss-20b', messages: userTurn });
    expect(parsed.json).toMatchObject({
      choices: [{ message: { role: 'assistant', content: hiEcho, reasoning: hiReasoning } }],
    });
  });

  const resent = (field: string) => ({
    messages: [
      ...userTurn,
      { role: 'assistant', content: 'Hello', [field]: 'x' },
      { role: 'user', content: 'More' },
    ],
  });
  it.each([
    [
      'include_reasoning with reasoning_format',
      { include_reasoning: true, reasoning_format: 'parsed' },
      'cannot specify both `include_reasoning` and `reasoning_format`',
    ],
    [
      'reasoning_content sent back',
      resent('reasoning_content'),
      "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]",
    ],
    [
      'reasoning sent back',
      resent('reasoning'),
      "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning' is unsupported)]",
    ],
    [
      'a qwen3 effort other than none or default',
      { reasoning_effort: 'medium' },
      '`reasoning_effort` must be one of `none` or `default`',
    ],
    [
      'a gpt-oss effort other than low, medium or high',
      { model: 'openai/gpt-oss-120b', reasoning_effort: 'none' },
      '`reasoning_effort` must be one of `low`, `medium`, or `high`',
    ],
  ])('Groq rejects %s', async (_case, extra, message) => {
    const response = await groq('ok.qv', { model: 'qwen/qwen3-32b', messages: userTurn, ...extra });
    expect([response.status, response.json]).toEqual([
      400,
      { error: { message, type: 'invalid_request_error' } },
    ]);
  });

  it('OpenAI shows no reasoning but counts it in completion_tokens', async () => {
    const body = {
      model: 'gpt-5.4',
      messages: userTurn,
      stream: true,
      stream_options: { include_usage: true },
    };
    const chunks = dataPayloads<ChatChunk>(
      (await raw('POST', '/v1/chat/completions', openaiHeaders('thinking.o1'), body)).text,
    );
    expect([joined(chunks, 'reasoning'), joined(chunks, 'content')]).toEqual(['', hiEcho]);
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 1,
      completion_tokens: 6 + hiThoughts,
      total_tokens: 7 + hiThoughts,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: hiThoughts,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
  });

  it('OpenAI and Azure usage carries prompt_tokens_details in every scenario', async () => {
    const openai = await raw('POST', '/v1/chat/completions', openaiHeaders('ok.o2'), {
      model: 'gpt-4o',
      messages: userTurn,
    });
    expect(openai.json).toMatchObject({
      usage: {
        completion_tokens: 6,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    const azure = await raw(
      'POST',
      '/openai/deployments/d/chat/completions?api-version=2024-10-21',
      { 'api-key': 'thinking.o3' },
      { messages: userTurn },
    );
    expect(azure.json).toMatchObject({
      usage: {
        completion_tokens: 6 + hiThoughts,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: hiThoughts },
      },
    });
  });

  it('the local server streams reasoning_content first, DeepSeek style, every key in every delta', async () => {
    const body = {
      model: 'qwen3:8b',
      messages: userTurn,
      stream: true,
      stream_options: { include_usage: true },
    };
    const response = await raw('POST', '/local/thinking.l1/v1/chat/completions', {}, body);
    const chunks = dataPayloads<{ choices: { delta: Record<string, string | null> }[]; usage?: unknown }>(
      response.text,
    );
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(
      deltas.every((delta) => ['content', 'reasoning_content', 'tool_calls'].every((key) => key in delta)),
    ).toBe(true);
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe(hiReasoning);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(hiEcho);
    const lastReasoning = deltas.findLastIndex((delta) => delta.reasoning_content);
    expect(lastReasoning).toBeLessThan(deltas.findIndex((delta) => delta.content));
    expect(chunks.at(-1)).toEqual(
      expect.objectContaining({
        choices: [],
        usage: {
          prompt_tokens: 1,
          completion_tokens: 6 + hiThoughts,
          total_tokens: 7 + hiThoughts,
          prompt_tokens_details: null,
          reasoning_tokens: hiThoughts,
        },
      }),
    );
  });

  it('think-tags: the local server puts the reasoning in a leading <think> in the content', async () => {
    const response = await raw(
      'POST',
      '/local/think-tags.l2/v1/chat/completions',
      {},
      {
        model: 'qwen3:8b',
        messages: userTurn,
      },
    );
    expect(response.json).toMatchObject({
      choices: [{ message: { role: 'assistant', content: `<think>${hiReasoning}</think>\n\n${hiEcho}` } }],
    });
  });
});
