// @ts-check
/** Anthropic Messages API: named SSE events with ping, mid-stream overloaded errors, refusals. */

import { anthropicKeyReplies, gate, httpError, validate } from './anthropic-errors.mjs';
import { anyOriginCors, isRecord, mockId, preflightReply } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 */

/** @param {Record<string, unknown>} body */
function conversationOf(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  /** @param {unknown} content */
  const text = (content) => (typeof content === 'string' ? content : JSON.stringify(content ?? ''));
  const system = typeof body.system === 'string' ? body.system : '';
  return {
    model: typeof body.model === 'string' ? body.model : '',
    lastUserText: text(messages.filter((message) => message.role === 'user').at(-1)?.content),
    messageCount: messages.length + (system ? 1 : 0),
    promptText: [system, ...messages.map((message) => text(message.content))].join('\n'),
  };
}

/** @param {ChatPlan} plan */
function scriptOf(plan) {
  if (plan.scenario === 'error-event') return { tokens: plan.tokens.slice(0, 3), stopReason: 'error' };
  if (plan.scenario.startsWith('blocked')) return { tokens: plan.tokens.slice(0, 3), stopReason: 'refusal' };
  return { tokens: plan.tokens, stopReason: 'end_turn' };
}

/** @param {string} name @param {unknown} value */
const event = (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`;

/** @param {ChatPlan} plan @returns {string[]} */
function streamFrames(plan) {
  const { tokens, stopReason } = scriptOf(plan);
  const message = {
    id: mockId('msg_'),
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: plan.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    },
  };
  const frames = [
    event('message_start', { type: 'message_start', message }),
    event('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    event('ping', { type: 'ping' }),
    ...tokens.map((text) =>
      event('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
    ),
  ];
  if (stopReason === 'error')
    return [
      ...frames,
      event('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ];
  return [
    ...frames,
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: tokens.length },
    }),
    event('message_stop', { type: 'message_stop' }),
  ];
}

/** @param {ChatPlan} plan @returns {Reply} */
function reply(plan) {
  const { tokens, stopReason } = scriptOf(plan);
  const body = {
    id: mockId('msg_'),
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content: [{ type: 'text', text: tokens.join('') }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: plan.inputTokens, output_tokens: tokens.length },
  };
  return { status: 200, body, headers: { 'request-id': mockId('req_') } };
}

/** @type {MockProvider} */
export const anthropicMock = {
  id: 'claude',
  keyOf: (request) => request.headers['x-api-key'] ?? '',
  corsHeaders: () => ({ ...anyOriginCors(), 'access-control-expose-headers': '*' }),
  // The preflight passes: it is the actual request that Anthropic refuses.
  preflight: (request) => preflightReply(request, anyOriginCors()),
  gate,
  ...anthropicKeyReplies,
  validate,
  httpError,
  conversation: conversationOf,
  isStream: (body) => body.stream === true,
  streamFrames,
  reply,
  midStreamErrorStatus: 529,
  // Items as /v1/models returns them, limits and capabilities included (PROVIDER-FACTS 2026 F).
  models: () => {
    const data = [
      ['claude-opus-4-8', 'Claude Opus 4.8', 1_000_000, 128_000, true],
      ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', 200_000, 64_000, true],
      ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5', 200_000, 64_000, true],
      ['claude-opus-4-1-20250805', 'Claude Opus 4.1', 200_000, 32_000, true],
      ['claude-3-haiku-20240307', 'Claude Haiku 3', 200_000, 4096, false],
    ].map(([id, name, input, output, thinking]) => ({
      type: 'model',
      id,
      display_name: name,
      created_at: '2025-09-29T00:00:00Z',
      max_input_tokens: input,
      max_tokens: output,
      capabilities: {
        image_input: { supported: true },
        pdf_input: { supported: thinking },
        thinking: {
          supported: thinking,
          types: {
            adaptive: { supported: id === 'claude-opus-4-8' },
            enabled: { supported: thinking && id !== 'claude-opus-4-8' },
          },
        },
      },
    }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  },
};
