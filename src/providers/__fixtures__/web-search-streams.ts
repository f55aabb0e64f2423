/**
 * Web search streams in each provider's wire format (docs/providers.md#web-search), shaped after
 * recorded ones (vercel/ai `openai-web-search-tool.1.chunks.txt`, `anthropic-web-search-tool.1.chunks.txt`;
 * Gemini's grounding metadata as js-genai types it; Groq compound's `executed_tools` as groq-typescript
 * types it). The cited spans come after non-ASCII text, so offsets in bytes, code points and UTF-16
 * differ.
 */

const responsesEvent = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

const responseObject = {
  id: 'resp_ws',
  object: 'response',
  status: 'in_progress',
  model: 'gpt-5.4',
  output: [],
  usage: null,
  store: false,
};

/** The cited span's inline link as OpenAI writes it: the annotation covers it, tagged address and all. */
export const openaiLink = '([meteo.ch](https://meteo.ch/zurich?utm_source=openai))';

/**
 * Reasoning, a search (two pages found), a first message, a failed search, a page opened, then a
 * second message whose annotation (indices in characters of that part: 21 to 76, where UTF-16
 * counts 22 to 77 because of the 🌧) cites the first page.
 */
export const openaiWebSearchStream = [
  responsesEvent('response.created', { sequence_number: 0, response: responseObject }),
  responsesEvent('response.output_item.added', {
    sequence_number: 1,
    output_index: 0,
    item: { id: 'rs_ws1', type: 'reasoning', summary: [] },
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 2,
    output_index: 0,
    item: { id: 'rs_ws1', type: 'reasoning', encrypted_content: 'gAAA-ws', summary: [] },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 3,
    output_index: 1,
    item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' },
  }),
  responsesEvent('response.web_search_call.in_progress', {
    sequence_number: 4,
    output_index: 1,
    item_id: 'ws_1',
  }),
  responsesEvent('response.web_search_call.searching', {
    sequence_number: 5,
    output_index: 1,
    item_id: 'ws_1',
  }),
  responsesEvent('response.web_search_call.completed', {
    sequence_number: 6,
    output_index: 1,
    item_id: 'ws_1',
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 7,
    output_index: 1,
    item: {
      id: 'ws_1',
      type: 'web_search_call',
      status: 'completed',
      action: {
        type: 'search',
        query: 'Zürich weather',
        sources: [
          { type: 'url', url: 'https://meteo.ch/zurich' },
          { type: 'url', url: 'https://weather.example/zh' },
        ],
      },
    },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 8,
    output_index: 2,
    item: { id: 'msg_1', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
  }),
  responsesEvent('response.content_part.added', {
    sequence_number: 9,
    item_id: 'msg_1',
    output_index: 2,
    content_index: 0,
    part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 10,
    item_id: 'msg_1',
    output_index: 2,
    content_index: 0,
    delta: 'Let me check. ',
    logprobs: [],
    obfuscation: 'a',
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 11,
    output_index: 2,
    item: {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Let me check. ' }],
      role: 'assistant',
    },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 12,
    output_index: 3,
    item: { id: 'ws_2', type: 'web_search_call', status: 'in_progress' },
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 13,
    output_index: 3,
    item: {
      id: 'ws_2',
      type: 'web_search_call',
      status: 'failed',
      action: { type: 'search', query: 'Zürich radar' },
    },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 14,
    output_index: 4,
    item: { id: 'ws_3', type: 'web_search_call', status: 'in_progress' },
  }),
  responsesEvent('response.output_item.done', {
    sequence_number: 15,
    output_index: 4,
    item: {
      id: 'ws_3',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'open_page', url: 'https://meteo.ch/radar' },
    },
  }),
  responsesEvent('response.output_item.added', {
    sequence_number: 16,
    output_index: 5,
    item: { id: 'msg_2', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 17,
    item_id: 'msg_2',
    output_index: 5,
    content_index: 0,
    delta: 'Zürich 🌧 today: rain ',
    logprobs: [],
    obfuscation: 'b',
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 18,
    item_id: 'msg_2',
    output_index: 5,
    content_index: 0,
    delta: openaiLink,
    logprobs: [],
    obfuscation: 'c',
  }),
  responsesEvent('response.output_text.annotation.added', {
    sequence_number: 19,
    item_id: 'msg_2',
    output_index: 5,
    content_index: 0,
    annotation_index: 0,
    annotation: {
      type: 'url_citation',
      end_index: 76,
      start_index: 21,
      title: 'Zürich weather | MeteoSwiss',
      url: 'https://meteo.ch/zurich?utm_source=openai',
    },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 20,
    item_id: 'msg_2',
    output_index: 5,
    content_index: 0,
    delta: '.',
    logprobs: [],
    obfuscation: 'd',
  }),
  responsesEvent('response.completed', {
    sequence_number: 21,
    response: {
      ...responseObject,
      status: 'completed',
      usage: {
        input_tokens: 9012,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 210,
        output_tokens_details: { reasoning_tokens: 64 },
        total_tokens: 9222,
      },
    },
  }),
].join('');

/** The same reply unstreamed (stream: false): the output items whole. */
export const openaiWebSearchReply = {
  ...responseObject,
  status: 'completed',
  output: [
    {
      id: 'ws_1',
      type: 'web_search_call',
      status: 'completed',
      action: {
        type: 'search',
        query: 'Zürich weather',
        sources: [{ type: 'url', url: 'https://meteo.ch/zurich' }],
      },
    },
    {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], text: 'Let me check. ' }],
    },
    {
      id: 'msg_2',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        {
          type: 'output_text',
          text: `Zürich 🌧 today: rain ${openaiLink}.`,
          annotations: [
            {
              type: 'url_citation',
              start_index: 21,
              end_index: 76,
              title: 'Zürich weather | MeteoSwiss',
              url: 'https://meteo.ch/zurich?utm_source=openai',
            },
          ],
        },
      ],
    },
  ],
  usage: { input_tokens: 9012, output_tokens: 210, total_tokens: 9222 },
};

const anthropicEvents = (events: readonly Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');

const searchResult = (id: string, results: readonly [url: string, title: string][]) => ({
  type: 'web_search_tool_result',
  tool_use_id: id,
  content: results.map(([url, title]) => ({
    type: 'web_search_result',
    title,
    url,
    encrypted_content: `Eo${title.length}enc`,
    page_age: null,
  })),
});

export const anthropicCitation = {
  type: 'web_search_result_location',
  cited_text: 'Rain is expected in Zürich all day, 12 °C. ',
  url: 'https://meteo.ch/zurich',
  title: 'Zürich weather',
  encrypted_index: 'EpABCioI',
};

/**
 * A search whose query streams in pieces, its results, a cited text block (citations first, as
 * recorded), a second search refused with `max_uses_exceeded`, and a closing text block.
 */
export const anthropicWebSearchStream = anthropicEvents([
  {
    type: 'message_start',
    message: {
      id: 'msg_ws',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [],
      stop_reason: null,
      usage: {
        input_tokens: 2037,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  },
  {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
  },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
  {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json: '{"query": "Zür' },
  },
  {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json: 'ich weather"}' },
  },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: searchResult('srvtoolu_1', [
      ['https://meteo.ch/zurich', 'Zürich weather'],
      ['https://weather.example/zh', 'Weather in Zurich'],
    ]),
  },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Zürich 🌧: ' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'content_block_start', index: 3, content_block: { citations: [], type: 'text', text: '' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation: anthropicCitation } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'rain all day, ' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: '12 °C.' } },
  { type: 'content_block_stop', index: 3 },
  {
    type: 'content_block_start',
    index: 4,
    content_block: { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_search', input: {} },
  },
  {
    type: 'content_block_delta',
    index: 4,
    delta: { type: 'input_json_delta', partial_json: '{"query": "Zürich radar"}' },
  },
  { type: 'content_block_stop', index: 4 },
  {
    type: 'content_block_start',
    index: 5,
    content_block: {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_2',
      content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
    },
  },
  { type: 'content_block_stop', index: 5 },
  { type: 'content_block_start', index: 6, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 6, delta: { type: 'text_delta', text: ' No radar.' } },
  { type: 'content_block_stop', index: 6 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: {
      input_tokens: 15665,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 795,
      server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 },
    },
  },
  { type: 'message_stop' },
]);

/**
 * A turn the server paused: signed thinking, a search and its results, text ending in a space,
 * then `stop_reason: "pause_turn"` (usage per request).
 */
export const anthropicPausedStream = anthropicEvents([
  {
    type: 'message_start',
    message: {
      id: 'msg_p1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 500, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Search “Zürich”.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBsig' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Looking… ' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'server_tool_use', id: 'srvtoolu_p1', name: 'web_search', input: {} },
  },
  {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: '{"query":"Zürich"}' },
  },
  { type: 'content_block_stop', index: 2 },
  {
    type: 'content_block_start',
    index: 3,
    content_block: searchResult('srvtoolu_p1', [['https://meteo.ch/zurich', 'Zürich weather']]),
  },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_start', index: 4, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: 'Still looking. ' } },
  { type: 'content_block_stop', index: 4 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'pause_turn', stop_sequence: null },
    usage: { input_tokens: 4000, output_tokens: 50, server_tool_use: { web_search_requests: 1 } },
  },
  { type: 'message_stop' },
]);

/** The continuation of the paused turn: a cited block, then the end of the turn. */
export const anthropicContinuedStream = anthropicEvents([
  {
    type: 'message_start',
    message: {
      id: 'msg_p2',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 4600, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { citations: [], type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: anthropicCitation } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Rain, 12 °C.' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { input_tokens: 4600, output_tokens: 20, server_tool_use: { web_search_requests: 1 } },
  },
  { type: 'message_stop' },
]);

/** The answer text the Gemini fixtures stream, and where its two grounded segments end. */
export const geminiAnswer = 'Straße in Zürich: sonnig ☀️ und 21 °C. Morgen: 🌧 Regen.';

export const geminiGrounding = {
  webSearchQueries: ['Wetter Zürich heute', 'Wetter Zürich morgen'],
  searchEntryPoint: { renderedContent: '<style>.chip{}</style><div class="chip">Wetter Zürich</div>' },
  groundingChunks: [
    {
      web: {
        uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA',
        title: 'meteoschweiz.admin.ch',
      },
    },
    { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB', title: 'srf.ch' } },
  ],
  groundingSupports: [
    // startIndex omitted: 0. endIndex counts UTF-8 bytes: 45 (38 UTF-16 units).
    {
      segment: { endIndex: 45, text: 'Straße in Zürich: sonnig ☀️ und 21 °C.' },
      groundingChunkIndices: [0, 1],
    },
    { segment: { startIndex: 46, endIndex: 65, text: 'Morgen: 🌧 Regen.' }, groundingChunkIndices: [1] },
  ],
  retrievalMetadata: {},
};

/** A thought first, the answer in three chunks, the grounding metadata with the last (CRLF, as Google sends). */
export const geminiGroundedStream = [
  { parts: [{ text: 'Looking it up.', thought: true }] },
  { parts: [{ text: 'Straße in Zürich: ' }] },
  { parts: [{ text: 'sonnig ☀️ und 21 °C.' }] },
  { parts: [{ text: ' Morgen: 🌧 Regen.' }], finishReason: 'STOP', groundingMetadata: geminiGrounding },
]
  .map(({ parts, ...rest }) => {
    const candidate = { content: { parts, role: 'model' }, index: 0, ...rest };
    const usageMetadata = {
      promptTokenCount: 12,
      candidatesTokenCount: 30,
      totalTokenCount: 342,
      toolUsePromptTokenCount: 300,
    };
    return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: 'gemini-2.5-flash' })}\r\n\r\n`;
  })
  .join('');

/** The same reply unstreamed: a thought part, then the answer part, which `partIndex: 1` names. */
export const geminiGroundedReply = {
  candidates: [
    {
      content: {
        parts: [{ text: 'Looking it up.', thought: true }, { text: geminiAnswer }],
        role: 'model',
      },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: {
        ...geminiGrounding,
        groundingSupports: geminiGrounding.groundingSupports.map((support) => ({
          ...support,
          segment: { ...support.segment, partIndex: 1 },
        })),
      },
    },
  ],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 30, totalTokenCount: 342 },
};

const groqChunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-C1',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'groq/compound',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    ...extra,
  })}\n\n`;

const groqSearch = {
  index: 0,
  type: 'search',
  arguments: '{"query": "Zürich weather today"}',
};
const groqResults = {
  output: 'Title: Zürich weather\nURL: https://meteo.ch/zurich\nContent: Rain…',
  search_results: {
    results: [
      { title: 'Zürich weather', url: 'https://meteo.ch/zurich', content: 'Rain…', score: 0.91 },
      { title: 'Weather in Zurich', url: 'https://weather.example/zh', content: '12 °C', score: 0.8 },
    ],
  },
};

/** Compound: reasoning, the search started, then with its results, the answer; the last chunk repeats the search. */
export const groqCompoundStream = [
  groqChunk({ role: 'assistant', content: '' }, { x_groq: { id: 'req_c1' } }),
  groqChunk({ reasoning: 'I should search “Zürich”.' }),
  groqChunk({ executed_tools: [groqSearch] }),
  groqChunk({ executed_tools: [{ ...groqSearch, ...groqResults }] }),
  groqChunk({ content: 'Rain, 12 °C.' }),
  `data: ${JSON.stringify({
    id: 'chatcmpl-C1',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: 'groq/compound',
    choices: [
      { index: 0, delta: { executed_tools: [{ ...groqSearch, ...groqResults }] }, finish_reason: 'stop' },
    ],
    x_groq: { id: 'req_c1', usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 } },
  })}\n\n`,
  'data: [DONE]\n\n',
].join('');
