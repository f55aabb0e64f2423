/**
 * The providers' own code execution and pictures in each API's wire format
 * (docs/providers.md#code-execution, docs/providers.md#images-out), shaped after recorded ones:
 * vercel/ai `openai-code-interpreter-tool.1.chunks.txt` and `openai-image-generation-tool.1.chunks.txt`
 * (Responses), `anthropic-code-execution-20250825.1` (Claude), Gemini's `executableCode`,
 * `codeExecutionResult` and `inlineData` parts as js-genai types them, Groq compound's
 * `executed_tools` as groq-python types them. The code and its output hold multi-byte characters,
 * so a split inside one shows.
 */

/** Bytes that stand for a picture (a 1×1 PNG), base64, and a second, different one. */
export const pictureBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const previewBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ';
export const secondPreviewBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8';

/** A file a run wrote, as a download returns it. */
export const tableCsv = 'Stadt,Regen\nZürich,12\n';

/** The program of the code fixtures: its code, in pieces as they stream, and what it prints. */
export const codePieces = ['import math\n', 'print("Zürich 🌧", ', 'math.sqrt(144))\n'];
export const runCode = codePieces.join('');
export const runOutput = 'Zürich 🌧 12.0\n';

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

const responsesEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const responseObject = {
  id: 'resp_ci',
  object: 'response',
  status: 'in_progress',
  model: 'gpt-5.4',
  output: [],
  usage: null,
  store: false,
};

const usage = {
  input_tokens: 300,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 120,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 420,
};

export const openaiRunId = 'ci_1';
export const openaiContainer = 'cntr_1';
export const openaiFileId = 'cfile_1';

/** The answer's text: it links the file the run wrote, which the annotation cites. */
export const openaiLink = '[Tabelle.csv](sandbox:/mnt/data/Tabelle.csv)';
export const openaiCodeText = `Die Wurzel ist 12. ${openaiLink}`;

export const openaiFileCitation = {
  type: 'container_file_citation',
  container_id: openaiContainer,
  file_id: openaiFileId,
  filename: 'Tabelle.csv',
  start_index: 19,
  end_index: 19 + openaiLink.length,
};

const codeItem = (status: string, outputs: unknown[]) => ({
  id: openaiRunId,
  type: 'code_interpreter_call',
  status,
  code: runCode,
  container_id: openaiContainer,
  outputs,
});

/**
 * A run whose code streams in pieces, that logs and plots (a `data:` URL), then an answer whose
 * annotation cites a file the run wrote in its container.
 */
export const openaiCodeStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.output_item.added', {
    sequence_number: 1,
    output_index: 0,
    item: { ...codeItem('in_progress', []), code: '' },
  }),
  responsesEvent('response.code_interpreter_call.in_progress', {
    sequence_number: 2,
    output_index: 0,
    item_id: openaiRunId,
  }),
  ...codePieces.map((delta, index) =>
    responsesEvent('response.code_interpreter_call_code.delta', {
      sequence_number: 3 + index,
      output_index: 0,
      item_id: openaiRunId,
      delta,
    }),
  ),
  responsesEvent('response.code_interpreter_call_code.done', {
    sequence_number: 6,
    output_index: 0,
    item_id: openaiRunId,
    code: runCode,
  }),
  responsesEvent('response.code_interpreter_call.interpreting', {
    sequence_number: 7,
    output_index: 0,
    item_id: openaiRunId,
  }),
  responsesEvent('response.code_interpreter_call.completed', {
    sequence_number: 8,
    output_index: 0,
    item_id: openaiRunId,
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 9,
    output_index: 0,
    item: codeItem('completed', [
      { type: 'logs', logs: runOutput },
      { type: 'image', url: `data:image/png;base64,${pictureBase64}` },
    ]),
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 10,
    output_index: 1,
    item: { id: 'msg_ci', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 11,
    output_index: 1,
    item_id: 'msg_ci',
    content_index: 0,
    delta: 'Die Wurzel ist 12. ',
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 12,
    output_index: 1,
    item_id: 'msg_ci',
    content_index: 0,
    delta: openaiLink,
  }),
  responsesEvent('response.output_text.annotation.added', {
    sequence_number: 13,
    output_index: 1,
    item_id: 'msg_ci',
    content_index: 0,
    annotation_index: 0,
    annotation: openaiFileCitation,
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 14,
    output_index: 1,
    item: {
      id: 'msg_ci',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: openaiCodeText, annotations: [openaiFileCitation] }],
    },
  }),
  responsesEvent('response.completed', {
    sequence_number: 15,
    response: { ...responseObject, status: 'completed', usage },
  }),
].join('');

/** The same reply unstreamed. */
export const openaiCodeReply = {
  ...responseObject,
  status: 'completed',
  output: [
    codeItem('completed', [
      { type: 'logs', logs: runOutput },
      { type: 'image', url: `data:image/png;base64,${pictureBase64}` },
    ]),
    {
      id: 'msg_ci',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: openaiCodeText, annotations: [openaiFileCitation] }],
    },
  ],
  usage,
};

/** A run that failed (status `failed`) with its traceback in the logs, then a short answer. */
export const openaiFailedRunStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.output_item.added', {
    sequence_number: 1,
    output_index: 0,
    item: { ...codeItem('in_progress', []), id: 'ci_2', code: '' },
  }),
  responsesEvent('response.code_interpreter_call_code.delta', {
    sequence_number: 2,
    output_index: 0,
    item_id: 'ci_2',
    delta: 'print(1 / 0)\n',
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 3,
    output_index: 0,
    item: {
      ...codeItem('failed', [{ type: 'logs', logs: 'ZeroDivisionError: division by zero\n' }]),
      id: 'ci_2',
      code: 'print(1 / 0)\n',
    },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 4,
    output_index: 1,
    item_id: 'msg_f',
    content_index: 0,
    delta: 'Das ging schief.',
  }),
  responsesEvent('response.completed', {
    sequence_number: 5,
    response: { ...responseObject, status: 'completed', usage },
  }),
].join('');

export const openaiImageId = 'ig_1';

/** A picture drawn with two previews (`partial_images: 2`), as WebP, then the answer. */
export const openaiImageStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.output_item.added', {
    sequence_number: 1,
    output_index: 0,
    item: { id: openaiImageId, type: 'image_generation_call', status: 'in_progress' },
  }),
  responsesEvent('response.image_generation_call.in_progress', {
    sequence_number: 2,
    output_index: 0,
    item_id: openaiImageId,
  }),
  responsesEvent('response.image_generation_call.generating', {
    sequence_number: 3,
    output_index: 0,
    item_id: openaiImageId,
  }),
  ...[previewBase64, secondPreviewBase64].map((partial, index) =>
    responsesEvent('response.image_generation_call.partial_image', {
      sequence_number: 4 + index,
      output_index: 0,
      item_id: openaiImageId,
      partial_image_index: index,
      partial_image_b64: partial,
      size: '1024x1024',
      quality: 'low',
      background: 'opaque',
      output_format: 'webp',
    }),
  ),
  responsesEvent('response.image_generation_call.completed', {
    sequence_number: 6,
    output_index: 0,
    item_id: openaiImageId,
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 7,
    output_index: 0,
    item: {
      id: openaiImageId,
      type: 'image_generation_call',
      status: 'completed',
      background: 'opaque',
      output_format: 'webp',
      quality: 'low',
      size: '1024x1024',
      result: pictureBase64,
      revised_prompt: 'Ein Regenbogen über Zürich',
    },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 8,
    output_index: 1,
    item_id: 'msg_ig',
    content_index: 0,
    delta: 'Hier ist das Bild 🌈.',
  }),
  responsesEvent('response.completed', {
    sequence_number: 9,
    response: { ...responseObject, status: 'completed', usage },
  }),
].join('');

// ---------------------------------------------------------------------------------------------
// Anthropic

const anthropicEvents = (events: readonly Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');

const messageStart = {
  type: 'message_start',
  message: {
    id: 'msg_ce',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [],
    stop_reason: null,
    usage: {
      input_tokens: 2000,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    },
  },
};

const messageEnd = (outputTokens: number) => [
  {
    type: 'message_delta',
    delta: {
      stop_reason: 'end_turn',
      stop_sequence: null,
      container: { id: 'container_011CA', expires_at: '2026-11-26T12:00:00Z' },
    },
    usage: {
      output_tokens: outputTokens,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    },
  },
  { type: 'message_stop' },
];

/** The command a bash run runs: the program as a heredoc. */
export const bashCommand = `python3 - <<'EOF'\n${runCode}EOF`;
const bashInput = JSON.stringify({ command: bashCommand });

export const anthropicFiles = {
  file_011csv: { filename: 'Tabelle.csv', mime_type: 'text/csv', body: tableCsv },
  file_011png: { filename: '../plots/Regen.png', mime_type: 'image/png', body: pictureBase64 },
} as const;

/**
 * A text-editor run that writes a file, a bash run (its JSON input in pieces, cut inside
 * characters) that prints and lists two files it wrote, then the answer.
 */
export const anthropicCodeStream = anthropicEvents([
  messageStart,
  {
    type: 'content_block_start',
    index: 0,
    content_block: {
      type: 'server_tool_use',
      id: 'srvtoolu_e',
      name: 'text_editor_code_execution',
      input: {},
    },
  },
  {
    type: 'content_block_delta',
    index: 0,
    delta: {
      type: 'input_json_delta',
      partial_json: JSON.stringify({ command: 'create', path: '/tmp/wurzel.py', file_text: runCode }),
    },
  },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: {
      type: 'text_editor_code_execution_tool_result',
      tool_use_id: 'srvtoolu_e',
      content: { type: 'text_editor_code_execution_create_result', is_file_update: false },
    },
  },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'server_tool_use', id: 'srvtoolu_b', name: 'bash_code_execution', input: {} },
  },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
  ...[bashInput.slice(0, 30), bashInput.slice(30, 75), bashInput.slice(75)].map((partial) => ({
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: partial },
  })),
  { type: 'content_block_stop', index: 2 },
  {
    type: 'content_block_start',
    index: 3,
    content_block: {
      type: 'bash_code_execution_tool_result',
      tool_use_id: 'srvtoolu_b',
      content: {
        type: 'bash_code_execution_result',
        stdout: runOutput,
        stderr: '',
        return_code: 0,
        content: Object.keys(anthropicFiles).map((id) => ({ type: 'code_execution_output', file_id: id })),
      },
    },
  },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_start', index: 4, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: 'Die Wurzel ist 12.' } },
  { type: 'content_block_stop', index: 4 },
  ...messageEnd(180),
]);

/** A bash run that exits with 1 (its traceback on stderr), a run the tool refused, then the answer. */
export const anthropicFailedRunStream = anthropicEvents([
  messageStart,
  {
    type: 'content_block_start',
    index: 0,
    content_block: {
      type: 'server_tool_use',
      id: 'srvtoolu_f',
      name: 'bash_code_execution',
      input: { command: 'python3 -c "print(1 / 0)"' },
    },
  },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: {
      type: 'bash_code_execution_tool_result',
      tool_use_id: 'srvtoolu_f',
      content: {
        type: 'bash_code_execution_result',
        stdout: '',
        stderr: 'ZeroDivisionError: division by zero\n',
        return_code: 1,
        content: [],
      },
    },
  },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'server_tool_use', id: 'srvtoolu_u', name: 'code_execution', input: {} },
  },
  {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: '{"code": "print(2)"}' },
  },
  { type: 'content_block_stop', index: 2 },
  {
    type: 'content_block_start',
    index: 3,
    content_block: {
      type: 'code_execution_tool_result',
      tool_use_id: 'srvtoolu_u',
      content: { type: 'code_execution_tool_result_error', error_code: 'execution_time_exceeded' },
    },
  },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_start', index: 4, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: 'Das ging schief.' } },
  { type: 'content_block_stop', index: 4 },
  ...messageEnd(60),
]);

// ---------------------------------------------------------------------------------------------
// Gemini

const geminiStream = (chunks: readonly { parts: unknown[]; finishReason?: string }[], model: string) =>
  chunks
    .map(({ parts, ...rest }) => {
      const candidate = { content: { parts, role: 'model' }, index: 0, ...rest };
      const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 40, totalTokenCount: 50 };
      return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: model })}\r\n\r\n`;
    })
    .join('');

/**
 * A run (its code, its output, its plot), a second run that times out, and the answer: each part
 * a chunk of its own, as recorded.
 */
export const geminiCodeStream = geminiStream(
  [
    { parts: [{ text: 'Ich rechne.' }] },
    { parts: [{ executableCode: { language: 'PYTHON', code: runCode } }] },
    { parts: [{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: runOutput } }] },
    { parts: [{ inlineData: { mimeType: 'image/png', data: pictureBase64 } }] },
    { parts: [{ executableCode: { language: 'PYTHON', code: 'while True: pass\n', id: 'run-b' } }] },
    {
      parts: [{ codeExecutionResult: { outcome: 'OUTCOME_DEADLINE_EXCEEDED', output: '', id: 'run-b' } }],
    },
    { parts: [{ text: ' Die Wurzel ist 12.' }], finishReason: 'STOP' },
  ],
  'gemini-2.5-flash',
);

/** A run that fails (OUTCOME_FAILED, its traceback as output): no plot follows. */
export const geminiFailedRunStream = geminiStream(
  [
    { parts: [{ executableCode: { language: 'PYTHON', code: 'print(1 / 0)\n' } }] },
    {
      parts: [
        {
          codeExecutionResult: { outcome: 'OUTCOME_FAILED', output: 'ZeroDivisionError: division by zero\n' },
        },
      ],
    },
    { parts: [{ text: 'Das ging schief.' }], finishReason: 'STOP' },
  ],
  'gemini-2.5-flash',
);

export const geminiImageSignature = 'CiQBsigImage==';

/**
 * An image model's reply: a draft it drew while thinking, its text (signed, as the first part of a
 * Gemini 3 turn is), then the picture with its own signature.
 */
export const geminiImageStream = geminiStream(
  [
    { parts: [{ inlineData: { mimeType: 'image/png', data: previewBase64 }, thought: true }] },
    { parts: [{ text: 'Hier ist der Regenbogen 🌈.', thoughtSignature: 'CiQBsigText==' }] },
    {
      parts: [
        {
          inlineData: { mimeType: 'image/jpeg', data: pictureBase64 },
          thoughtSignature: geminiImageSignature,
        },
      ],
      finishReason: 'STOP',
    },
  ],
  'gemini-3-pro-image',
);

// ---------------------------------------------------------------------------------------------
// Groq compound

const groqChunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-G1',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'groq/compound',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  })}\n\n`;

const groqRun = { index: 0, type: 'python', arguments: JSON.stringify({ code: runCode }) };
const groqRunDone = {
  ...groqRun,
  output: runOutput,
  code_results: [{ text: '12.0' }, { text: 'True' }, { png: pictureBase64 }],
};

/** A run reported first without its output, then again (twice) with it and a plot, then the answer. */
export const groqCodeStream = [
  groqChunk({ role: 'assistant', content: '' }, { x_groq: { id: 'req_g1' } }),
  groqChunk({ reasoning: 'Ich rechne es aus.' }),
  groqChunk({ executed_tools: [groqRun] }),
  groqChunk({ executed_tools: [groqRunDone] }),
  groqChunk({ content: 'Die Wurzel ist 12.' }),
  `data: ${JSON.stringify({
    id: 'chatcmpl-G1',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'groq/compound',
    choices: [{ index: 0, delta: { executed_tools: [groqRunDone] }, finish_reason: 'stop' }],
    x_groq: { id: 'req_g1', usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 } },
  })}\n\n`,
  'data: [DONE]\n\n',
].join('');
