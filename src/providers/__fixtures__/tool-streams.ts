/**
 * Tool-call streams in each API's recorded shape (docs/providers.md#tool-calling): OpenAI's
 * fragments by index, a compatible server's nameless-then-empty arguments, Groq's whole
 * arguments and its tool_use_failed event, Responses function_call items (and gpt-5.4's
 * `parallel` wrapper), Claude's tool_use blocks with partial JSON, Gemini's whole calls with a
 * thought signature on the first.
 */

const sse = (payloads: readonly unknown[]) =>
  payloads
    .map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`)
    .join('');

const openaiChunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-T1',
  object: 'chat.completion.chunk',
  created: 1764000000,
  model: 'gpt-4o-2024-08-06',
  service_tier: 'default',
  system_fingerprint: 'fp_t1',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  usage: null,
  obfuscation: 'o',
});

const fragment = (index: number, args: string) => ({
  tool_calls: [{ index, function: { arguments: args } }],
});

/** Text, then two parallel calls: id, type and name only in each call's first fragment. */
export const openaiToolStream = sse([
  openaiChunk({ role: 'assistant', content: null, refusal: null }),
  openaiChunk({ content: 'Checking ☀' }),
  openaiChunk({
    tool_calls: [
      { index: 0, id: 'call_O17Uplv4', type: 'function', function: { name: 'weather', arguments: '' } },
    ],
  }),
  openaiChunk(fragment(0, '{"')),
  openaiChunk(fragment(0, 'location')),
  openaiChunk(fragment(0, '":"Zürich 🏔"}')),
  openaiChunk({
    tool_calls: [
      { index: 1, id: 'call_Pq82xT', type: 'function', function: { name: 'time_in', arguments: '' } },
    ],
  }),
  openaiChunk(fragment(1, '{"city":')),
  openaiChunk(fragment(1, '"東京"}')),
  openaiChunk({}, 'tool_calls'),
  {
    ...openaiChunk({}),
    choices: [],
    usage: { prompt_tokens: 53, completion_tokens: 17, total_tokens: 70 },
  },
  '[DONE]',
]);

/**
 * A compatible server that names a call without an `arguments` key, and sends `arguments: ""` in
 * the chunk that finishes the reply; every delta carries `tool_calls` (null when none).
 */
export const compatibleNoArgumentsStream = sse([
  {
    choices: [
      { index: 0, delta: { role: 'assistant', content: null, tool_calls: null }, finish_reason: null },
    ],
  },
  {
    choices: [
      {
        index: 0,
        delta: {
          content: null,
          tool_calls: [{ index: 0, id: 'call_local1', type: 'function', function: { name: 'now' } }],
        },
        finish_reason: null,
      },
    ],
  },
  {
    choices: [
      {
        index: 0,
        delta: { content: null, tool_calls: [{ index: 0, function: { arguments: '' } }] },
        finish_reason: 'tool_calls',
      },
    ],
  },
  '[DONE]',
]);

/** Groq: a call's whole arguments in one delta, usage in x_groq. */
export const groqToolStream = sse([
  {
    id: 'chatcmpl-GT',
    object: 'chat.completion.chunk',
    created: 1764000001,
    model: 'llama-3.3-70b-versatile',
    choices: [{ index: 0, delta: { role: 'assistant', content: null }, logprobs: null, finish_reason: null }],
    x_groq: { id: 'req_01kh', seed: 689520654 },
  },
  {
    id: 'chatcmpl-GT',
    object: 'chat.completion.chunk',
    created: 1764000001,
    model: 'llama-3.3-70b-versatile',
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              id: 'tk85n1k4m',
              type: 'function',
              function: { name: 'weather', arguments: '{"location":"Köln"}' },
              index: 0,
            },
          ],
        },
        logprobs: null,
        finish_reason: null,
      },
    ],
  },
  {
    id: 'chatcmpl-GT',
    object: 'chat.completion.chunk',
    created: 1764000001,
    model: 'llama-3.3-70b-versatile',
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }],
    x_groq: {
      id: 'req_01kh',
      usage: {
        queue_time: 0.01,
        prompt_tokens: 210,
        completion_tokens: 18,
        total_tokens: 228,
        total_time: 0.02,
      },
    },
  },
  '[DONE]',
]);

/** Groq refusing the model's call mid-stream (`event: error`, code tool_use_failed). */
export const groqToolUseFailedStream = `data: ${JSON.stringify({
  id: 'chatcmpl-GF',
  object: 'chat.completion.chunk',
  created: 1764000002,
  model: 'llama-3.3-70b-versatile',
  choices: [{ index: 0, delta: { role: 'assistant', content: null }, logprobs: null, finish_reason: null }],
  x_groq: { id: 'req_01kf' },
})}

event: error
data: {"error":{"message":"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"Tool use failed: JSON does not match the expected schema for tool calls","status_code":400}}

`;

const responsesEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const responseObject = (status: string, output: unknown[], usage: unknown = null) => ({
  id: 'resp_t1',
  object: 'response',
  status,
  model: 'gpt-5.4',
  output,
  parallel_tool_calls: true,
  tool_choice: 'auto',
  usage,
  store: false,
});

const weatherCall = {
  id: 'fc_0404a',
  type: 'function_call',
  status: 'completed',
  arguments: '{"location":"San Francisco — “SF” 🌉"}',
  call_id: 'call_H5Dx',
  name: 'weather',
};
const timeCall = {
  id: 'fc_0404b',
  type: 'function_call',
  status: 'completed',
  arguments: '{}',
  call_id: 'call_J7Ky',
  name: 'time_now',
};
const reasoningItem = {
  id: 'rs_t1',
  type: 'reasoning',
  encrypted_content: 'gAAA-tools',
  summary: [{ type: 'summary_text', text: 'Needs the weather.' }],
};

/** A reasoning item, then two function calls, their arguments streamed (the second has none). */
export const openaiResponsesToolStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject('in_progress', []) }),
  responsesEvent('response.output_item.added', {
    sequence_number: 1,
    output_index: 0,
    item: { ...reasoningItem, encrypted_content: 'gAAA-part', summary: [] },
  }),
  responsesEvent('response.reasoning_summary_text.delta', {
    sequence_number: 2,
    item_id: 'rs_t1',
    output_index: 0,
    summary_index: 0,
    delta: 'Needs the weather.',
  }),
  responsesEvent('response.output_item.done', { sequence_number: 3, output_index: 0, item: reasoningItem }),
  responsesEvent('response.output_item.added', {
    sequence_number: 4,
    output_index: 1,
    item: { ...weatherCall, status: 'in_progress', arguments: '' },
  }),
  ...['{"', 'location', '":"San Francisco — “SF” 🌉"}'].map((delta, index) =>
    responsesEvent('response.function_call_arguments.delta', {
      sequence_number: 5 + index,
      item_id: 'fc_0404a',
      output_index: 1,
      delta,
      obfuscation: 'nWru',
    }),
  ),
  responsesEvent('response.function_call_arguments.done', {
    sequence_number: 8,
    item_id: 'fc_0404a',
    output_index: 1,
    arguments: weatherCall.arguments,
  }),
  responsesEvent('response.output_item.done', { sequence_number: 9, output_index: 1, item: weatherCall }),
  responsesEvent('response.output_item.added', {
    sequence_number: 10,
    output_index: 2,
    item: { ...timeCall, status: 'in_progress', arguments: '' },
  }),
  responsesEvent('response.function_call_arguments.delta', {
    sequence_number: 11,
    item_id: 'fc_0404b',
    output_index: 2,
    delta: '{}',
  }),
  responsesEvent('response.output_item.done', { sequence_number: 12, output_index: 2, item: timeCall }),
  responsesEvent('response.completed', {
    sequence_number: 13,
    response: responseObject('completed', [reasoningItem, weatherCall, timeCall], {
      input_tokens: 80,
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 120,
    }),
  }),
].join('');

const wrapperArguments = JSON.stringify({
  tool_uses: [
    { recipient_name: 'functions.weather', parameters: { location: 'San Francisco' } },
    { recipient_name: 'functions.cityAttractions', parameters: { city: 'Rome' } },
  ],
});
const wrapperCall = {
  type: 'function_call',
  id: 'fc_parallel',
  call_id: 'call_parallel',
  name: 'parallel',
  arguments: wrapperArguments,
  status: 'completed',
};

/** gpt-5.4 wrapping two calls in one named `parallel` (its `completed` output is empty, as recorded). */
export const openaiResponsesParallelWrapperStream = [
  responsesEvent('response.created', { response: responseObject('in_progress', []) }),
  responsesEvent('response.output_item.added', {
    output_index: 0,
    item: { ...wrapperCall, arguments: '', status: 'in_progress' },
  }),
  responsesEvent('response.function_call_arguments.delta', {
    item_id: 'fc_parallel',
    output_index: 0,
    delta: wrapperArguments,
  }),
  responsesEvent('response.function_call_arguments.done', {
    item_id: 'fc_parallel',
    output_index: 0,
    arguments: wrapperArguments,
  }),
  responsesEvent('response.output_item.done', { output_index: 0, item: wrapperCall }),
  responsesEvent('response.completed', { response: responseObject('completed', []) }),
].join('');

const anthropicEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/**
 * Thinking, text, then two tool_use blocks: the first's input in partial JSON across deltas (an
 * empty one first, a ping between), the second with no input at all.
 */
export const anthropicToolStream = [
  anthropicEvent('message_start', {
    message: {
      id: 'msg_t1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 420, output_tokens: 1 },
    },
  }),
  anthropicEvent('content_block_start', {
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  }),
  anthropicEvent('content_block_delta', {
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'The weather tool fits.' },
  }),
  anthropicEvent('content_block_delta', {
    index: 0,
    delta: { type: 'signature_delta', signature: 'EqQBtool' },
  }),
  anthropicEvent('content_block_stop', { index: 0 }),
  anthropicEvent('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Let me look — ☂' } }),
  anthropicEvent('content_block_stop', { index: 1 }),
  anthropicEvent('content_block_start', {
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_01QE', name: 'weather', input: {} },
  }),
  anthropicEvent('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
  anthropicEvent('content_block_delta', {
    index: 2,
    delta: { type: 'input_json_delta', partial_json: '{"location": "Mün' },
  }),
  'event: ping\ndata: {"type": "ping"}\n\n',
  anthropicEvent('content_block_delta', {
    index: 2,
    delta: { type: 'input_json_delta', partial_json: 'chen 🍺"}' },
  }),
  anthropicEvent('content_block_stop', { index: 2 }),
  anthropicEvent('content_block_start', {
    index: 3,
    content_block: { type: 'tool_use', id: 'toolu_02NA', name: 'time_now', input: {} },
  }),
  anthropicEvent('content_block_delta', { index: 3, delta: { type: 'input_json_delta', partial_json: '' } }),
  anthropicEvent('content_block_stop', { index: 3 }),
  anthropicEvent('message_delta', {
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 96 },
  }),
  anthropicEvent('message_stop', {}),
].join('');

/**
 * Gemini 3: two parallel calls in one chunk, the signature on the first only, then the empty
 * closing part with finishReason STOP (no tool-specific reason). The second call has no id.
 */
export const geminiToolStream = [
  {
    candidates: [
      {
        content: {
          parts: [
            {
              functionCall: { id: 'fc-gem-1', name: 'weather', args: { location: 'San Francisco — 🌁' } },
              thoughtSignature: 'EpEgSig==',
            },
            { functionCall: { name: 'time_now', args: {} } },
          ],
          role: 'model',
        },
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 60,
      candidatesTokenCount: 20,
      totalTokenCount: 884,
      thoughtsTokenCount: 804,
    },
    modelVersion: 'gemini-3-pro-preview',
  },
  {
    candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: 60,
      candidatesTokenCount: 20,
      totalTokenCount: 884,
      thoughtsTokenCount: 804,
    },
    modelVersion: 'gemini-3-pro-preview',
  },
]
  .map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`)
  .join('');
