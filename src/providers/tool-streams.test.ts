import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { geminiStream, anthropicStream } from './__fixtures__/streams.ts';
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
import { skipSignature } from './gemini.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ReasoningPart } from '../domain/conversation.ts';
import type { ChatMessage, ChatToolCall, StreamPart } from './types.ts';

/** Tool calls as each API streams them (and sends them whole), read into tool-call parts. */

beforeEach(() => forgetRefusedFields());

const schema = { type: 'object', properties: {} };
const tools: ToolDefinition[] = ['weather', 'time_now', 'time_in', 'cityAttractions', 'plot'].map((name) => ({
  name,
  description: '',
  parameters: schema,
}));

function configFor(provider: ProviderId, model?: string): Config {
  return { ...testConfigs[provider], ...(model && { model }) };
}

async function read(config: Config, response: () => Response, offered = tools) {
  const { fetch, requests } = fakeFetch(response);
  const result = await drain(
    createChatProvider(config, { fetch }).chat({ messages: conversation, tools: offered }),
  );
  return { ...result, requests };
}

const toolParts = (parts: StreamPart[]) => parts.filter((part) => part.type.startsWith('tool-call'));

describe('OpenAI Chat Completions streams', () => {
  it('collects parallel calls by index, after the text, and ends them in order when the reply finishes', async () => {
    const { parts, error } = await read(configFor('openai'), () => streamResponse(openaiToolStream));
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Checking ☀' },
      { type: 'tool-call-start', callId: 'call_O17Uplv4', name: 'weather' },
      { type: 'tool-call-delta', callId: 'call_O17Uplv4', delta: '{"' },
      { type: 'tool-call-delta', callId: 'call_O17Uplv4', delta: 'location' },
      { type: 'tool-call-delta', callId: 'call_O17Uplv4', delta: '":"Zürich 🏔"}' },
      { type: 'tool-call-start', callId: 'call_Pq82xT', name: 'time_in' },
      { type: 'tool-call-delta', callId: 'call_Pq82xT', delta: '{"city":' },
      { type: 'tool-call-delta', callId: 'call_Pq82xT', delta: '"東京"}' },
      { type: 'tool-call-end', callId: 'call_O17Uplv4', arguments: '{"location":"Zürich 🏔"}' },
      { type: 'tool-call-end', callId: 'call_Pq82xT', arguments: '{"city":"東京"}' },
      {
        type: 'finish',
        reason: 'tool-calls',
        rawReason: 'tool_calls',
        usage: { inputTokens: 53, outputTokens: 17, totalTokens: 70 },
      },
    ]);
  });

  it('reads a call named without arguments, then an empty arguments fragment with the finish, as {}', async () => {
    const { parts } = await read(configFor('custom'), () => streamResponse(compatibleNoArgumentsStream));
    expect(parts).toEqual([
      { type: 'tool-call-start', callId: 'call_local1', name: 'now' },
      { type: 'tool-call-end', callId: 'call_local1', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls', usage: undefined },
    ]);
  });

  it('reads Groq whole arguments in one delta', async () => {
    const { parts } = await read(configFor('groq'), () => streamResponse(groqToolStream));
    expect(toolParts(parts)).toEqual([
      { type: 'tool-call-start', callId: 'tk85n1k4m', name: 'weather' },
      { type: 'tool-call-delta', callId: 'tk85n1k4m', delta: '{"location":"Köln"}' },
      { type: 'tool-call-end', callId: 'tk85n1k4m', arguments: '{"location":"Köln"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({
      reason: 'tool-calls',
      usage: { inputTokens: 210, outputTokens: 18 },
    });
  });

  it("reads a server's 'stop' after calls as a stop for them, and gives an id to a call that had none", async () => {
    const stream = [
      '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"now","arguments":{"tz":"UTC"}}}]},"finish_reason":null}]}',
      '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      '[DONE]',
    ]
      .map((data) => `data: ${data}\n\n`)
      .join('');
    const { parts } = await read(configFor('custom'), () => streamResponse(stream));
    const start = parts[0] as Extract<StreamPart, { type: 'tool-call-start' }>;
    expect(start.callId).toMatch(/^call_[a-z0-9]+_0$/);
    expect(parts.slice(1)).toEqual([
      { type: 'tool-call-delta', callId: start.callId, delta: '{"tz":"UTC"}' },
      { type: 'tool-call-end', callId: start.callId, arguments: '{"tz":"UTC"}' },
      { type: 'finish', reason: 'tool-calls', rawReason: 'stop', usage: undefined },
    ]);
  });

  it('reads calls from a non-streamed reply', async () => {
    const reply = {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'weather', arguments: '{"location":"Oslo"}' },
              },
              { id: 'call_b', type: 'function', function: { name: 'time_now', arguments: '' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const { parts } = await drain(
      createChatProvider(configFor('openai'), { fetch }).chat({
        messages: conversation,
        tools,
        stream: false,
      }),
    );
    expect(parts).toEqual([
      { type: 'tool-call-start', callId: 'call_a', name: 'weather' },
      { type: 'tool-call-end', callId: 'call_a', arguments: '{"location":"Oslo"}' },
      { type: 'tool-call-start', callId: 'call_b', name: 'time_now' },
      { type: 'tool-call-end', callId: 'call_b', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls', usage: undefined },
    ]);
  });
});

describe("Groq's tool_use_failed", () => {
  const failure = {
    error: {
      message:
        "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
      type: 'invalid_request_error',
      code: 'tool_use_failed',
      failed_generation: `<function=weather>{"location": "Paris"${' '.repeat(400)}}</function>`,
    },
  };

  it('explains a refusal before the stream, quoting what the model wrote (bounded), without asking again', async () => {
    const { error, requests } = await read(configFor('groq'), () => jsonResponse(failure, { status: 400 }));
    expect(requests).toHaveLength(1);
    expect(
      isProviderError(error) && { kind: error.kind, status: error.status, retryable: error.retryable },
    ).toEqual({
      kind: 'invalid-request',
      status: 400,
      retryable: false,
    });
    const message = (error as Error).message;
    expect(message).toMatch(
      /^The model tried to call a tool but wrote the call wrongly, so the provider refused the reply \(tool_use_failed\)\. Trying again or rephrasing may help\. The model wrote: <function=weather>\{"location": "Paris" +…$/,
    );
    expect(message.length).toBeLessThan(500);
  });

  it('explains the same refusal arriving as an event: error in the stream', async () => {
    const { error } = await read(configFor('groq'), () => streamResponse(groqToolUseFailedStream));
    expect(isProviderError(error) && error.kind).toBe('invalid-request');
    expect((error as Error).message).toContain(
      '(tool_use_failed). Trying again or rephrasing may help. The model wrote: Tool use failed: JSON does not match the expected schema for tool calls',
    );
  });
});

describe('OpenAI Responses streams', () => {
  const gpt54 = configFor('openai', 'gpt-5.4');

  it('reads function_call items, their argument deltas and their ends, after the reasoning', async () => {
    const { parts } = await read(gpt54, () => streamResponse(openaiResponsesToolStream));
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'Needs the weather.' },
      { type: 'reasoning-end', signature: 'gAAA-tools' },
      { type: 'tool-call-start', callId: 'call_H5Dx', name: 'weather' },
      { type: 'tool-call-delta', callId: 'call_H5Dx', delta: '{"' },
      { type: 'tool-call-delta', callId: 'call_H5Dx', delta: 'location' },
      { type: 'tool-call-delta', callId: 'call_H5Dx', delta: '":"San Francisco — “SF” 🌉"}' },
      { type: 'tool-call-end', callId: 'call_H5Dx', arguments: '{"location":"San Francisco — “SF” 🌉"}' },
      { type: 'tool-call-start', callId: 'call_J7Ky', name: 'time_now' },
      { type: 'tool-call-delta', callId: 'call_J7Ky', delta: '{}' },
      { type: 'tool-call-end', callId: 'call_J7Ky', arguments: '{}' },
      {
        type: 'finish',
        reason: 'tool-calls',
        rawReason: 'completed',
        usage: { inputTokens: 80, outputTokens: 40, reasoningTokens: 12, totalTokens: 120 },
      },
    ]);
  });

  it("unwraps gpt-5.4's parallel wrapper into the calls it holds when they are offered tools", async () => {
    const { parts } = await read(gpt54, () => streamResponse(openaiResponsesParallelWrapperStream));
    expect(toolParts(parts)).toEqual([
      { type: 'tool-call-start', callId: 'call_parallel_0', name: 'weather' },
      { type: 'tool-call-end', callId: 'call_parallel_0', arguments: '{"location":"San Francisco"}' },
      { type: 'tool-call-start', callId: 'call_parallel_1', name: 'cityAttractions' },
      { type: 'tool-call-end', callId: 'call_parallel_1', arguments: '{"city":"Rome"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ reason: 'tool-calls' });
    // A wrapper naming a tool that was not offered stays one call, which the tool loop reports.
    const unknown = await read(
      gpt54,
      () => streamResponse(openaiResponsesParallelWrapperStream),
      tools.slice(0, 1),
    );
    expect(toolParts(unknown.parts).map((part) => part.type === 'tool-call-start' && part.name)).toEqual([
      'parallel',
      false,
    ]);
  });

  it('reads calls from a non-streamed reply', async () => {
    const reply = {
      status: 'completed',
      output: [
        { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA', summary: [] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_x',
          name: 'weather',
          arguments: '{"location":"Oslo"}',
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const { parts } = await drain(
      createChatProvider(gpt54, { fetch }).chat({ messages: conversation, tools, stream: false }),
    );
    expect(parts).toEqual([
      { type: 'reasoning-end', signature: 'gAAA' },
      { type: 'tool-call-start', callId: 'call_x', name: 'weather' },
      { type: 'tool-call-end', callId: 'call_x', arguments: '{"location":"Oslo"}' },
      { type: 'finish', reason: 'tool-calls', rawReason: 'completed', usage: undefined },
    ]);
  });
});

describe('Claude streams', () => {
  it('reads tool_use blocks: partial JSON joined across a ping, an empty input as {}, after thinking and text', async () => {
    const { parts } = await read(configFor('claude'), () => streamResponse(anthropicToolStream));
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'The weather tool fits.' },
      { type: 'reasoning-end', signature: 'EqQBtool' },
      { type: 'text-delta', text: 'Let me look — ☂' },
      { type: 'tool-call-start', callId: 'toolu_01QE', name: 'weather' },
      { type: 'tool-call-delta', callId: 'toolu_01QE', delta: '{"location": "Mün' },
      { type: 'tool-call-delta', callId: 'toolu_01QE', delta: 'chen 🍺"}' },
      { type: 'tool-call-end', callId: 'toolu_01QE', arguments: '{"location": "München 🍺"}' },
      { type: 'tool-call-start', callId: 'toolu_02NA', name: 'time_now' },
      { type: 'tool-call-end', callId: 'toolu_02NA', arguments: '{}' },
      {
        type: 'finish',
        reason: 'tool-calls',
        rawReason: 'tool_use',
        usage: { inputTokens: 420, outputTokens: 96, totalTokens: 516 },
      },
    ]);
  });

  it('reads calls from a non-streamed reply', async () => {
    const reply = {
      type: 'message',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_x', name: 'weather', input: { location: 'Oslo' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 7 },
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const { parts } = await drain(
      createChatProvider(configFor('claude'), { fetch }).chat({
        messages: conversation,
        tools,
        stream: false,
      }),
    );
    expect(parts.slice(0, 3)).toEqual([
      { type: 'text-delta', text: 'Looking.' },
      { type: 'tool-call-start', callId: 'toolu_x', name: 'weather' },
      { type: 'tool-call-end', callId: 'toolu_x', arguments: '{"location":"Oslo"}' },
    ]);
    expect(parts[3]).toMatchObject({ reason: 'tool-calls' });
  });
});

describe('Gemini streams', () => {
  it('reads whole calls, the signature kept for this model, an id made for a call without one, STOP as tool-calls', async () => {
    const { parts } = await read(configFor('gemini', 'models/gemini-3.5-flash'), () =>
      streamResponse(geminiToolStream),
    );
    const second = parts[2] as Extract<StreamPart, { type: 'tool-call-start' }>;
    expect(second.callId).toMatch(/^call_[a-z0-9]+_1$/);
    expect(parts).toEqual([
      { type: 'tool-call-start', callId: 'fc-gem-1', name: 'weather' },
      {
        type: 'tool-call-end',
        callId: 'fc-gem-1',
        arguments: '{"location":"San Francisco — 🌁"}',
        providerData: {
          provider: 'gemini',
          model: 'gemini-3.5-flash',
          data: { thoughtSignature: 'EpEgSig==' },
        },
      },
      { type: 'tool-call-start', callId: second.callId, name: 'time_now' },
      { type: 'tool-call-end', callId: second.callId, arguments: '{}' },
      {
        type: 'finish',
        reason: 'tool-calls',
        rawReason: 'STOP',
        usage: { inputTokens: 60, outputTokens: 824, reasoningTokens: 804, totalTokens: 884 },
      },
    ]);
  });

  it('reads calls from a non-streamed reply', async () => {
    const reply = {
      candidates: [
        {
          content: {
            parts: [
              {
                functionCall: { id: 'g1', name: 'weather', args: { location: 'Oslo' } },
                thoughtSignature: 'S1',
              },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const { parts } = await drain(
      createChatProvider(configFor('gemini'), { fetch }).chat({
        messages: conversation,
        tools,
        stream: false,
      }),
    );
    expect(parts).toEqual([
      { type: 'tool-call-start', callId: 'g1', name: 'weather' },
      {
        type: 'tool-call-end',
        callId: 'g1',
        arguments: '{"location":"Oslo"}',
        providerData: { provider: 'gemini', model: 'gemini-2.5-flash', data: { thoughtSignature: 'S1' } },
      },
      { type: 'finish', reason: 'tool-calls', rawReason: 'STOP', usage: undefined },
    ]);
  });
});

/** The assistant turn a reader would keep from these parts, and results for its calls. */
function loopFrom(parts: StreamPart[]): ChatMessage[] {
  const calls = new Map<string, ChatToolCall>();
  const reasoning: ReasoningPart[] = [];
  let text = '';
  for (const part of parts) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'reasoning-delta') reasoning.push({ type: 'reasoning', text: part.text });
    const last = reasoning.at(-1);
    if (part.type === 'reasoning-end' && last) last.signature = part.signature;
    if (part.type === 'tool-call-start')
      calls.set(part.callId, { id: part.callId, name: part.name, arguments: '' });
    const call = part.type === 'tool-call-end' ? calls.get(part.callId) : undefined;
    if (call && part.type === 'tool-call-end') {
      call.arguments = part.arguments;
      if (part.providerData) call.providerData = part.providerData;
    }
  }
  const toolCalls = [...calls.values()];
  return [
    { role: 'user', content: 'Go' },
    { role: 'assistant', content: text, reasoning, toolCalls },
    {
      role: 'tool',
      content: '',
      toolResults: toolCalls.map(({ id, name }) => ({ callId: id, name, content: 'ok' })),
    },
  ];
}

describe('what goes back on the next turn', () => {
  async function nextBody(config: Config, stream: string, replayTo: Config, effort?: 'low') {
    const { parts } = await read(config, () => streamResponse(stream));
    const { fetch, requests } = fakeFetch(() =>
      streamResponse(replayTo.provider === 'claude' ? anthropicStream : geminiStream),
    );
    await drain(createChatProvider(replayTo, { fetch }).chat({ messages: loopFrom(parts), tools, effort }));
    return requests[0]?.body as { contents?: { parts: unknown[] }[]; messages?: { content: unknown }[] };
  }

  it("sends Gemini's signature back only to the model that wrote it", async () => {
    const writer = configFor('gemini', 'gemini-3.5-flash');
    const same = await nextBody(writer, geminiToolStream, writer);
    expect(same.contents?.[1]?.parts).toEqual([
      {
        functionCall: { id: 'fc-gem-1', name: 'weather', args: { location: 'San Francisco — 🌁' } },
        thoughtSignature: 'EpEgSig==',
      },
      { functionCall: expect.objectContaining({ name: 'time_now', args: {} }) },
    ]);
    const other = await nextBody(writer, geminiToolStream, configFor('gemini', 'gemini-3.1-pro-preview'));
    expect(other.contents?.[1]?.parts[0]).toMatchObject({ thoughtSignature: skipSignature });
    expect(JSON.stringify(other)).not.toContain('EpEgSig==');
  });

  it("keeps Claude's signed thinking before its text and tool_use blocks", async () => {
    const claude = configFor('claude');
    const body = await nextBody(claude, anthropicToolStream, claude, 'low');
    expect(body.messages?.[1]?.content).toEqual([
      { type: 'thinking', thinking: 'The weather tool fits.', signature: 'EqQBtool' },
      { type: 'text', text: 'Let me look — ☂' },
      { type: 'tool_use', id: 'toolu_01QE', name: 'weather', input: { location: 'München 🍺' } },
      { type: 'tool_use', id: 'toolu_02NA', name: 'time_now', input: {} },
    ]);
    expect(body.messages?.[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01QE', content: 'ok' },
      { type: 'tool_result', tool_use_id: 'toolu_02NA', content: 'ok' },
    ]);
  });
});
