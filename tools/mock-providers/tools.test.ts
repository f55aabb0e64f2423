import { describe, expect, it } from 'vitest';
import {
  anthropicHeaders,
  dataPayloads,
  errorMessage,
  namedEvents,
  openaiHeaders,
  rawRequests,
  type RawResponse,
  type SseEvent,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 0 });
const raw = rawRequests(() => mock().url);

/** The weather tool's arguments schema, shared by every API. */
const citySchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string' } },
  required: ['city'],
};
const recipe = (value: unknown) => JSON.stringify(value);
const parisCall = { name: 'weather', arguments: { city: 'Paris' } };
const parisArgs = '{"city":"Paris"}';

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments?: string };
}
interface ChatToolChunk {
  choices: {
    delta: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[]; reasoning?: string };
    finish_reason: string | null;
  }[];
  usage?: Record<string, unknown> | null;
  x_groq?: { id: string; usage?: Record<string, unknown> };
}
interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}
interface ChatReply {
  choices: { message: ChatMessage; finish_reason: string }[];
}

/** The assistant message as a client sends it back: role, content and tool_calls (no refusal or annotations). */
const sentBack = (message: ChatMessage | undefined) => ({
  role: 'assistant',
  content: message?.content ?? null,
  tool_calls: message?.tool_calls,
});

/** Every streamed fragment of every call, by index: the first carries id and name, all carry arguments. */
function callsFrom(chunks: ChatToolChunk[]) {
  const calls: { id?: string; name?: string; arguments: string; fragments: number }[] = [];
  for (const delta of chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])) {
    const call = (calls[delta.index] ??= { arguments: '', fragments: 0 });
    call.id ??= delta.id;
    call.name ??= delta.function.name;
    call.arguments += delta.function.arguments ?? '';
    call.fragments += 1;
  }
  return calls;
}

describe('OpenAI Chat Completions tool calls', () => {
  const weatherTool = {
    type: 'function',
    function: { name: 'weather', description: 'Current weather', parameters: citySchema },
  };
  const timeTool = { type: 'function', function: { name: 'time', parameters: { type: 'object' } } };
  const chat = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/chat/completions', openaiHeaders(key), { model: 'gpt-4o', ...body });
  const streamed = async (key: string, body: Record<string, unknown>) =>
    dataPayloads<ChatToolChunk>(
      (await chat(key, { ...body, stream: true, stream_options: { include_usage: true } })).text,
    );

  it('streams a call as fragments by index: id, type and name first, then the arguments in pieces', async () => {
    const response = await chat('tools.c1', {
      tools: [weatherTool],
      messages: [{ role: 'user', content: recipe({ call: parisCall }) }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = dataPayloads<ChatToolChunk>(response.text);
    expect(chunks[0]?.choices[0]?.delta).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
          type: 'function',
          function: { name: 'weather', arguments: '' },
        },
      ],
      refusal: null,
    });
    const fragments = chunks.slice(1, -2).map((chunk) => chunk.choices[0]?.delta);
    expect(fragments.length).toBeGreaterThan(2);
    for (const delta of fragments) {
      expect(delta).toEqual({ tool_calls: [{ index: 0, function: { arguments: expect.any(String) } }] });
    }
    expect(callsFrom(chunks)).toEqual([
      { id: expect.any(String), name: 'weather', arguments: parisArgs, fragments: fragments.length + 1 },
    ]);
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: expect.any(Number) } });
    expect(response.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('says its recipe text first, then calls; parallel calls get their own indexes and ids', async () => {
    const chunks = await streamed('tools.c2', {
      tools: [weatherTool, timeTool],
      messages: [
        {
          role: 'user',
          content: recipe({
            text: 'Let me check.',
            call: [parisCall, { name: 'time', arguments: { zone: 'CET' } }],
          }),
        },
      ],
    });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Let me check.');
    const calls = callsFrom(chunks);
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['weather', parisArgs],
      ['time', '{"zone":"CET"}'],
    ]);
    expect(calls[0]?.id).not.toBe(calls[1]?.id);
    const firstCall = chunks.findIndex((chunk) => chunk.choices[0]?.delta.tool_calls);
    const lastText = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.content);
    expect(lastText).toBeLessThan(firstCall);
  });

  it('with parallel_tool_calls false keeps the first call', async () => {
    const chunks = await streamed('tools.c3', {
      tools: [weatherTool, timeTool],
      parallel_tool_calls: false,
      messages: [{ role: 'user', content: recipe({ call: [parisCall, 'time'] }) }],
    });
    expect(callsFrom(chunks).map((call) => call.name)).toEqual(['weather']);
  });

  it('without a recipe calls the first tool with its first string parameter set to the user text', async () => {
    const response = await chat('tools.c4', {
      tools: [weatherTool, timeTool],
      messages: [{ role: 'user', content: 'Oslo' }],
    });
    expect(response.json).toMatchObject({
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              {
                id: expect.stringMatching(/^call_/),
                type: 'function',
                function: { name: 'weather', arguments: '{"city":"Oslo"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
  });

  it('a forced tool_choice picks the tool; tool_choice none gets the plain Echo', async () => {
    const forced = await chat('tools.c5', {
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'function', function: { name: 'time' } },
      messages: [{ role: 'user', content: 'Oslo' }],
    });
    expect((forced.json as ChatReply).choices[0]?.message.tool_calls?.map((call) => call.function)).toEqual([
      { name: 'time', arguments: '{}' },
    ]);
    const none = await chat('tools.c5', {
      tools: [weatherTool],
      tool_choice: 'none',
      messages: [{ role: 'user', content: 'Oslo' }],
    });
    expect((none.json as ChatReply).choices[0]).toMatchObject({
      message: { content: 'Echo: Oslo (1 message received)' },
      finish_reason: 'stop',
    });
  });

  it('round trip: the results go back as tool messages, the answer echoes them; the request is recorded', async () => {
    const question = { role: 'user', content: recipe({ call: [parisCall, 'time'] }) };
    const first = await chat('tools.c6', { tools: [weatherTool, timeTool], messages: [question] });
    const assistant = sentBack((first.json as ChatReply).choices[0]?.message);
    const [weather, time] = assistant.tool_calls ?? [];
    const second = {
      model: 'gpt-4o',
      tools: [weatherTool, timeTool],
      stream: true,
      messages: [
        question,
        assistant,
        { role: 'tool', tool_call_id: weather?.id, content: 'Sunny, 21 °C' },
        { role: 'tool', tool_call_id: time?.id, content: [{ type: 'text', text: '12:00' }] },
      ],
    };
    const answer = dataPayloads<ChatToolChunk>(
      (await raw('POST', '/v1/chat/completions', openaiHeaders('tools.c6'), second)).text,
    );
    expect(answer.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'Tool results: weather: Sunny, 21 °C; time: 12:00',
    );
    expect(answer.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    const recorded = await raw('GET', '/__mock/requests?key=tools.c6');
    expect((recorded.json as { body: unknown }[]).map((entry) => entry.body).at(-1)).toEqual(second);
  });

  it('"rounds" asks for tools again until that many rounds of results came back', async () => {
    const question = { role: 'user', content: recipe({ call: parisCall, rounds: 2 }) };
    const step = async (messages: unknown[]) =>
      (await chat('tools.c7', { tools: [weatherTool], messages })).json as ChatReply;
    const first = (await step([question])).choices[0]?.message;
    const result = (message: ChatMessage | undefined, content: string) => ({
      role: 'tool',
      tool_call_id: message?.tool_calls?.[0]?.id,
      content,
    });
    const history = [question, sentBack(first), result(first, 'Rain')];
    const second = (await step(history)).choices[0]?.message;
    expect(second?.tool_calls?.[0]?.function).toEqual({ name: 'weather', arguments: parisArgs });
    const third = await step([...history, sentBack(second), result(second, 'Sun')]);
    expect(third.choices[0]?.message.content).toBe('Tool results: weather: Sun');
  });

  it('Azure streams the same fragments, keys in its own order, finish_reason tool_calls', async () => {
    const path = '/openai/deployments/prod/chat/completions?api-version=2024-10-21';
    const response = await raw(
      'POST',
      path,
      { 'api-key': 'tools.z1' },
      {
        tools: [weatherTool],
        messages: [{ role: 'user', content: recipe({ call: parisCall }) }],
        stream: true,
      },
    );
    const chunks = dataPayloads<ChatToolChunk>(response.text).filter((chunk) => chunk.choices.length > 0);
    expect(Object.keys(chunks[0]?.choices[0]?.delta ?? {})).toEqual([
      'content',
      'refusal',
      'role',
      'tool_calls',
    ]);
    expect(callsFrom(chunks)).toMatchObject([{ name: 'weather', arguments: parisArgs }]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  const callMessage = (id: string, args: unknown = '{}') => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'weather', arguments: args } }],
  });
  const hi = { role: 'user', content: 'Hi' };
  it.each([
    [
      'a flat (Responses-shaped) tool',
      { tools: [{ type: 'function', name: 'weather', parameters: citySchema }], messages: [hi] },
      "Missing required parameter: 'tools[0].function'.",
      { param: 'tools[0].function', code: 'missing_required_parameter' },
    ],
    [
      'a tool name with a dot',
      { tools: [{ type: 'function', function: { name: 'mcp.weather' } }], messages: [hi] },
      "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      { param: 'tools[0].function.name', code: 'invalid_value' },
    ],
    [
      'a tool name over 64 characters',
      { tools: [{ type: 'function', function: { name: 'w'.repeat(70) } }], messages: [hi] },
      "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 70 instead.",
      { param: 'tools[0].function.name', code: 'string_above_max_length' },
    ],
    [
      'an empty tools array',
      { tools: [], messages: [hi] },
      "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      { param: 'tools', code: 'empty_array' },
    ],
    [
      'tool_choice without tools',
      { tool_choice: 'auto', messages: [hi] },
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      { param: 'tool_choice', code: null },
    ],
    [
      'an assistant tool call with no tool message after it',
      { tools: [weatherTool], messages: [hi, callMessage('call_1'), { role: 'user', content: 'Well?' }] },
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
      { param: 'messages.[2].role', code: null },
    ],
    [
      'a tool message with no tool call before it',
      { tools: [weatherTool], messages: [hi, { role: 'tool', tool_call_id: 'call_1', content: 'Sun' }] },
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      { param: 'messages.[1].role', code: null },
    ],
    [
      'a tool message answering another id',
      {
        tools: [weatherTool],
        messages: [hi, callMessage('call_1'), { role: 'tool', tool_call_id: 'call_2', content: 'Sun' }],
      },
      "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
      { param: 'messages.[2].tool_call_id', code: null },
    ],
    [
      'call arguments sent as an object',
      {
        tools: [weatherTool],
        messages: [
          hi,
          callMessage('call_1', { city: 'Paris' }),
          { role: 'tool', tool_call_id: 'call_1', content: 'Sun' },
        ],
      },
      "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got object instead.",
      { param: 'messages[1].tool_calls[0].function.arguments', code: 'invalid_type' },
    ],
  ])('refuses %s with the 400 OpenAI gives', async (_case, body, message, fields) => {
    const response = await chat('ok.cv', body);
    expect([response.status, response.json]).toEqual([
      400,
      { error: { message, type: 'invalid_request_error', ...fields } },
    ]);
  });
});

describe('Groq tool calls', () => {
  const weatherTool = { type: 'function', function: { name: 'weather', parameters: citySchema } };
  const groq = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/openai/v1/chat/completions', openaiHeaders(key), {
      model: 'llama-3.3-70b-versatile',
      tools: [weatherTool],
      ...body,
    });
  const ask = (content: string) => [{ role: 'user', content }];

  it('streams each call whole, arguments in one delta, between x_groq chunks', async () => {
    const chunks = dataPayloads<ChatToolChunk>(
      (await groq('tools.q1', { messages: ask(recipe({ call: parisCall })), stream: true })).text,
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: null },
      {
        tool_calls: [
          {
            id: expect.stringMatching(/^[a-z0-9]{9}$/),
            type: 'function',
            function: { name: 'weather', arguments: parisArgs },
            index: 0,
          },
        ],
      },
      {},
    ]);
    expect(Object.keys(chunks[1]?.choices[0]?.delta.tool_calls?.[0] ?? {})).toEqual([
      'id',
      'type',
      'function',
      'index',
    ]);
    expect(chunks[0]).toMatchObject({ x_groq: { id: expect.stringMatching(/^req_/) } });
    expect(chunks[2]).toMatchObject({
      choices: [{ finish_reason: 'tool_calls' }],
      x_groq: { usage: { completion_tokens: expect.any(Number) } },
    });
  });

  it('round trip: not streamed, the call has no content key; the results come back as text', async () => {
    const first = await groq('tools.q2', { messages: ask('Oslo') });
    const message = (first.json as ChatReply).choices[0]?.message;
    expect(message).toEqual({
      role: 'assistant',
      tool_calls: [
        {
          id: expect.any(String),
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Oslo"}' },
        },
      ],
    });
    const second = await groq('tools.q2', {
      messages: [
        ...ask('Oslo'),
        message,
        { role: 'tool', tool_call_id: message?.tool_calls?.[0]?.id, content: 'Snow' },
      ],
    });
    expect((second.json as ChatReply).choices[0]?.message.content).toBe('Tool results: weather: Snow');
  });

  const failed = {
    message:
      "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
    type: 'invalid_request_error',
    code: 'tool_use_failed',
  };
  it.each([false, true])(
    'tools-failed: a 400 tool_use_failed before anything streams (stream %s)',
    async (stream) => {
      const response = await groq('tools-failed.q3', { messages: ask(recipe({ call: parisCall })), stream });
      expect([response.status, response.json]).toEqual([
        400,
        { error: { ...failed, failed_generation: `<function=weather${parisArgs}</function>` } },
      ]);
    },
  );

  it('tools-failed-late: the stream is one event: error with tool_use_failed; not streamed, the 400', async () => {
    const streamed = await groq('tools-failed-late.q4', { messages: ask('Oslo'), stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(namedEvents(streamed.text)).toEqual([
      {
        name: 'error',
        data: {
          error: {
            ...failed,
            failed_generation: 'Tool use failed: JSON does not match the expected schema for tool calls',
            status_code: 400,
          },
        },
      },
    ]);
    const whole = await groq('tools-failed-late.q4', { messages: ask('Oslo') });
    expect([whole.status, (whole.json as { error: { code: string } }).error.code]).toEqual([
      400,
      'tool_use_failed',
    ]);
  });

  it('checks calls against the tools: a missing required parameter is tool_use_failed, unless validation is off', async () => {
    const refused = await groq('tools.q5', { messages: ask(recipe({ call: 'weather' })) });
    expect([refused.status, refused.json]).toEqual([
      400,
      {
        error: {
          message:
            "tool call validation failed: parameters for tool weather did not match schema: errors: [missing properties: 'city']",
          type: 'invalid_request_error',
          code: 'tool_use_failed',
        },
      },
    ]);
    const unchecked = await groq('tools.q5', {
      messages: ask(recipe({ call: 'weather' })),
      disable_tool_validation: true,
    });
    expect((unchecked.json as ChatReply).choices[0]?.message.tool_calls?.[0]?.function.arguments).toBe('{}');
  });

  it('tools-thinking on a reasoning model: parsed reasoning (the default with tools) before the call', async () => {
    const chunks = dataPayloads<ChatToolChunk>(
      (await groq('tools-thinking.q7', { model: 'qwen/qwen3-32b', messages: ask('Oslo'), stream: true }))
        .text,
    );
    const reasoning = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.reasoning);
    const call = chunks.findIndex((chunk) => chunk.choices[0]?.delta.tool_calls);
    expect(reasoning).toBeGreaterThan(0);
    expect(call).toBeGreaterThan(reasoning);
    expect(chunks.at(-1)).toMatchObject({
      usage: { completion_tokens_details: { reasoning_tokens: expect.any(Number) } },
    });
  });

  it('refuses a flat tool in its own words', async () => {
    const response = await groq('ok.q6', {
      tools: [{ type: 'function', name: 'weather', parameters: citySchema }],
      messages: ask('Hi'),
    });
    expect([response.status, errorMessage(response)]).toEqual([
      400,
      "'tools.0' : property 'function' is missing",
    ]);
  });
});

interface ResponsesItem {
  id: string;
  type: string;
  status?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  encrypted_content?: string;
  summary?: unknown[];
  content?: { text: string }[];
}
interface ResponsesBody {
  output: ResponsesItem[];
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  status: string;
}

describe('OpenAI Responses tool calls', () => {
  const weatherTool = {
    type: 'function',
    name: 'weather',
    description: 'Current weather',
    parameters: citySchema,
  };
  const base = {
    model: 'gpt-5.4',
    store: false,
    include: ['reasoning.encrypted_content'],
    tools: [weatherTool],
  };
  const responses = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/responses', openaiHeaders(key), { ...base, ...body });
  const ask = (content: string) => [{ role: 'user', content }];

  it('streams a reasoning item, then the function_call item: added, argument deltas, done; the calls in response.completed', async () => {
    const events = namedEvents(
      (await responses('tools.r1', { input: ask(recipe({ call: parisCall })), stream: true })).text,
    );
    expect(events.map((event) => event.name)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      ...Array<string>(5).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
    const added = events[4]?.data.item as ResponsesItem;
    expect(added).toEqual({
      id: expect.stringMatching(/^fc_[0-9a-f]{48}$/),
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: expect.stringMatching(/^call_/),
      name: 'weather',
    });
    const deltas = events.filter((event) => event.name === 'response.function_call_arguments.delta');
    expect(deltas.map((event) => event.data.delta).join('')).toBe(parisArgs);
    expect(deltas[0]?.data).toMatchObject({
      item_id: added.id,
      output_index: 1,
      obfuscation: expect.any(String),
    });
    expect(events[10]?.data).toMatchObject({ item_id: added.id, output_index: 1, arguments: parisArgs });
    expect(events[11]?.data.item).toEqual({ ...added, status: 'completed', arguments: parisArgs });
    const response = events[12]?.data.response as ResponsesBody;
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(response.output[0]?.encrypted_content).toMatch(/^gAAAA/);
    expect(response).toMatchObject({
      status: 'completed',
      tool_choice: 'auto',
      parallel_tool_calls: true,
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Current weather',
          parameters: { ...citySchema, additionalProperties: false },
          strict: true,
        },
      ],
    });
  });

  it('text before the calls is a message item; parallel calls are items of their own', async () => {
    const first = await responses('tools.r2', {
      input: ask(
        recipe({ text: 'Checking.', call: [parisCall, { name: 'weather', arguments: { city: 'Rome' } }] }),
      ),
    });
    const output = (first.json as ResponsesBody).output;
    expect(output.map((item) => [item.type, item.arguments ?? item.content?.[0]?.text])).toEqual([
      ['reasoning', undefined],
      ['message', 'Checking.'],
      ['function_call', parisArgs],
      ['function_call', '{"city":"Rome"}'],
    ]);
    expect(output[2]?.call_id).not.toBe(output[3]?.call_id);
  });

  it('round trip with store false: reasoning, calls and outputs go back; the answer echoes the outputs', async () => {
    const question = ask(recipe({ call: [parisCall, { name: 'weather', arguments: { city: 'Rome' } }] }));
    const first = (await responses('tools.r3', { input: question })).json as ResponsesBody;
    const [reasoning, paris, rome] = first.output;
    const back = (item: ResponsesItem | undefined) => ({
      type: 'function_call',
      call_id: item?.call_id,
      name: item?.name,
      arguments: item?.arguments,
    });
    const output = (item: ResponsesItem | undefined, text: string) => ({
      type: 'function_call_output',
      call_id: item?.call_id,
      output: text,
    });
    const second = await responses('tools.r3', {
      input: [
        ...question,
        { type: 'reasoning', encrypted_content: reasoning?.encrypted_content, summary: [] },
        back(paris),
        back(rome),
        output(paris, 'Sun'),
        output(rome, 'Rain'),
      ],
      stream: true,
    });
    const events = namedEvents(second.text);
    const text = events
      .filter((event) => event.name === 'response.output_text.delta')
      .map((event) => event.data.delta);
    expect(text.join('')).toBe('Tool results: weather: Sun; weather: Rain');
    expect((events.at(-1)?.data.response as ResponsesBody).output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
    ]);
  });

  const call = { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: parisArgs };
  const output = { type: 'function_call_output', call_id: 'call_1', output: 'Sun' };
  it.each([
    [
      'a Chat-shaped tool',
      {
        tools: [{ type: 'function', function: { name: 'weather', parameters: citySchema } }],
        input: ask('Hi'),
      },
      400,
      {
        message: "Missing required parameter: 'tools[0].name'.",
        param: 'tools[0].name',
        code: 'missing_required_parameter',
      },
    ],
    [
      'a function_call_output without its function_call',
      { input: [...ask('Hi'), output] },
      400,
      {
        message: 'No tool call found for function call output with call_id call_1.',
        param: 'input',
        code: null,
      },
    ],
    [
      'a function_call without its output',
      { input: [...ask('Hi'), call, ...ask('Well?')] },
      400,
      { message: 'No tool output found for function call call_1.', param: 'input', code: null },
    ],
    [
      'a function call sent as an item_reference (store true)',
      { store: true, input: [...ask('Hi'), { type: 'item_reference', id: 'fc_1' }, output] },
      400,
      {
        message: 'No tool call found for function call output with call_id call_1.',
        param: 'input',
        code: null,
      },
    ],
    [
      'an item_reference with store false',
      { input: [...ask('Hi'), { type: 'item_reference', id: 'fc_1' }, output] },
      404,
      {
        message:
          "Item with id 'fc_1' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
        param: 'input',
        code: null,
      },
    ],
  ])('refuses %s', async (_case, body, status, fields) => {
    const response = await responses('ok.rv', body);
    expect([response.status, response.json]).toEqual([
      status,
      { error: { type: 'invalid_request_error', ...fields } },
    ]);
  });

  it('takes the pairing on trust when previous_response_id holds the earlier items', async () => {
    const response = await responses('tools.r4', { previous_response_id: 'resp_1', input: [output] });
    expect(response.status).toBe(200);
  });
});

interface ClaudeBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
}

describe('Anthropic tool calls', () => {
  const weatherTool = { name: 'weather', description: 'Current weather', input_schema: citySchema };
  const base = { model: 'claude-sonnet-4-5', max_tokens: 4096, tools: [weatherTool] };
  const thinkingOn = { thinking: { type: 'enabled', budget_tokens: 1024 } };
  const claude = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/messages', anthropicHeaders(key), { ...base, ...body });
  const ask = (content: string) => [{ role: 'user', content }];
  const blocksOf = (response: RawResponse) => (response.json as { content: ClaudeBlock[] }).content;
  const deltasAt = (events: SseEvent[], index: number) =>
    events
      .filter((event) => event.name === 'content_block_delta' && event.data.index === index)
      .map((event) => event.data.delta as { type: string; partial_json?: string });

  it('streams text, then a tool_use block: empty input, input_json_delta pieces (the first empty), stop_reason tool_use', async () => {
    const events = namedEvents(
      (
        await claude('tools.a1', {
          messages: ask(recipe({ text: 'Checking.', call: parisCall })),
          stream: true,
        })
      ).text,
    );
    const json = deltasAt(events, 1);
    const text = deltasAt(events, 0);
    expect(text.map((delta) => (delta as { text?: string }).text).join('')).toBe('Checking.');
    expect(events.map((event) => event.name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(text.length).fill('content_block_delta'),
      'content_block_stop',
      'content_block_start',
      ...Array<string>(json.length).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[4 + text.length]?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_01[A-Za-z0-9]{22}$/),
        name: 'weather',
        input: {},
      },
    });
    expect(json[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(json.length).toBeGreaterThan(2);
    expect(json.map((delta) => delta.partial_json).join('')).toBe(parisArgs);
    expect(events.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: expect.any(Number) },
    });
  });

  it('a turn of calls only starts at block 0 with ping after it; a call without arguments streams only the empty piece', async () => {
    const events = namedEvents(
      (await claude('tools.a2', { messages: ask(recipe({ call: ['weather', parisCall] })), stream: true }))
        .text,
    );
    expect(events.slice(1, 3).map((event) => event.name)).toEqual(['content_block_start', 'ping']);
    expect(events[1]?.data).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'weather' } });
    expect(deltasAt(events, 0)).toEqual([{ type: 'input_json_delta', partial_json: '' }]);
    expect(
      deltasAt(events, 1)
        .map((delta) => delta.partial_json)
        .join(''),
    ).toBe(parisArgs);
  });

  it('under tools too, a request with thinking on gets its thinking before the calls', async () => {
    const response = await claude('tools.a6', { ...thinkingOn, messages: ask('Oslo') });
    expect(blocksOf(response).map((block) => block.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'tool_use',
    ]);
  });

  it('disable_parallel_tool_use keeps the first call', async () => {
    const response = await claude('tools.a3', {
      messages: ask(recipe({ call: [parisCall, 'weather'] })),
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(blocksOf(response).map((block) => block.type)).toEqual(['tool_use']);
  });

  it('round trip: the content goes back as it came, the results in the next user message', async () => {
    const question = ask(recipe({ text: 'Checking.', call: [parisCall, 'weather'] }));
    const first = await claude('tools.a4', { messages: question });
    const content = blocksOf(first);
    expect(content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: expect.any(String), name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: expect.any(String), name: 'weather', input: {} },
    ]);
    expect((first.json as { stop_reason: string }).stop_reason).toBe('tool_use');
    const results = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: content[1]?.id, content: 'Sun' },
        {
          type: 'tool_result',
          tool_use_id: content[2]?.id,
          content: [{ type: 'text', text: 'Which city?' }],
          is_error: true,
        },
      ],
    };
    const second = await claude('tools.a4', {
      messages: [...question, { role: 'assistant', content }, results],
    });
    expect(blocksOf(second)).toEqual([
      { type: 'text', text: 'Tool results: weather: Sun; weather: Which city?' },
    ]);
  });

  it('tools-thinking: a signed thinking block comes before the tool_use, and must go back unchanged', async () => {
    const question = ask(recipe({ call: parisCall }));
    const events = namedEvents(
      (await claude('tools-thinking.a5', { ...thinkingOn, messages: question, stream: true })).text,
    );
    const starts = events
      .filter((event) => event.name === 'content_block_start')
      .map((event) => event.data.content_block);
    expect(starts).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'redacted_thinking', data: expect.stringMatching(/^redacted_/) },
      { type: 'tool_use', id: expect.any(String), name: 'weather', input: {} },
    ]);
    expect(deltasAt(events, 0).at(-1)).toEqual({
      type: 'signature_delta',
      signature: expect.stringMatching(/^sig_/),
    });

    const first = await claude('tools-thinking.a5', { ...thinkingOn, messages: question });
    const content = blocksOf(first);
    expect(content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    const [thinking, redacted, toolUse] = content;
    const results = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUse?.id, content: 'Sun' }],
    };
    const next = (assistant: unknown[]) =>
      claude('tools-thinking.a5', {
        ...thinkingOn,
        messages: [...question, { role: 'assistant', content: assistant }, results],
      });
    const accepted = await next(content);
    expect(blocksOf(accepted).at(-1)).toEqual({ type: 'text', text: 'Tool results: weather: Sun' });
    const dropped = await next([toolUse]);
    expect([dropped.status, errorMessage(dropped)]).toEqual([
      400,
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    ]);
    const altered = await next([
      { ...thinking, thinking: `${thinking?.thinking ?? ''} ` },
      redacted,
      toolUse,
    ]);
    expect([altered.status, errorMessage(altered)]).toEqual([
      400,
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    ]);
  });

  const toolUse = { type: 'tool_use', id: 'toolu_01A', name: 'weather', input: { city: 'Paris' } };
  const toolResult = { type: 'tool_result', tool_use_id: 'toolu_01A', content: 'Sun' };
  it.each([
    [
      'an OpenAI-shaped tool',
      {
        tools: [{ type: 'function', function: { name: 'weather', parameters: citySchema } }],
        messages: ask('Hi'),
      },
      "tools.0: Input tag 'function' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728', 'web_search_20250305'",
    ],
    [
      'a tool with parameters instead of input_schema',
      { tools: [{ name: 'weather', parameters: citySchema }], messages: ask('Hi') },
      'tools.0.custom.input_schema: Field required',
    ],
    [
      'a tool name with a dot',
      { tools: [{ name: 'mcp.weather', input_schema: citySchema }], messages: ask('Hi') },
      "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
    ],
    [
      'an input_schema that is not an object schema',
      { tools: [{ name: 'weather', input_schema: { type: 'array' } }], messages: ask('Hi') },
      "tools.0.custom.input_schema.type: Input should be 'object'",
    ],
    [
      'a string tool_choice',
      { tool_choice: 'auto', messages: ask('Hi') },
      'tool_choice: Input should be a valid dictionary or object to extract fields from',
    ],
    [
      'a forced tool_choice with thinking enabled',
      { ...thinkingOn, tool_choice: { type: 'any' }, messages: ask('Hi') },
      'Thinking may not be enabled when tool_choice forces tool use.',
    ],
    [
      'a tool_use without a tool_result right after',
      { messages: [...ask('Hi'), { role: 'assistant', content: [toolUse] }, ...ask('Well?')] },
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01A. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    [
      'a tool_result without its tool_use',
      {
        messages: [
          ...ask('Hi'),
          { role: 'assistant', content: 'Sure.' },
          { role: 'user', content: [toolResult] },
        ],
      },
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01A. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
  ])('refuses %s', async (_case, body, message) => {
    const response = await claude('ok.av', body);
    expect([response.status, errorMessage(response)]).toEqual([400, message]);
    expect(response.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: Record<string, unknown>; id: string };
}
interface GeminiChunk {
  candidates: { content: { parts: GeminiPart[]; role: string }; finishReason?: string }[];
  usageMetadata: Record<string, number>;
}

describe('Gemini tool calls', () => {
  const tools = [
    { functionDeclarations: [{ name: 'weather', description: 'Current weather', parameters: citySchema }] },
  ];
  const gemini = (model: string, key: string, body: Record<string, unknown>, stream = false) =>
    raw(
      'POST',
      `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      { 'x-goog-api-key': key },
      { tools, ...body },
    );
  const ask = (text: string) => [{ role: 'user', parts: [{ text }] }];
  const two = recipe({ call: [parisCall, { name: 'weather', arguments: { city: 'Rome' } }] });
  const partsOf = (response: RawResponse) =>
    (response.json as GeminiChunk).candidates[0]?.content.parts ?? [];

  it('Gemini 3 streams every call whole in one chunk, a signature on the first only, then an empty text part with STOP', async () => {
    const chunks = dataPayloads<GeminiChunk>(
      (await gemini('gemini-3-pro-preview', 'tools.g1', { contents: ask(two) }, true)).text,
    );
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.candidates[0]).toEqual({
      content: {
        parts: [
          {
            functionCall: {
              name: 'weather',
              args: { city: 'Paris' },
              id: expect.stringMatching(/^[a-z0-9]{8}$/),
            },
            thoughtSignature: expect.any(String),
          },
          { functionCall: { name: 'weather', args: { city: 'Rome' }, id: expect.any(String) } },
        ],
        role: 'model',
      },
      index: 0,
    });
    expect(chunks[1]?.candidates[0]).toEqual({
      content: { parts: [{ text: '' }], role: 'model' },
      finishReason: 'STOP',
      index: 0,
    });
  });

  it('a 2.5 model outside tools-thinking signs nothing', async () => {
    const parts = partsOf(await gemini('gemini-2.5-flash', 'tools.g2', { contents: ask('Oslo') }));
    expect(parts).toEqual([
      { functionCall: { name: 'weather', args: { city: 'Oslo' }, id: expect.any(String) } },
    ]);
  });

  it('tools-thinking: thought parts first, then the call with its signature, thoughts counted', async () => {
    const body = {
      contents: ask(recipe({ call: parisCall })),
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    };
    const chunks = dataPayloads<GeminiChunk>(
      (await gemini('gemini-2.5-flash', 'tools-thinking.g3', body, true)).text,
    );
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const firstCall = parts.findIndex((part) => part.functionCall);
    expect(firstCall).toBeGreaterThan(0);
    expect(parts.slice(0, firstCall).every((part) => part.thought)).toBe(true);
    expect(parts[firstCall]).toMatchObject({
      functionCall: { name: 'weather' },
      thoughtSignature: expect.any(String),
    });
    expect(chunks.at(-1)?.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
  });

  it('round trip on Gemini 3: the model parts go back as they came, the responses echoed; a lost signature is refused, the sentinel passes', async () => {
    const question = ask(two);
    const first = await gemini('gemini-3-pro-preview', 'tools.g4', { contents: question });
    const parts = partsOf(first);
    const responses = {
      role: 'user',
      parts: parts.map((part) => ({
        functionResponse: {
          id: part.functionCall?.id,
          name: 'weather',
          response: { name: 'weather', content: part.functionCall?.args.city === 'Paris' ? 'Sun' : 'Rain' },
        },
      })),
    };
    const next = (modelParts: GeminiPart[]) =>
      gemini('gemini-3-pro-preview', 'tools.g4', {
        contents: [...question, { role: 'model', parts: modelParts }, responses],
      });
    const accepted = await next(parts);
    expect(partsOf(accepted)).toEqual([{ text: 'Tool results: weather: Sun; weather: Rain' }]);
    const [signed, other] = parts;
    const unsigned = { functionCall: signed?.functionCall };
    const dropped = await next([unsigned, other ?? {}]);
    expect([dropped.status, dropped.json]).toEqual([
      400,
      {
        error: {
          code: 400,
          message:
            'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ]);
    const sentinel = await next([
      { ...unsigned, thoughtSignature: 'skip_thought_signature_validator' },
      other ?? {},
    ]);
    expect(sentinel.status).toBe(200);
    const forged = await next([
      { ...unsigned, thoughtSignature: `${signed?.thoughtSignature ?? ''}x` },
      other ?? {},
    ]);
    expect([forged.status, errorMessage(forged)]).toEqual([400, 'Corrupted thought signature.']);
    const onText = await gemini('gemini-2.5-flash', 'tools.g4', {
      contents: [...question, { role: 'model', parts: [unsigned, other ?? {}] }, responses],
    });
    expect(onText.status).toBe(200);
  });

  it('takes back the empty text part that only carries a signature', async () => {
    const reply = await gemini('gemini-2.5-flash', 'ok.g6', {
      contents: [
        ...ask('Hi'),
        { role: 'model', parts: [{ text: 'Hello' }, { text: '', thoughtSignature: 'c2ln' }] },
        ...ask('More'),
      ],
    });
    expect(reply.status).toBe(200);
  });

  it('toolConfig NONE answers with the Echo; ANY with one allowed name calls it', async () => {
    const none = await gemini('gemini-2.5-flash', 'tools.g5', {
      contents: ask('Oslo'),
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
    });
    expect(partsOf(none)).toEqual([{ text: 'Echo: Oslo (1 message received)' }]);
    const forced = await gemini('gemini-2.5-flash', 'tools.g5', {
      tools: [{ functionDeclarations: [...(tools[0]?.functionDeclarations ?? []), { name: 'time' }] }],
      contents: ask('Oslo'),
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['time'] } },
    });
    expect(partsOf(forced)).toMatchObject([{ functionCall: { name: 'time', args: {} } }]);
  });

  const call = { functionCall: { name: 'weather', args: { city: 'Paris' } } };
  const response = { functionResponse: { name: 'weather', response: { content: 'Sun' } } };
  it.each([
    [
      'an OpenAI-shaped tool',
      { tools: [{ type: 'function', function: { name: 'weather' } }], contents: ask('Hi') },
      `Invalid JSON payload received. Unknown name "type" at 'tools[0]': Cannot find field.`,
    ],
    [
      'function names that do not fit the pattern, one line each',
      {
        tools: [{ functionDeclarations: [{ name: '1weather' }, { name: 'get weather' }] }],
        contents: ask('Hi'),
      },
      [0, 1]
        .map(
          (index) =>
            `* GenerateContentRequest.tools[0].function_declarations[${index}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.\n`,
        )
        .join(''),
    ],
    [
      'fewer function responses than calls',
      {
        contents: [...ask('Hi'), { role: 'model', parts: [call, call] }, { role: 'user', parts: [response] }],
      },
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    ],
    [
      'a function call turn right after a model turn',
      {
        contents: [
          ...ask('Hi'),
          { role: 'model', parts: [{ text: 'Sure.' }] },
          { role: 'model', parts: [call] },
        ],
      },
      'Please ensure that function call turns come immediately after a user turn or after a function response turn.',
    ],
  ])('refuses %s', async (_case, body, message) => {
    const reply = await gemini('gemini-2.5-flash', 'ok.gv', body);
    expect([reply.status, reply.json]).toEqual([
      400,
      { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
    ]);
  });
});
