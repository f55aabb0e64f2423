// @ts-check
/**
 * A local OpenAI-compatible server as Ollama runs one (docs/providers.md#openai-compatible-servers):
 * /v1/chat/completions and /v1/models, no key needed (any key is accepted), CORS only for allowed
 * origins (loopback by default, more through OLLAMA_ORIGINS); any other origin gets 403. Served
 * under /local/<scenario>.<id>/v1: with no key to carry it, the scenario rides in the base URL.
 */

import { conversationOf } from './openai-family.mjs';
import { inThinkTags, thinks, thinksApart } from './scenarios.mjs';
import { isRecord, mockId, unixNow } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 */

/** Ollama's default allowed origins: loopback hosts on any port. @param {string | undefined} origin */
function allowedOrigin(origin) {
  if (!origin) return true;
  try {
    return ['localhost', '127.0.0.1', '[::1]', '0.0.0.0'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** @param {MockRequest} request */
const scenarioPart = (request) => request.params.key ?? '';

/** @param {MockRequest} request @returns {Record<string, string>} */
function corsHeaders(request) {
  const origin = request.headers.origin;
  return origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
}

/** The `no-cors` scenario stands for an origin the server was not told to allow. @param {MockRequest} request */
function refused(request) {
  return scenarioPart(request).startsWith('no-cors') || !allowedOrigin(request.headers.origin);
}

/** @param {number} status @param {string} message @returns {Reply} */
function apiError(status, message) {
  return { status, body: { error: { message, type: 'api_error', param: null, code: null } } };
}

/**
 * What to send: `thinking` streams reasoning_content first, DeepSeek style
 * (docs/providers.md#openai-compatible-servers); `think-tags` puts the reasoning in a leading
 * <think>…</think> in the content.
 * @param {ChatPlan} plan
 */
function scriptOf(plan) {
  const cut = plan.scenario === 'error-event' || plan.scenario === 'length';
  const answer = cut ? plan.tokens.slice(0, 3) : plan.tokens;
  const finish = plan.scenario === 'length' ? 'length' : 'stop';
  const reasoningTokens = thinks(plan.scenario) ? plan.reasoning.length : 0;
  return {
    reasoning: thinksApart(plan.scenario) ? plan.reasoning : [],
    content: plan.scenario === 'think-tags' ? inThinkTags(plan.reasoning, answer) : answer,
    answerTokens: answer.length,
    reasoningTokens,
    finish,
  };
}

/** DeepSeek-style usage has a top-level reasoning_tokens and null prompt details (B4). @param {ChatPlan} plan */
function usageOf(plan) {
  const { answerTokens, reasoningTokens } = scriptOf(plan);
  const completion = answerTokens + reasoningTokens;
  const usage = {
    prompt_tokens: plan.inputTokens,
    completion_tokens: completion,
    total_tokens: plan.inputTokens + completion,
  };
  return thinksApart(plan.scenario)
    ? { ...usage, prompt_tokens_details: null, reasoning_tokens: reasoningTokens }
    : usage;
}

/** @param {unknown} value */
const data = (value) => `data: ${JSON.stringify(value)}\n\n`;

/** @param {ChatPlan} plan @returns {string[]} */
function streamFrames(plan) {
  const envelope = {
    id: mockId('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: unixNow(),
    model: plan.model,
    system_fingerprint: 'fp_ollama',
  };
  const deepseek = thinksApart(plan.scenario);
  /**
   * Ollama repeats the role in every delta; a DeepSeek-style server sends every key in every delta,
   * null when unused.
   * @param {Record<string, unknown>} fields
   */
  const delta = (fields) =>
    deepseek
      ? { role: null, content: null, reasoning_content: null, tool_calls: null, ...fields }
      : { role: 'assistant', ...fields };
  /** @param {Record<string, unknown>} fields @param {string | null} finish */
  const chunk = (fields, finish) =>
    data({ ...envelope, choices: [{ index: 0, delta: delta(fields), finish_reason: finish }] });
  const { reasoning, content, finish } = scriptOf(plan);
  const frames = [
    ...(deepseek ? [chunk({ role: 'assistant', content: '' }, null)] : []),
    ...reasoning.map((piece) => chunk({ reasoning_content: piece }, null)),
    ...content.map((token) => chunk({ content: token }, null)),
  ];
  if (plan.scenario === 'error-event')
    return [
      ...frames,
      data({
        error: {
          message: 'model runner has unexpectedly stopped',
          type: 'api_error',
          param: null,
          code: null,
        },
      }),
    ];
  frames.push(chunk(deepseek ? {} : { content: '' }, finish));
  const options = plan.body.stream_options;
  if (isRecord(options) && options.include_usage === true)
    frames.push(data({ ...envelope, choices: [], usage: usageOf(plan) }));
  return [...frames, 'data: [DONE]\n\n'];
}

/** @param {ChatPlan} plan @returns {Reply} */
function reply(plan) {
  const { reasoning, content, finish } = scriptOf(plan);
  const thinking = thinksApart(plan.scenario) ? { reasoning_content: reasoning.join('') } : {};
  const body = {
    id: mockId('chatcmpl-'),
    object: 'chat.completion',
    created: unixNow(),
    model: plan.model,
    system_fingerprint: 'fp_ollama',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: content.join(''), ...thinking },
        finish_reason: finish,
      },
    ],
    usage: usageOf(plan),
  };
  return { status: 200, body };
}

/** @type {MockProvider} */
export const localMock = {
  id: 'local',
  keyOf: scenarioPart,
  corsHeaders,
  preflight: (request) =>
    refused(request)
      ? { status: 403, body: '', withoutCors: true }
      : {
          status: 204,
          body: '',
          headers: {
            ...corsHeaders(request),
            'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
            'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '',
          },
        },
  gate: (request) => (refused(request) ? { status: 403, body: '', withoutCors: true } : undefined),
  missingKey: () => apiError(404, '404 page not found'),
  badKey: (key) => apiError(404, `unknown mock scenario in the path: ${key}`),
  invalidJson: () => apiError(400, 'invalid character looking for beginning of value'),
  validate: (body) => {
    if (typeof body.model !== 'string' || body.model === '') return apiError(400, 'model is required');
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return apiError(400, 'messages is required');
    return undefined;
  },
  httpError: (status, model) =>
    status === 404
      ? apiError(404, `model "${model}" not found, try pulling it first`)
      : apiError(status, `mock ${status}`),
  conversation: conversationOf,
  isStream: (body) => body.stream === true,
  streamFrames,
  reply,
  midStreamErrorStatus: 500,
  models: () => ({
    object: 'list',
    data: ['llama3.2:latest', 'qwen3:8b', 'gemma3:4b'].map((id) => ({
      id,
      object: 'model',
      created: 1736000000,
      owned_by: 'library',
    })),
  }),
};
