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

/**
 * Groq documents `name` as unsupported; the mock holds to that. Reasoning sent back in assistant
 * history (`reasoning`, `reasoning_content`) is refused as any other extra key (docs/providers.md#groq).
 * @type {Record<string, string[]>}
 */
const groqMessageKeys = {
  system: ['role', 'content'],
  user: ['role', 'content'],
  assistant: ['role', 'content', 'tool_calls'],
  tool: ['role', 'content', 'tool_call_id'],
};

/** Groq's reasoning_effort values per reasoning model family (A6); other models are not checked. @param {string} model */
function groqEffortsOf(model) {
  if (model.includes('qwen3')) return ['none', 'default'];
  if (model.includes('gpt-oss')) return ['low', 'medium', 'high'];
  return undefined;
}

/** `a` or `b`; `a`, `b`, or `c`. @param {string[]} values */
function backtickedChoice(values) {
  const quoted = values.map((value) => `\`${value}\``);
  return quoted.length < 3 ? quoted.join(' or ') : `${quoted.slice(0, -1).join(', ')}, or ${quoted.at(-1)}`;
}

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

/**
 * OpenAI reasoning models (o-series, gpt-5 and later except the `gpt-N-chat` variants) refuse
 * `max_tokens` and any sampling setting, each with its own 400 (docs/providers.md#openai-reasoning-models).
 * @param {unknown} model
 */
export function isReasoningModel(model) {
  if (typeof model !== 'string') return false;
  if (/^gpt-\d+-chat/.test(model)) return false;
  return /^o\d/.test(model) || /^gpt-([5-9]|[1-9]\d)/.test(model);
}

/** @param {Record<string, unknown>} body @returns {Reply | undefined} */
function reasoningModelError(body) {
  if (body.max_tokens !== undefined) {
    const message =
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
    return openaiInvalid(message, { param: 'max_tokens', code: 'unsupported_parameter' });
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    const message = `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`;
    return openaiInvalid(message, { param: 'temperature', code: 'unsupported_value' });
  }
  for (const name of ['top_p', 'frequency_penalty', 'presence_penalty']) {
    if (body[name] === undefined) continue;
    const message = `Unsupported parameter: '${name}' is not supported with this model.`;
    return openaiInvalid(message, { param: name, code: 'unsupported_parameter' });
  }
  return undefined;
}

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
 * A value as OpenAI's type errors name it: 'an integer', 'a decimal', 'a boolean', 'an object'.
 * @param {unknown} value
 */
function typeWording(value) {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  const name = Array.isArray(value) ? 'array' : typeof value;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/**
 * A string field given another type, in Chat Completions and Responses alike: [V] `Invalid type
 * for 'prompt_cache_key': expected a string, but got an integer instead.`, param the field, code
 * `invalid_type`. [A]: the other types' wording (a decimal, a boolean…), and null passing as unset.
 * @param {Record<string, unknown>} body @param {string} name @returns {Reply | undefined}
 */
export function stringFieldError(body, name) {
  const value = body[name];
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  const message = `Invalid type for '${name}': expected a string, but got ${typeWording(value)} instead.`;
  return openaiInvalid(message, { param: name, code: 'invalid_type' });
}

/**
 * @param {Record<string, unknown>} body
 * @param {{ requireModel: boolean, allowStreamOptions: boolean, reasoning: boolean }} options
 *   reasoning: the model is a reasoning model (for Azure the deployment's model, which the body does not name)
 * @returns {Reply | undefined}
 */
export function validateOpenAIBody(body, { requireModel, allowStreamOptions, reasoning }) {
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
    // An assistant message that calls tools may leave its content out or null (T2).
    const callsTools =
      role === 'assistant' && (Array.isArray(entry.tool_calls) || isRecord(entry.function_call));
    if (callsTools && (entry.content === null || entry.content === undefined)) continue;
    if (typeof entry.content !== 'string' && !Array.isArray(entry.content)) {
      const message = `Invalid type for 'messages[${index}].content': expected one of a string or array of objects, but got ${typeof entry.content} instead.`;
      return openaiInvalid(message, { param: `messages[${index}].content`, code: 'invalid_type' });
    }
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    const message = "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
    return openaiInvalid(message, { param: 'stream_options', code: 'invalid_value' });
  }
  return (
    stringFieldError(body, 'prompt_cache_key') ??
    openaiRangeError(body) ??
    (reasoning ? reasoningModelError(body) : undefined)
  );
}

/** @param {Record<string, unknown>} body @returns {Reply | undefined} */
export function validateGroqBody(body) {
  const unknown = Object.keys(body).find((key) => !groqKeys.includes(key));
  if (unknown) return groqInvalid(`property '${unknown}' is unsupported`);
  const unsupported = ['logprobs', 'logit_bias', 'top_logprobs'].find((key) => body[key] !== undefined);
  if (unsupported) return groqInvalid(`'${unsupported}' : is not supported by this model`);
  if (body.n !== undefined && body.n !== 1) return groqInvalid("'n' : number must be at most 1");
  if (typeof body.model !== 'string') return groqInvalid("'model' : property 'model' is missing");
  if (body.include_reasoning !== undefined && body.reasoning_format !== undefined)
    return groqInvalid('cannot specify both `include_reasoning` and `reasoning_format`');
  const efforts = groqEffortsOf(body.model);
  if (body.reasoning_effort !== undefined && efforts && !efforts.includes(String(body.reasoning_effort)))
    return groqInvalid(`\`reasoning_effort\` must be one of ${backtickedChoice(efforts)}`);
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
