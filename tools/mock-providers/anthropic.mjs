// @ts-check
/**
 * Anthropic Messages API: named SSE events with ping, mid-stream overloaded errors, refusals,
 * thinking blocks and prompt caching.
 */

import {
  anthropicKeyReplies,
  gate,
  httpError,
  retiredError,
  thinkingOn,
  validate,
} from './anthropic-errors.mjs';
import { anthropicAttachments } from './attachments.mjs';
import { thinks } from './scenarios.mjs';
import { digest, redactedThinking, thinkingSignature } from './signatures.mjs';
import { anthropicCodeTurn } from './anthropic-code.mjs';
import { anthropicSearchTurn } from './anthropic-search.mjs';
import { anthropicToolState } from './anthropic-tools.mjs';
import { tokenize } from './tokens.mjs';
import { argumentPieces, callsTools, randomId } from './tools.mjs';
import { anyOriginCors, isRecord, mockId, preflightReply } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 */

/** Text of a string content, or of the text blocks of a content array. @param {unknown} content */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) =>
      isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('');
}

/**
 * The prompt in cache order, block by block: the system prompt (a string is one block), then each
 * message's blocks (a string content is one). `key` tells blocks apart (the whole block but its
 * cache_control, so a changed image or signature is a different prefix, a moved marker is not);
 * `part` is the system prompt's or message's place, `text` what the block counts as tokens, and
 * `control` its cache_control.
 * @param {Record<string, unknown>} body
 */
function promptBlocks(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const system = textOf(body.system) ? [{ role: 'system', content: body.system }] : [];
  return [...system, ...messages].flatMap((message, part) => {
    const { content } = message;
    // Empty content still takes its place among the parts.
    const blocks = Array.isArray(content) && content.length > 0 ? content : [content];
    return blocks.map((block, index) => {
      const { cache_control: control, ...rest } = isRecord(block) ? block : { cache_control: undefined };
      return {
        key: JSON.stringify([message.role, index, isRecord(block) ? rest : block]),
        part,
        text: typeof block === 'string' ? block : textOf([block]),
        control,
      };
    });
  });
}

/**
 * The text of the prompt's first `count` blocks, to count as tokens: each part's blocks joined, the
 * parts by newlines, so that all blocks give the text of the whole prompt.
 * @param {ReturnType<typeof promptBlocks>} blocks @param {number} count
 */
function prefixText(blocks, count) {
  /** @type {string[]} */
  const parts = [];
  for (const block of blocks.slice(0, count)) parts[block.part] = (parts[block.part] ?? '') + block.text;
  return Array.from(parts, (text) => text ?? '').join('\n');
}

/** @param {Record<string, unknown>} body */
function conversationOf(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const lastUser = messages.filter((message) => message.role === 'user').at(-1);
  const blocks = promptBlocks(body);
  return {
    model: typeof body.model === 'string' ? body.model : '',
    lastUserText: textOf(lastUser?.content),
    messageCount: messages.length + (textOf(body.system) ? 1 : 0),
    promptText: prefixText(blocks, blocks.length),
    attachments: anthropicAttachments(lastUser?.content),
  };
}

/**
 * Prompt caching (docs/providers.md#anthropic-prompt-caching). Each breakpoint writes the prompt up
 * to it to the cache: a block's own cache_control (a project's shared prefix) and the top-level
 * one, which stands for the last block. The longest prefix, up to the last breakpoint, that an
 * earlier request with the same key wrote is read instead of written; so a second conversation
 * with the same marked prefix reads it. Unlike the real API there is no minimum cacheable length,
 * no 20-block lookback and nothing expires; each breakpoint's `ttl` only picks the bucket the
 * tokens written up to it count in. Call once per request: it remembers this prompt for the next ones.
 * @param {ChatPlan} plan
 */
function cacheOf(plan) {
  const blocks = promptBlocks(plan.body);
  /** @type {{ index: number, ttl: '5m' | '1h' }[]} */
  const breakpoints = [];
  const ttlOf = (/** @type {unknown} */ control) => (isRecord(control) && control.ttl === '1h' ? '1h' : '5m');
  for (const [index, block] of blocks.entries())
    if (isRecord(block.control)) breakpoints.push({ index, ttl: ttlOf(block.control) });
  const automatic = plan.body.cache_control;
  if (isRecord(automatic) && blocks.length > 0)
    breakpoints.push({ index: blocks.length - 1, ttl: ttlOf(automatic) });
  const written = { '5m': 0, '1h': 0 };
  const last = breakpoints.at(-1);
  if (!last) return { read: 0, written: 0, byTtl: written };
  let chain = 'claude-cache';
  const prefixKeys = blocks.map((block) => (chain = digest(`${chain}\n${block.key}`)));
  const cached = prefixKeys.slice(0, last.index + 1).findLastIndex((key) => plan.memory.has(key)) + 1;
  const tokensUpTo = (/** @type {number} */ count) => tokenize(prefixText(blocks, count)).length;
  const read = cached === 0 ? 0 : tokensUpTo(cached);
  let done = read;
  for (const { index, ttl } of breakpoints.sort((a, b) => a.index - b.index)) {
    const upTo = tokensUpTo(index + 1);
    if (upTo > done) written[ttl] += upTo - done;
    done = Math.max(done, upTo);
    const key = prefixKeys[index];
    if (key) plan.memory.add(key);
  }
  return { read, written: written['5m'] + written['1h'], byTtl: written };
}

/**
 * The input side of usage: input_tokens leaves out what the cache read or wrote, so the three add
 * up to the whole prompt (E).
 * @param {ChatPlan} plan @param {ReturnType<typeof cacheOf>} cache
 */
const inputUsageOf = (plan, { read, written }) => ({
  input_tokens: plan.inputTokens - read - written,
  cache_creation_input_tokens: written,
  cache_read_input_tokens: read,
});

/**
 * The thinking of the thinking scenarios, when the request turns thinking on. With display
 * "omitted" the block carries no text, only the signature (B2), and the signature covers the text
 * as delivered, since that is what comes back.
 * @param {ChatPlan} plan
 */
function thinkingOf(plan) {
  // With thinking on, a turn that calls tools starts with thinking too, as the API requires it back (§C).
  const reasons = thinks(plan.scenario) || callsTools(plan.scenario);
  if (!reasons || !thinkingOn(plan.body)) return undefined;
  const omitted = isRecord(plan.body.thinking) && plan.body.thinking.display === 'omitted';
  const pieces = omitted ? [] : plan.reasoning;
  const text = pieces.join('');
  return {
    pieces,
    text,
    signature: thinkingSignature(plan.model, text),
    redacted: redactedThinking(plan.model, plan.reasoning.join('')),
    tokens: plan.reasoning.length,
  };
}

/**
 * @typedef {object} Script
 * @property {string[]} tokens
 * @property {string} stopReason
 * @property {ReturnType<typeof thinkingOf>} thinking
 * @property {(import('./tools.mjs').ToolCall & { id: string })[]} calls The tool calls, with toolu_ ids.
 */

/** @param {ChatPlan} plan @returns {Script} */
function scriptOf(plan) {
  const thinking = thinkingOf(plan);
  const cut = plan.tokens.slice(0, 3);
  if (plan.scenario === 'error-event') return { tokens: cut, stopReason: 'error', thinking, calls: [] };
  if (plan.scenario.startsWith('blocked')) return { tokens: cut, stopReason: 'refusal', thinking, calls: [] };
  if (plan.scenario === 'length') return { tokens: cut, stopReason: 'max_tokens', thinking, calls: [] };
  const calls = (plan.toolTurn?.calls ?? []).map((call) => ({ ...call, id: randomId('toolu_01', 22) }));
  return { tokens: plan.tokens, stopReason: calls.length > 0 ? 'tool_use' : 'end_turn', thinking, calls };
}

/** Output usage: thinking counts in output_tokens, and on its own in output_tokens_details. @param {Script} script */
function outputUsageOf({ tokens, thinking, calls }) {
  const callTokens = calls.reduce((sum, call) => sum + tokenize(call.arguments).length, 0);
  return {
    output_tokens: tokens.length + (thinking?.tokens ?? 0) + callTokens,
    ...(thinking && { output_tokens_details: { thinking_tokens: thinking.tokens } }),
  };
}

/** @param {string} name @param {unknown} value */
const event = (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`;

/** @param {ChatPlan} plan @returns {string[]} */
function streamFrames(plan) {
  const script = scriptOf(plan);
  const { tokens, stopReason, thinking, calls } = script;
  const cache = cacheOf(plan);
  const inputUsage = inputUsageOf(plan, cache);
  const message = {
    id: mockId('msg_'),
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      ...inputUsage,
      cache_creation: {
        ephemeral_5m_input_tokens: cache.byTtl['5m'],
        ephemeral_1h_input_tokens: cache.byTtl['1h'],
      },
      output_tokens: 1,
    },
  };
  /** @param {number} index @param {Record<string, unknown>} block */
  const blockStart = (index, block) =>
    event('content_block_start', { type: 'content_block_start', index, content_block: block });
  /** @param {number} index @param {Record<string, unknown>} delta */
  const blockDelta = (index, delta) =>
    event('content_block_delta', { type: 'content_block_delta', index, delta });
  /** @param {number} index */
  const blockStop = (index) => event('content_block_stop', { type: 'content_block_stop', index });
  const ping = event('ping', { type: 'ping' });
  const search = serverToolTurnOf(plan);
  if (search) {
    // A web search or code execution turn (anthropic-search.mjs, anthropic-code.mjs): its blocks
    // in order, a ping after the first start.
    return [
      event('message_start', { type: 'message_start', message }),
      ...search.blocks.flatMap((block, index) => [
        blockStart(index, block.start),
        ...(index === 0 ? [ping] : []),
        ...block.deltas.map((delta) => blockDelta(index, delta)),
        blockStop(index),
      ]),
      event('message_delta', {
        type: 'message_delta',
        delta: {
          stop_reason: search.stopReason,
          stop_sequence: null,
          ...(search.container && { container: search.container }),
        },
        usage: { ...inputUsage, ...searchUsageOf(search) },
      }),
      event('message_stop', { type: 'message_stop' }),
    ];
  }
  const thinkingFrames = thinking
    ? [
        blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
        ping,
        ...thinking.pieces.map((text) => blockDelta(0, { type: 'thinking_delta', thinking: text })),
        // The signature arrives just before the block stops (B2).
        blockDelta(0, { type: 'signature_delta', signature: thinking.signature }),
        blockStop(0),
        // Redacted thinking arrives whole, with no deltas.
        blockStart(1, { type: 'redacted_thinking', data: thinking.redacted }),
        blockStop(1),
      ]
    : [];
  const textIndex = thinking ? 2 : 0;
  // A turn that only calls tools has no text block.
  const hasText = calls.length === 0 || tokens.length > 0;
  const frames = [
    event('message_start', { type: 'message_start', message }),
    ...thinkingFrames,
    ...(hasText
      ? [
          blockStart(textIndex, { type: 'text', text: '' }),
          ...(thinking ? [] : [ping]),
          ...tokens.map((text) => blockDelta(textIndex, { type: 'text_delta', text })),
        ]
      : []),
  ];
  if (stopReason === 'error')
    return [
      ...frames,
      event('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ];
  const firstCallIndex = textIndex + (hasText ? 1 : 0);
  // Each tool_use block starts with an empty input, then its JSON in pieces, the first one empty (T2).
  const callFrames = calls.flatMap((call, offset) => {
    const index = firstCallIndex + offset;
    return [
      blockStart(index, { type: 'tool_use', id: call.id, name: call.name, input: {} }),
      ...(index === 0 ? [ping] : []),
      // A call without arguments streams only the empty piece.
      ...['', ...(call.arguments === '{}' ? [] : argumentPieces(call.arguments))].map((partial) =>
        blockDelta(index, { type: 'input_json_delta', partial_json: partial }),
      ),
      blockStop(index),
    ];
  });
  return [
    ...frames,
    ...(hasText ? [blockStop(textIndex)] : []),
    ...callFrames,
    // The usage here is cumulative and repeats the input side (B2).
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { ...inputUsage, ...outputUsageOf(script) },
    }),
    event('message_stop', { type: 'message_stop' }),
  ];
}

/**
 * @typedef {object} ServerToolTurn
 * @property {import('./anthropic-search.mjs').StreamedBlock[]} blocks
 * @property {string} stopReason
 * @property {number} outputTokens
 * @property {number} [requests] The web searches that ran.
 * @property {{ id: string, expires_at: string }} [container] The code execution container.
 */

/** A turn of server tool blocks: web search, or code execution. @param {ChatPlan} plan @returns {ServerToolTurn | undefined} */
const serverToolTurnOf = (plan) => anthropicSearchTurn(plan) ?? anthropicCodeTurn(plan);

/**
 * A server tool turn's output usage: its searches in server_tool_use (none for code execution,
 * as recorded).
 * @param {ServerToolTurn} search
 */
const searchUsageOf = (search) => ({
  output_tokens: search.outputTokens,
  server_tool_use: { web_search_requests: search.requests ?? 0, web_fetch_requests: 0 },
});

/** @param {ChatPlan} plan @returns {Reply} */
function reply(plan) {
  const search = serverToolTurnOf(plan);
  if (search) {
    const body = {
      id: mockId('msg_'),
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content: search.blocks.map((block) => block.whole),
      ...(search.container && { container: search.container }),
      stop_reason: search.stopReason,
      stop_sequence: null,
      usage: { ...inputUsageOf(plan, cacheOf(plan)), ...searchUsageOf(search) },
    };
    return { status: 200, body, headers: { 'request-id': mockId('req_') } };
  }
  const script = scriptOf(plan);
  const { tokens, stopReason, thinking, calls } = script;
  const cache = cacheOf(plan);
  const hasText = calls.length === 0 || tokens.length > 0;
  const thinkingBlocks = thinking
    ? [
        { type: 'thinking', thinking: thinking.text, signature: thinking.signature },
        { type: 'redacted_thinking', data: thinking.redacted },
      ]
    : [];
  const body = {
    id: mockId('msg_'),
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content: [
      ...thinkingBlocks,
      ...(hasText ? [{ type: 'text', text: tokens.join('') }] : []),
      ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args })),
    ],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...inputUsageOf(plan, cache), ...outputUsageOf(script) },
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
  retired: retiredError,
  conversation: conversationOf,
  toolState: anthropicToolState,
  isStream: (body) => body.stream === true,
  streamFrames,
  reply,
  midStreamErrorStatus: 529,
  // Items as /v1/models returns them, limits and capabilities included (docs/providers.md#model-lists).
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
