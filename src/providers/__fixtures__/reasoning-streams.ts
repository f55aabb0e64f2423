/**
 * Reasoning streams in each provider's documented wire format (docs/providers.md#reasoning):
 * OpenAI's Responses events, Groq `reasoning`, DeepSeek-style `reasoning_content`, `<think>` tags,
 * Claude redacted thinking, and a Gemini 3 thought with its trailing signature part.
 */

const responsesEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const responseObject = {
  id: 'resp_1',
  object: 'response',
  status: 'in_progress',
  model: 'gpt-5.4',
  output: [],
  usage: null,
  store: false,
};

export const responsesUsage = {
  input_tokens: 1501,
  input_tokens_details: { cached_tokens: 1024 },
  output_tokens: 314,
  output_tokens_details: { reasoning_tokens: 100 },
  total_tokens: 1815,
};

export const openaiResponsesStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.in_progress', { sequence_number: 1, response: responseObject }),
  responsesEvent('response.output_item.added', {
    sequence_number: 2,
    output_index: 0,
    item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAA-partial', summary: [] },
  }),
  responsesEvent('response.reasoning_summary_part.added', {
    sequence_number: 3,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  }),
  responsesEvent('response.reasoning_summary_text.delta', {
    sequence_number: 4,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: '**Checking** the sky',
    obfuscation: 'x1',
  }),
  responsesEvent('response.reasoning_summary_text.delta', {
    sequence_number: 5,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: ' — it is “blue” 🌤',
    obfuscation: 'x2',
  }),
  responsesEvent('response.reasoning_summary_part.added', {
    sequence_number: 6,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 1,
    part: { type: 'summary_text', text: '' },
  }),
  responsesEvent('response.reasoning_summary_text.delta', {
    sequence_number: 7,
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 1,
    delta: '**Answering** briefly',
    obfuscation: 'x3',
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 8,
    output_index: 0,
    item: {
      id: 'rs_1',
      type: 'reasoning',
      encrypted_content: 'gAAA-final',
      summary: [
        { type: 'summary_text', text: '**Checking** the sky — it is “blue” 🌤' },
        { type: 'summary_text', text: '**Answering** briefly' },
      ],
    },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 9,
    output_index: 1,
    item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 10,
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    delta: 'Blue, ',
    obfuscation: 'y1',
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 11,
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    delta: 'mostly.',
    obfuscation: 'y2',
  }),
  responsesEvent('response.output_text.done', {
    sequence_number: 12,
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    text: 'Blue, mostly.',
  }),
  responsesEvent('response.completed', {
    sequence_number: 13,
    response: { ...responseObject, status: 'completed', usage: responsesUsage },
  }),
].join('');

/** Text, then a failure in the recorded (nested) shape and `response.failed`. */
export const openaiResponsesErrorStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 1,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'Half',
  }),
  responsesEvent('error', {
    sequence_number: 2,
    error: { type: 'server_error', code: 'server_error', message: 'The server had an error.', param: null },
  }),
  responsesEvent('response.failed', {
    sequence_number: 3,
    response: { ...responseObject, status: 'failed', error: { code: 'server_error', message: '…' } },
  }),
].join('');

/** Cut by the token limit: `response.incomplete` with its reason. */
export const openaiResponsesIncompleteStream = [
  responsesEvent('response.output_text.delta', {
    sequence_number: 1,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'Cut sh',
  }),
  responsesEvent('response.incomplete', {
    sequence_number: 2,
    response: {
      ...responseObject,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      usage: { input_tokens: 20, output_tokens: 16, total_tokens: 36 },
    },
  }),
].join('');

const groqChunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-G3',
    object: 'chat.completion.chunk',
    created: 1744000003,
    model: 'qwen/qwen3-32b',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    x_groq: { id: 'req_03' },
    ...extra,
  })}\n\n`;

const groqUsage = {
  queue_time: 0.02,
  prompt_tokens: 18,
  prompt_time: 0.001,
  completion_tokens: 9,
  completion_time: 0.02,
  total_tokens: 27,
  total_time: 0.021,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 6 },
};

const groqFinish = `data: ${JSON.stringify({
  id: 'chatcmpl-G3',
  object: 'chat.completion.chunk',
  created: 1744000003,
  model: 'qwen/qwen3-32b',
  choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
  x_groq: { id: 'req_03', usage: groqUsage },
  usage: groqUsage,
})}\n\ndata: [DONE]\n\n`;

/** Groq `reasoning_format: "parsed"`. */
export const groqReasoningStream =
  groqChunk({ role: 'assistant', content: '' }) +
  groqChunk({ reasoning: 'Okay, ' }) +
  groqChunk({ reasoning: 'the user says “hi” 👋.' }) +
  groqChunk({ content: 'Hi ' }) +
  groqChunk({ content: 'there.' }) +
  groqFinish;

/** Groq's default raw format: the thinking in `<think>` tags at the start of the content. */
export const thinkTagStream =
  groqChunk({ role: 'assistant', content: '' }) +
  groqChunk({ content: '<thi' }) +
  groqChunk({ content: 'nk>Weigh “hi”' }) +
  groqChunk({ content: ' 👋 carefully.</th' }) +
  groqChunk({ content: 'ink>\n\n' }) +
  groqChunk({ content: 'Hi <think> is ' }) +
  groqChunk({ content: 'just text here.' }) +
  groqFinish;

const deepseekChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    choices: [
      {
        content_filter_results: {},
        delta: { content: null, reasoning_content: null, tool_calls: null, ...delta },
        finish_reason: finish,
        index: 0,
      },
    ],
    created: 1744000004,
    id: 'ds-1',
    model: 'DeepSeek-R1',
    object: 'chat.completion.chunk',
  })}\n\n`;

/** DeepSeek through Azure: every delta has content, reasoning_content and tool_calls keys, mostly null. */
export const deepseekReasoningStream =
  deepseekChunk({ role: 'assistant' }) +
  deepseekChunk({ reasoning_content: 'Two plus two ' }) +
  deepseekChunk({ reasoning_content: 'is four.' }) +
  deepseekChunk({ content: '4' }) +
  deepseekChunk({}, 'stop') +
  `data: ${JSON.stringify({
    choices: [],
    id: 'ds-1',
    model: 'DeepSeek-R1',
    object: 'chat.completion.chunk',
    usage: {
      completion_tokens: 12,
      prompt_tokens: 10,
      prompt_tokens_details: null,
      reasoning_tokens: 8,
      total_tokens: 22,
    },
  })}\n\ndata: [DONE]\n\n`;

const claudeEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** Claude: a signed thinking block, a redacted one, then the answer; thinking tokens in the usage. */
export const anthropicRedactedStream = [
  claudeEvent('message_start', {
    message: {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      usage: {
        input_tokens: 40,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 2,
      },
    },
  }),
  claudeEvent('content_block_start', {
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  }),
  claudeEvent('content_block_delta', {
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'The user wants ' },
  }),
  claudeEvent('content_block_delta', {
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'a “short” answer ✓' },
  }),
  claudeEvent('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EvQBCkYI' } }),
  claudeEvent('content_block_stop', { index: 0 }),
  claudeEvent('content_block_start', {
    index: 1,
    content_block: { type: 'redacted_thinking', data: 'EmwKAhgB' },
  }),
  claudeEvent('content_block_stop', { index: 1 }),
  claudeEvent('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
  claudeEvent('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'Short.' } }),
  claudeEvent('content_block_stop', { index: 2 }),
  claudeEvent('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 53, output_tokens_details: { thinking_tokens: 41 } },
  }),
  claudeEvent('message_stop', {}),
].join('');

const geminiChunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
    usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    modelVersion: 'gemini-3-pro-preview',
    responseId: 'g3',
  })}\r\n\r\n`;

/** Gemini 3: a thought summary, the answer, then the signature alone on an empty part with the finish. */
export const geminiThoughtStream =
  geminiChunk([{ text: '**Processing** the “request” ✓', thought: true }]) +
  geminiChunk([{ text: 'Done.' }]) +
  `data: ${JSON.stringify({
    candidates: [
      {
        content: { parts: [{ text: '', thoughtSignature: 'EpAI' }], role: 'model' },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 9,
      candidatesTokenCount: 23,
      totalTokenCount: 334,
      thoughtsTokenCount: 302,
      cachedContentTokenCount: 4,
    },
    modelVersion: 'gemini-3-pro-preview',
    responseId: 'g3',
  })}\r\n\r\n`;
