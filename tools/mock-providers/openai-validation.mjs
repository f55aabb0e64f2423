// @ts-check
/** Request validation of OpenAI (and Azure, which shares its schema) and of Groq, with their own error wording. */

import { isRecord } from './wire.mjs';

/** @typedef {import('./wire.mjs').Reply} Reply */

const openaiKeys = [
  'messages',
  'model',
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'modalities',
  'moderation',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
];

const groqKeys = [
  'messages',
  'model',
  'citation_options',
  'compound_custom',
  'disable_tool_validation',
  'documents',
  'exclude_domains',
  'frequency_penalty',
  'function_call',
  'functions',
  'include_domains',
  'include_reasoning',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'n',
  'parallel_tool_calls',
  'presence_penalty',
  'reasoning_effort',
  'reasoning_format',
  'response_format',
  'search_settings',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
];

/** @type {Record<string, string[]>} */
const openaiMessageKeys = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'audio', 'content', 'function_call', 'name', 'refusal', 'tool_calls'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};

/** Groq documents `name` as unsupported; the mock holds to that. @type {Record<string, string[]>} */
const groqMessageKeys = {
  system: ['role', 'content'],
  user: ['role', 'content'],
  assistant: ['role', 'content', 'tool_calls', 'reasoning'],
  tool: ['role', 'content', 'tool_call_id'],
};

/**
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 * @returns {Reply}
 */
export function openaiInvalid(message, fields = {}) {
  return {
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param: null, code: null, ...fields } },
  };
}

/** @param {string} message @returns {Reply} */
export function groqInvalid(message) {
  return { status: 400, body: { error: { message, type: 'invalid_request_error' } } };
}

/** @type {[string, number, number][]} */
const ranges = [
  ['temperature', 0, 2],
  ['top_p', 0, 1],
  ['frequency_penalty', -2, 2],
  ['presence_penalty', -2, 2],
  ['max_tokens', 1, Number.MAX_SAFE_INTEGER],
];

/** @param {Record<string, unknown>} body @returns {Reply | undefined} */
function openaiRangeError(body) {
  for (const [name, min, max] of ranges) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    const kind = name === 'max_tokens' ? 'integer' : 'decimal';
    if (typeof value !== 'number') {
      const message = `Invalid type for '${name}': expected a ${kind}, but got ${typeof value} instead.`;
      return openaiInvalid(message, { param: name, code: 'invalid_type' });
    }
    if (value < min || value > max) {
      const [side, bound] = value < min ? ['below minimum', `>= ${min}`] : ['above maximum', `<= ${max}`];
      const message = `Invalid '${name}': ${kind} ${side} value. Expected a value ${bound}, but got ${value} instead.`;
      return openaiInvalid(message, { param: name, code: `${kind}_${side.replace(' ', '_')}_value` });
    }
  }
  return undefined;
}

/**
 * @param {Record<string, unknown>} body
 * @param {{ requireModel: boolean, allowStreamOptions: boolean }} options
 * @returns {Reply | undefined}
 */
export function validateOpenAIBody(body, { requireModel, allowStreamOptions }) {
  const unknown = Object.keys(body).find(
    (key) => !openaiKeys.includes(key) || (key === 'stream_options' && !allowStreamOptions),
  );
  if (unknown) return openaiInvalid(`Unrecognized request argument supplied: ${unknown}`);
  if (requireModel && typeof body.model !== 'string')
    return openaiInvalid('you must provide a model parameter');
  if (!('messages' in body)) {
    return openaiInvalid("Missing required parameter: 'messages'.", {
      param: 'messages',
      code: 'missing_required_parameter',
    });
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    const message =
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
    return openaiInvalid(message, { param: 'messages', code: 'empty_array' });
  }
  for (const [index, entry] of messages.entries()) {
    const role = isRecord(entry) ? String(entry.role) : '';
    const allowed = openaiMessageKeys[role];
    if (!isRecord(entry) || !allowed) {
      const message = `Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`;
      return openaiInvalid(message, { param: `messages[${index}].role`, code: 'invalid_value' });
    }
    const extra = Object.keys(entry).find((key) => !allowed.includes(key));
    if (extra)
      return openaiInvalid(
        `Additional properties are not allowed ('${extra}' was unexpected) - 'messages.${index}'`,
      );
    if (typeof entry.content !== 'string' && !Array.isArray(entry.content)) {
      const message = `Invalid type for 'messages[${index}].content': expected one of a string or array of objects, but got ${typeof entry.content} instead.`;
      return openaiInvalid(message, { param: `messages[${index}].content`, code: 'invalid_type' });
    }
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    const message = "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
    return openaiInvalid(message, { param: 'stream_options', code: 'invalid_value' });
  }
  return openaiRangeError(body);
}

/** @param {Record<string, unknown>} body @returns {Reply | undefined} */
export function validateGroqBody(body) {
  const unknown = Object.keys(body).find((key) => !groqKeys.includes(key));
  if (unknown) return groqInvalid(`property '${unknown}' is unsupported`);
  const unsupported = ['logprobs', 'logit_bias', 'top_logprobs'].find((key) => body[key] !== undefined);
  if (unsupported) return groqInvalid(`'${unsupported}' : is not supported by this model`);
  if (body.n !== undefined && body.n !== 1) return groqInvalid("'n' : number must be at most 1");
  if (typeof body.model !== 'string') return groqInvalid("'model' : property 'model' is missing");
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return groqInvalid("'messages' : minimum number of items is 1");
  for (const [index, entry] of messages.entries()) {
    const role = isRecord(entry) ? String(entry.role) : '';
    const allowed = groqMessageKeys[role];
    if (!isRecord(entry) || !allowed)
      return groqInvalid(`'messages.${index}' : discriminator property 'role' has invalid value`);
    const extra = Object.keys(entry).find((key) => !allowed.includes(key));
    if (extra) {
      return groqInvalid(
        `'messages.${index}' : for 'role:${role}' the following must be satisfied[('messages.${index}' : property '${extra}' is unsupported)]`,
      );
    }
  }
  const temperature = body.temperature;
  if (typeof temperature === 'number' && (temperature < 0 || temperature > 2)) {
    return groqInvalid(`'temperature' : number must be ${temperature < 0 ? 'at least 0' : 'at most 2'}`);
  }
  return undefined;
}
