/**
 * Streams in each provider's documented wire format (docs/providers.md), with their odd corners:
 * keep-alive comments, empty-choice chunks, usage-only chunks, ping events, thinking blocks, CRLF.
 */

export const openaiStream = `data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q1"}

: keep-alive

data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q2"}

data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"content":", wörld 🌍"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q3"}

data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{"content":" 日本語"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"q4"}

data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null,"obfuscation":"q5"}

data: {"id":"chatcmpl-B1","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_a1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"obfuscation":"q6"}

data: [DONE]

`;

export const azureStream = `data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"jailbreak":{"detected":false,"filtered":false},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"prompt_index":0}]}

data: {"choices":[{"content_filter_results":{},"delta":{"content":"","refusal":null,"role":"assistant"},"finish_reason":null,"index":0,"logprobs":null}],"created":1744000001,"id":"chatcmpl-A1","model":"gpt-4o-2024-11-20","obfuscation":"x","object":"chat.completion.chunk","system_fingerprint":"fp_b2"}

data: {"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"delta":{"content":"Grüße"},"finish_reason":null,"index":0,"logprobs":null}],"created":1744000001,"id":"chatcmpl-A1","model":"gpt-4o-2024-11-20","obfuscation":"y","object":"chat.completion.chunk","system_fingerprint":"fp_b2"}

data: {"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":false,"severity":"safe"}},"delta":{"content":" aus Azure"},"finish_reason":null,"index":0,"logprobs":null}],"created":1744000001,"id":"chatcmpl-A1","model":"gpt-4o-2024-11-20","obfuscation":"z","object":"chat.completion.chunk","system_fingerprint":"fp_b2"}

data: {"choices":[{"content_filter_results":{},"delta":{},"finish_reason":"stop","index":0,"logprobs":null}],"created":1744000001,"id":"chatcmpl-A1","model":"gpt-4o-2024-11-20","obfuscation":"w","object":"chat.completion.chunk","system_fingerprint":"fp_b2"}

data: [DONE]

`;

export const groqStream = `data: {"id":"chatcmpl-G1","object":"chat.completion.chunk","created":1744000002,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c3","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"x_groq":{"id":"req_01jq","seed":1421937146}}

data: {"id":"chatcmpl-G1","object":"chat.completion.chunk","created":1744000002,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c3","choices":[{"index":0,"delta":{"content":"Fast"},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-G1","object":"chat.completion.chunk","created":1744000002,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c3","choices":[{"index":0,"delta":{"content":" ✓"},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-G1","object":"chat.completion.chunk","created":1744000002,"model":"llama-3.3-70b-versatile","system_fingerprint":"fp_c3","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}],"x_groq":{"id":"req_01jq","usage":{"queue_time":0.02,"prompt_tokens":40,"prompt_time":0.003,"completion_tokens":2,"completion_time":0.004,"total_tokens":42,"total_time":0.007}}}

data: [DONE]

`;

export const anthropicStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think about the greeting."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Bonjour"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":", ça va ? 😀"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}

event: message_stop
data: {"type":"message_stop"}

`;

export const geminiStream = [
  'data: {"candidates":[{"content":{"parts":[{"text":"Weighing the question.","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9,"promptTokensDetails":[{"modality":"TEXT","tokenCount":9}]},"modelVersion":"gemini-2.5-flash","responseId":"r1"}',
  'data: {"candidates":[{"content":{"parts":[{"text":"Ciao"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9},"modelVersion":"gemini-2.5-flash","responseId":"r1"}',
  'data: {"candidates":[{"content":{"parts":[{"text":" mondo, 你好"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":4,"totalTokenCount":20,"thoughtsTokenCount":7},"modelVersion":"gemini-2.5-flash","responseId":"r1"}',
]
  .map((line) => `${line}\r\n\r\n`)
  .join('');

// Failures and odd corners, for the chunking property test (stream-chunking.test.ts).

/** Gemini text, then a bare (not `data:`) pretty-printed JSON error inside the 200 stream. */
export const geminiCancelledStream =
  [
    'data: {"candidates":[{"content":{"parts":[{"text":"Partial "}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9},"modelVersion":"gemini-2.5-flash","responseId":"r2"}',
    'data: {"candidates":[{"content":{"parts":[{"text":"answer ✂"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9},"modelVersion":"gemini-2.5-flash","responseId":"r2"}',
  ]
    .map((line) => `${line}\r\n\r\n`)
    .join('') +
  `${JSON.stringify({ error: { code: 499, message: 'The operation was cancelled.', status: 'CANCELLED' } }, null, 2)}\n`;

export const anthropicErrorStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Über"}}

event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}

`;

export const openaiErrorStream = `data: {"id":"chatcmpl-B2","object":"chat.completion.chunk","created":1744000000,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"delta":{"role":"assistant","content":"Half"},"logprobs":null,"finish_reason":null}],"usage":null}

data: {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}

`;

export const groqErrorStream = `data: {"id":"chatcmpl-G2","object":"chat.completion.chunk","created":1744000002,"model":"llama-3.3-70b-versatile","choices":[{"index":0,"delta":{"role":"assistant","content":"Quick —"},"logprobs":null,"finish_reason":null}],"x_groq":{"id":"req_02"}}

event: error
data: {"error":{"message":"Service Unavailable","type":"internal_server_error"}}

`;

/**
 * A Claude reply that ran a server tool (web search): `message_start` counts the first pass only,
 * the cumulative `message_delta.usage` counts every pass.
 */
export const anthropicServerToolStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_03","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2068,"cache_creation_input_tokens":0,"cache_read_input_tokens":1024,"output_tokens":3,"service_tier":"standard"}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"query\\": \\"weather Paris\\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","title":"Paris weather","url":"https://example.com/paris","encrypted_content":"Eo8B","page_age":null}]}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Sunny, 21 °C."}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":22397,"cache_creation_input_tokens":0,"cache_read_input_tokens":1024,"output_tokens":412,"server_tool_use":{"web_search_requests":1}}}

event: message_stop
data: {"type":"message_stop"}

`;

/** `stream` up to (not including) the first occurrence of `marker`: a connection cut there. */
export function cutBefore(stream: string, marker: string): string {
  const at = stream.indexOf(marker);
  if (at < 0) throw new Error(`marker not in stream: ${marker}`);
  return stream.slice(0, at);
}
