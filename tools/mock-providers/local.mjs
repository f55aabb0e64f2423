// @ts-check
/**
 * A local OpenAI-compatible server as Ollama runs one (PROVIDER-FACTS 2026 F): /v1/chat/completions
 * and /v1/models, no key needed (any key is accepted), CORS only for allowed origins (loopback by
 * default, more through OLLAMA_ORIGINS); any other origin gets 403. Served under
 * /local/<scenario>.<id>/v1: with no key to carry it, the scenario rides in the base URL.
 */

import { conversationOf } from './openai-family.mjs';
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

/** @param {ChatPlan} plan */
function usageOf(plan) {
  const completion = plan.tokens.length;
  return {
    prompt_tokens: plan.inputTokens,
    completion_tokens: completion,
    total_tokens: plan.inputTokens + completion,
  };
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
  /** @param {string} content @param {string | null} finish */
  const chunk = (content, finish) =>
    data({
      ...envelope,
      choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: finish }],
    });
  const tokens = plan.scenario === 'error-event' ? plan.tokens.slice(0, 3) : plan.tokens;
  const frames = tokens.map((token) => chunk(token, null));
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
  frames.push(chunk('', 'stop'));
  const options = plan.body.stream_options;
  if (isRecord(options) && options.include_usage === true)
    frames.push(data({ ...envelope, choices: [], usage: usageOf(plan) }));
  return [...frames, 'data: [DONE]\n\n'];
}

/** @param {ChatPlan} plan @returns {Reply} */
function reply(plan) {
  const body = {
    id: mockId('chatcmpl-'),
    object: 'chat.completion',
    created: unixNow(),
    model: plan.model,
    system_fingerprint: 'fp_ollama',
    choices: [
      { index: 0, message: { role: 'assistant', content: plan.tokens.join('') }, finish_reason: 'stop' },
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
