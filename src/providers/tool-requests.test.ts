import { beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import type { ReasoningEffort } from '../domain/provider-definitions/capabilities.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { anthropicStream, geminiStream, groqStream, openaiStream } from './__fixtures__/streams.ts';
import { openaiResponsesStream } from './__fixtures__/reasoning-streams.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { createChatProvider } from './registry.ts';
import { skipSignature } from './gemini.ts';
import type { ChatFile, ChatMessage } from './types.ts';

/** What each API is sent for tools and for a tool loop's history (docs/providers.md#tool-calling). */

beforeEach(() => forgetRefusedFields());

const weatherSchema = {
  type: 'object',
  properties: { location: { type: 'string' } },
  required: ['location'],
};
const tools: ToolDefinition[] = [
  { name: 'weather', description: 'Current weather for a place', parameters: weatherSchema },
  { name: 'time_now', description: '', parameters: { type: 'object', properties: {} } },
];

/**
 * One round of the tool loop: two calls (the second's arguments cut off, malformed), their results
 * (the second an error), the answer, and the next question. The first call carries a Gemini 3.5
 * signature, which only that model gets back.
 */
const toolHistory: ChatMessage[] = [
  { role: 'system', content: 'Use tools.' },
  { role: 'user', content: 'Weather in Zürich, and the time?' },
  {
    role: 'assistant',
    content: '',
    reasoning: [{ type: 'reasoning', text: 'Two calls.', signature: 'sig-r' }],
    toolCalls: [
      {
        id: 'call_1',
        name: 'weather',
        arguments: '{"location":"Zürich"}',
        providerData: {
          provider: 'gemini',
          model: 'gemini-3.5-flash',
          data: { thoughtSignature: 'sig-gem' },
        },
      },
      { id: 'call_2', name: 'time_now', arguments: '{"tz": "Europe/Zur' },
    ],
  },
  {
    role: 'tool',
    content: '',
    toolResults: [
      { callId: 'call_1', name: 'weather', content: '{"temp":21}' },
      { callId: 'call_2', name: 'time_now', content: 'Could not read the arguments.', isError: true },
    ],
  },
  { role: 'assistant', content: 'Sunny, 21 °C.' },
  { role: 'user', content: 'Thanks' },
];

const chart: ChatFile = { kind: 'image', name: 'chart.png', mimeType: 'image/png', data: 'iVBORw0K' };

/** A turn that called one tool with text before it, and a result with an image. */
const imageHistory: ChatMessage[] = [
  { role: 'user', content: 'Plot it' },
  {
    role: 'assistant',
    content: 'Plotting.',
    toolCalls: [{ id: 'call_p', name: 'plot', arguments: '{"x":[1,2]}' }],
  },
  {
    role: 'tool',
    content: '',
    toolResults: [{ callId: 'call_p', name: 'plot', content: 'Done.', images: [chart] }],
  },
];

async function bodyOf(
  config: Config,
  stream: string,
  request: { messages?: ChatMessage[]; tools?: ToolDefinition[]; effort?: ReasoningEffort } = {},
) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  await drain(createChatProvider(config, { fetch }).chat({ messages: conversation, ...request }));
  return requests[0]?.body as Record<string, unknown>;
}

describe('OpenAI Chat Completions (and Azure, Groq, compatible servers)', () => {
  const openai = testConfigs.openai;

  it('offers tools last, in the function shape, and sends no tool field without them', async () => {
    const body = await bodyOf(openai, openaiStream, { tools });
    expect(body).toEqual({
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
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Current weather for a place',
            parameters: weatherSchema,
          },
        },
        { type: 'function', function: { name: 'time_now', parameters: { type: 'object', properties: {} } } },
      ],
    });
    expect(Object.keys(await bodyOf(openai, openaiStream, { tools: [] }))).not.toContain('tools');
    expect(Object.keys(await bodyOf(openai, openaiStream))).not.toContain('tool_choice');
  });

  it('sends the calls on the assistant turn and one tool message per result right after it', async () => {
    const body = await bodyOf(openai, openaiStream, { messages: toolHistory, tools });
    expect(body.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'Weather in Zürich, and the time?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"Zürich"}' },
          },
          // Malformed arguments go as {}: compatible servers parse the string.
          { id: 'call_2', type: 'function', function: { name: 'time_now', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Could not read the arguments.' },
      { role: 'assistant', content: 'Sunny, 21 °C.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('keeps the text beside the calls and says when a result had images, which a tool message cannot carry', async () => {
    const body = await bodyOf(openai, openaiStream, { messages: imageHistory });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Plot it' },
      {
        role: 'assistant',
        content: 'Plotting.',
        tool_calls: [
          { id: 'call_p', type: 'function', function: { name: 'plot', arguments: '{"x":[1,2]}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_p',
        content: 'Done.\n\n[An image the tool returned was left out: this API takes none in a tool result.]',
      },
    ]);
  });

  it('sends the same shapes to Groq and Azure, and reasoning_content back only to compatible servers', async () => {
    for (const config of [testConfigs.groq, testConfigs.azure]) {
      const body = await bodyOf(config, groqStream, { messages: toolHistory, tools });
      expect(body.tools).toHaveLength(2);
      expect((body.messages as Record<string, unknown>[])[2]).not.toHaveProperty('reasoning_content');
    }
    const custom = await bodyOf(testConfigs.custom, openaiStream, { messages: toolHistory, tools });
    expect((custom.messages as unknown[])[2]).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: 'Two calls.',
    });
  });

  it("reads tool support from a compatible server's list (OpenRouter's supported_parameters)", async () => {
    const { fetch } = fakeFetch(() =>
      jsonResponse({
        data: [
          { id: 'a/tools', supported_parameters: ['tools', 'temperature'] },
          { id: 'b/plain', supported_parameters: ['temperature'] },
          { id: 'c/unknown' },
        ],
      }),
    );
    const models = await createChatProvider(testConfigs.custom, { fetch }).listModels();
    expect(models.map(({ capabilities }) => capabilities.tools)).toEqual([true, false, undefined]);
  });

  it('asks again without tools, once, when the model takes none', async () => {
    const { fetch, requests } = fakeFetch((_, index) =>
      index === 0
        ? jsonResponse(
            {
              error: {
                message:
                  'tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.',
                type: 'invalid_request_error',
                param: null,
                code: null,
              },
            },
            { status: 400 },
          )
        : streamResponse(openaiStream),
    );
    const { parts, text } = await drain(
      createChatProvider({ ...openai, model: 'gpt-5-chat-latest' }, { fetch }).chat({
        messages: conversation,
        tools,
      }),
    );
    expect(requests.map(({ body }) => 'tools' in (body as object))).toEqual([true, false]);
    expect(parts[0]).toEqual({
      type: 'notice',
      text: 'Sent again without tools, which this model does not accept.',
    });
    expect(text).toBe('Hello, wörld 🌍 日本語');
  });
});

describe('OpenAI Responses (reasoning models)', () => {
  const gpt54 = { ...testConfigs.openai, model: 'gpt-5.4' };

  it('offers flat, non-strict function tools and sends no tool field without them', async () => {
    const body = await bodyOf(gpt54, openaiResponsesStream, { tools });
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Current weather for a place',
        parameters: weatherSchema,
        strict: false,
      },
      { type: 'function', name: 'time_now', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
    expect(body.store).toBe(false);
    const without = await bodyOf(gpt54, openaiResponsesStream);
    expect(Object.keys(without)).toEqual([
      'model',
      'instructions',
      'input',
      'max_output_tokens',
      'reasoning',
      'store',
      'include',
      'stream',
    ]);
  });

  it('sends reasoning, then function_call items, then their outputs, paired by call_id, never by reference', async () => {
    const body = await bodyOf(gpt54, openaiResponsesStream, { messages: toolHistory, tools });
    expect(body.instructions).toBe('Use tools.');
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather in Zürich, and the time?' },
      {
        type: 'reasoning',
        encrypted_content: 'sig-r',
        summary: [{ type: 'summary_text', text: 'Two calls.' }],
      },
      { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"location":"Zürich"}' },
      { type: 'function_call', call_id: 'call_2', name: 'time_now', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'Could not read the arguments.' },
      { role: 'assistant', content: 'Sunny, 21 °C.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('sends a result with images as input_text and input_image items', async () => {
    const body = await bodyOf(gpt54, openaiResponsesStream, { messages: imageHistory });
    expect(body.input).toEqual([
      { role: 'user', content: 'Plot it' },
      { role: 'assistant', content: 'Plotting.' },
      { type: 'function_call', call_id: 'call_p', name: 'plot', arguments: '{"x":[1,2]}' },
      {
        type: 'function_call_output',
        call_id: 'call_p',
        output: [
          { type: 'input_text', text: 'Done.' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K' },
        ],
      },
    ]);
  });
});

describe('Claude', () => {
  const claude = testConfigs.claude;

  it('offers tools as name, description and input_schema after the messages', async () => {
    const body = await bodyOf(claude, anthropicStream, { tools });
    expect(body.tools).toEqual([
      { name: 'weather', description: 'Current weather for a place', input_schema: weatherSchema },
      { name: 'time_now', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(Object.keys(body)).toEqual([
      'model',
      'max_tokens',
      'temperature',
      'system',
      'messages',
      'tools',
      'stream',
    ]);
    expect(Object.keys(await bodyOf(claude, anthropicStream))).not.toContain('tools');
  });

  it('keeps signed thinking before tool_use, and answers with tool_result blocks in a user turn', async () => {
    const body = await bodyOf(claude, anthropicStream, { messages: toolHistory, tools, effort: 'low' });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Zürich, and the time?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two calls.', signature: 'sig-r' },
          { type: 'tool_use', id: 'call_1', name: 'weather', input: { location: 'Zürich' } },
          // Malformed arguments: input must be an object.
          { type: 'tool_use', id: 'call_2', name: 'time_now', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":21}' },
          {
            type: 'tool_result',
            tool_use_id: 'call_2',
            content: 'Could not read the arguments.',
            is_error: true,
          },
        ],
      },
      { role: 'assistant', content: 'Sunny, 21 °C.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it("thinks not while answering calls that carry no signed thinking (another model's), where it can stop", async () => {
    const adaptive = { ...claude, model: 'claude-opus-4-8' };
    const unsigned = toolHistory.slice(0, 4).map((message) => ({ ...message, reasoning: [] }));
    expect(await bodyOf(adaptive, anthropicStream, { messages: unsigned, tools })).toMatchObject({
      max_tokens: 4096,
      thinking: { type: 'disabled' },
    });
    const signed = await bodyOf(adaptive, anthropicStream, { messages: toolHistory.slice(0, 4), tools });
    expect(signed.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect((signed.messages as { content: unknown[] }[])[1]?.content[0]).toMatchObject({ type: 'thinking' });
    // A model that always thinks keeps thinking: its refusal is Claude's to explain.
    const always = await bodyOf({ ...claude, model: 'claude-mythos-5' }, anthropicStream, {
      messages: unsigned,
    });
    expect(always.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it("replaces what Claude refuses in another provider's call ids, alike on the call and its result", async () => {
    const foreign: ChatMessage[] = [
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'fc/1.a', name: 'now', arguments: '{}' }] },
      { role: 'tool', content: '', toolResults: [{ callId: 'fc/1.a', name: 'now', content: 'noon' }] },
    ];
    const body = await bodyOf(claude, anthropicStream, { messages: foreign });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'fc_1_a', name: 'now', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'fc_1_a', content: 'noon' }] },
    ]);
  });

  it('sends the text before the calls, and images inside the result', async () => {
    const body = await bodyOf(claude, anthropicStream, { messages: imageHistory });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Plot it' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Plotting.' },
          { type: 'tool_use', id: 'call_p', name: 'plot', input: { x: [1, 2] } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call_p',
            content: [
              { type: 'text', text: 'Done.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
            ],
          },
        ],
      },
    ]);
  });
});

describe('Gemini', () => {
  const gemini = (model: string) => ({ ...testConfigs.gemini, model });
  const contentsOf = async (model: string, messages: ChatMessage[]) =>
    (await bodyOf(gemini(model), geminiStream, { messages, tools })).contents as {
      role: string;
      parts: unknown[];
    }[];

  it('offers one functionDeclarations list with JSON Schema parameters; none without tools', async () => {
    const body = await bodyOf(gemini('gemini-3.5-flash'), geminiStream, { tools });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Current weather for a place',
            parametersJsonSchema: weatherSchema,
          },
          { name: 'time_now', parametersJsonSchema: { type: 'object', properties: {} } },
        ],
      },
    ]);
    expect(body).not.toHaveProperty('toolConfig');
    expect(Object.keys(await bodyOf(gemini('gemini-3.5-flash'), geminiStream))).toEqual([
      'contents',
      'systemInstruction',
      'generationConfig',
    ]);
  });

  it('sends the calls with the signature back to the model that wrote it, then functionResponse parts', async () => {
    expect(await contentsOf('gemini-3.5-flash', toolHistory)).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Zürich, and the time?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'call_1', name: 'weather', args: { location: 'Zürich' } },
            thoughtSignature: 'sig-gem',
          },
          // Only the first of parallel calls carries a signature; malformed arguments go as {}.
          { functionCall: { id: 'call_2', name: 'time_now', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'call_1',
              name: 'weather',
              response: { name: 'weather', content: '{"temp":21}' },
            },
          },
          {
            functionResponse: {
              id: 'call_2',
              name: 'time_now',
              response: { name: 'time_now', content: 'Could not read the arguments.' },
            },
          },
        ],
      },
      { role: 'model', parts: [{ text: 'Sunny, 21 °C.' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('gives another Gemini 3 model the sentinel instead of a signature it did not write; 2.5 gets none', async () => {
    const callsOf = async (model: string, messages = toolHistory) =>
      (await contentsOf(model, messages))[1]?.parts;
    expect(await callsOf('gemini-3.6-flash')).toEqual([
      {
        functionCall: { id: 'call_1', name: 'weather', args: { location: 'Zürich' } },
        thoughtSignature: skipSignature,
      },
      { functionCall: { id: 'call_2', name: 'time_now', args: {} }, thoughtSignature: skipSignature },
    ]);
    expect(await callsOf('gemini-2.5-flash')).toEqual([
      { functionCall: { id: 'call_1', name: 'weather', args: { location: 'Zürich' } } },
      { functionCall: { id: 'call_2', name: 'time_now', args: {} } },
    ]);
    // Another provider's data is plain data here.
    const foreign = toolHistory.map((message) =>
      message.toolCalls
        ? {
            ...message,
            toolCalls: message.toolCalls.map((call) => ({
              ...call,
              providerData: { provider: 'claude' as const, data: { thoughtSignature: 'sig-gem' } },
            })),
          }
        : message,
    );
    expect((await callsOf('gemini-3.5-flash', foreign))?.[0]).toMatchObject({
      thoughtSignature: skipSignature,
    });
  });

  it('puts a result image in functionResponse.parts on Gemini 3, beside the responses before it', async () => {
    const results = async (model: string) => (await contentsOf(model, imageHistory))[2];
    const inline = { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } };
    const response = { id: 'call_p', name: 'plot', response: { name: 'plot', content: 'Done.' } };
    expect(await results('gemini-3.5-flash')).toEqual({
      role: 'user',
      parts: [{ functionResponse: { ...response, parts: [inline] } }],
    });
    expect(await results('gemini-2.5-flash')).toEqual({
      role: 'user',
      parts: [{ functionResponse: response }, inline],
    });
    expect((await contentsOf('gemini-2.5-flash', imageHistory))[1]).toEqual({
      role: 'model',
      parts: [{ text: 'Plotting.' }, { functionCall: { id: 'call_p', name: 'plot', args: { x: [1, 2] } } }],
    });
  });

  it('ends a loop that refuses a prefill with the results turn', async () => {
    const contents = await contentsOf('gemini-3.6-flash', imageHistory);
    expect(contents.map(({ role }) => role)).toEqual(['user', 'model', 'user']);
  });
});

describe("a refused tool history, in the provider's words", () => {
  it.each([
    [
      testConfigs.openai,
      {
        error: {
          message:
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
          type: 'invalid_request_error',
          param: 'messages.[2].role',
          code: null,
        },
      },
    ],
    [
      { ...testConfigs.openai, model: 'gpt-5.4' },
      {
        error: {
          message: 'No tool output found for function call call_1.',
          type: 'invalid_request_error',
          param: 'input',
          code: null,
        },
      },
    ],
    [
      testConfigs.claude,
      {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
        },
      },
    ],
    [
      { ...testConfigs.gemini, model: 'gemini-3.5-flash' },
      {
        error: {
          code: 400,
          message:
            'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  ] as const)('passes refusal %# through unchanged, without asking again', async (config, payload) => {
    const { fetch, requests } = fakeFetch(() => jsonResponse(payload, { status: 400 }));
    const { error } = await drain(
      createChatProvider(config, { fetch }).chat({ messages: toolHistory, tools }),
    );
    expect(requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400, message: payload.error.message });
  });
});
