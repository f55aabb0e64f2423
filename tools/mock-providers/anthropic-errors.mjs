// @ts-check
/** Anthropic's error replies: the browser-access gate, pydantic-style validation, keys and statuses. */

import { searchHistoryError, searchScenarioError } from './anthropic-search.mjs';
import { anthropicHistoryError, anthropicToolsError } from './anthropic-tools.mjs';
import { MB, decodeBase64, imageSize, imageTypes, magicType, pdfPageCount } from './attachments.mjs';
import { isRedactedThinking, thinkingSignature } from './signatures.mjs';
import { isRecord, mockId } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 */

const topLevelKeys = [
  'max_tokens',
  'messages',
  'model',
  'cache_control',
  'container',
  'inference_geo',
  'metadata',
  'output_config',
  'service_tier',
  'stop_sequences',
  'stream',
  'system',
  'temperature',
  'thinking',
  'tool_choice',
  'tools',
  'top_k',
  'top_p',
  'user_profile_id',
];
const knownVersions = ['2023-06-01', '2023-01-01'];
/** A system text block (TextBlockParam). */
const systemBlockKeys = ['type', 'text', 'cache_control', 'citations'];

/**
 * @param {number} status @param {string} type @param {string} message @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function anthropicError(status, type, message, headers = {}) {
  /** @type {Record<string, string>} */
  const retry = status === 429 || status >= 500 ? { 'x-should-retry': 'true' } : {};
  return {
    status,
    body: { type: 'error', error: { type, message }, request_id: mockId('req_') },
    headers: { 'request-id': mockId('req_'), ...retry, ...headers },
  };
}

/** @param {string} message */
const invalid = (message) => anthropicError(400, 'invalid_request_error', message);

/** Whether a request turns thinking on. @param {Record<string, unknown>} body */
export const thinkingOn = (body) =>
  isRecord(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');

/** Models released after Opus 4.6: fixed sampling, adaptive thinking only (docs/providers.md#anthropic-thinking). @param {unknown} model */
const isLatestModel = (model) => /^claude-(opus-4-[7-9]|opus-5|sonnet-5|fable|mythos)/.test(String(model));

/** The thinking settings (A4). @param {Record<string, unknown>} body @returns {Reply | undefined} */
function thinkingError(body) {
  const thinking = body.thinking;
  if (thinking === undefined) return undefined;
  const type = isRecord(thinking) ? thinking.type : undefined;
  if (type !== 'enabled' && type !== 'disabled' && type !== 'adaptive') {
    return invalid(
      `thinking: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`,
    );
  }
  if (type !== 'enabled') return undefined;
  const budget = /** @type {Record<string, unknown>} */ (thinking).budget_tokens;
  if (typeof budget !== 'number')
    return invalid(
      `thinking.enabled.budget_tokens: ${budget === undefined ? 'Field required' : 'Input should be a valid integer'}`,
    );
  if (budget < 1024)
    return invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (isLatestModel(body.model)) {
    return invalid(
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    );
  }
  if (typeof body.max_tokens === 'number' && budget >= body.max_tokens)
    return invalid('`max_tokens` must be greater than `thinking.budget_tokens`.');
  return undefined;
}

/** Sampling settings with thinking on: temperature only 1, top_p at least 0.95, no top_k (A4). @param {Record<string, unknown>} body */
function thinkingSamplingError(body) {
  if (!thinkingOn(body)) return undefined;
  if (body.temperature !== undefined && body.temperature !== 1)
    return invalid('`temperature` may only be set to 1 when thinking is enabled or in adaptive mode');
  if (typeof body.top_p === 'number' && body.top_p < 0.95)
    return invalid(
      '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled or in adaptive mode',
    );
  if (body.top_k !== undefined)
    return invalid('`top_k` must be unset when thinking is enabled or in adaptive mode');
  return undefined;
}

/**
 * Thinking blocks sent back in assistant turns (docs/providers.md#sending-reasoning-back): each must be one the mock
 * issued for this model, unchanged; none may end a message; none may sit in the final message when
 * thinking is off.
 * @param {Record<string, unknown>} body @param {unknown[]} messages @returns {Reply | undefined}
 */
function thinkingBlocksError(body, messages) {
  const model = String(body.model);
  /** @param {unknown} block */
  const isThinking = (block) =>
    isRecord(block) && (block.type === 'thinking' || block.type === 'redacted_thinking');
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const content = message.content;
    if (index === messages.length - 1 && !thinkingOn(body) && content.some(isThinking)) {
      return invalid(
        'When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`',
      );
    }
    if (isThinking(content.at(-1)))
      return invalid('The final block in an assistant message cannot be `thinking`');
    for (const [blockIndex, block] of content.entries()) {
      if (!isRecord(block)) continue;
      const where = `messages.${index}.content.${blockIndex}`;
      const thinking = typeof block.thinking === 'string' ? block.thinking : '';
      if (block.type === 'thinking' && block.signature !== thinkingSignature(model, thinking))
        return invalid(`${where}: Invalid \`signature\` in \`thinking\` block`);
      if (block.type === 'redacted_thinking' && !isRedactedThinking(model, block.data))
        return invalid(`${where}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  }
  return undefined;
}

/**
 * A cache_control, top level or on a block (docs/providers.md#anthropic-prompt-caching):
 * `{type: 'ephemeral', ttl?: '5m' | '1h'}`. `where` is the block's path, e.g. `system.0.`.
 * [A]: the path of a block's marker in the wording.
 * @param {unknown} control @param {string} [where] @returns {Reply | undefined}
 */
function cacheControlError(control, where = '') {
  if (control === undefined) return undefined;
  if (!isRecord(control) || control.type !== 'ephemeral')
    return invalid(`${where}cache_control.type: Input should be 'ephemeral'`);
  if (control.ttl !== undefined && control.ttl !== '5m' && control.ttl !== '1h')
    return invalid(`${where}cache_control.ttl: Input should be '5m' or '1h'`);
  return undefined;
}

/** The most blocks with cache_control one request may carry, the top-level marker counted as one. */
const maxCacheBreakpoints = 4;

/**
 * `system` as text blocks, and every cache_control on a block: on system text blocks, on message
 * content blocks (tool_result content included) and on tools, each a valid marker; at most four
 * in all, else [R] `A maximum of 4 blocks with cache_control may be provided. Found 5.`
 * (envoyproxy/ai-gateway#1712 and many more). The top-level marker (automatic caching) takes one
 * of the four, as Anthropic documents it (reported in trpc-group/trpc-agent-go#2506); that the
 * count in the message includes it is [A]. [R] `…
 * text content blocks must be non-empty` (for messages); [A]: the same for system blocks, and the
 * wording of a system block's wrong type or extra key.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
function cacheBreakpointsError(body) {
  let count = isRecord(body.cache_control) ? 1 : 0;
  /** @param {Record<string, unknown>} block @param {string} where @returns {Reply | undefined} */
  const marker = (block, where) => {
    if (block.cache_control === undefined || block.cache_control === null) return undefined;
    count += 1;
    return cacheControlError(block.cache_control, where);
  };
  if (Array.isArray(body.system)) {
    for (const [index, block] of body.system.entries()) {
      const at = `system.${index}`;
      if (!isRecord(block)) return invalid(`${at}: Input should be a valid dictionary`);
      if (block.type !== 'text') return invalid(`${at}.type: Input should be 'text'`);
      if (typeof block.text !== 'string') return invalid(`${at}.text: Input should be a valid string`);
      if (block.text === '') return invalid('system: text content blocks must be non-empty');
      if (block.text.trim() === '')
        return invalid('system: text content blocks must contain non-whitespace text');
      const extra = Object.keys(block).find((key) => !systemBlockKeys.includes(key));
      if (extra) return invalid(`${at}.${extra}: Extra inputs are not permitted`);
      const error = marker(block, `${at}.`);
      if (error) return error;
    }
  }
  /** @param {unknown} content @param {string} where @returns {Reply | undefined} */
  const walk = (content, where) => {
    if (!Array.isArray(content)) return undefined;
    for (const [index, block] of content.entries()) {
      if (!isRecord(block)) continue;
      const at = `${where}.${index}`;
      if (block.type === 'text' && block.text === '')
        return invalid('messages: text content blocks must be non-empty');
      const error =
        marker(block, `${at}.`) ??
        (block.type === 'tool_result' ? walk(block.content, `${at}.content`) : undefined);
      if (error) return error;
    }
    return undefined;
  };
  for (const [index, message] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
    const error = isRecord(message) ? walk(message.content, `messages.${index}.content`) : undefined;
    if (error) return error;
  }
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const error = isRecord(tool) ? marker(tool, `tools.${index}.`) : undefined;
    if (error) return error;
  }
  if (count > maxCacheBreakpoints)
    return invalid(
      `A maximum of ${maxCacheBreakpoints} blocks with cache_control may be provided. Found ${count}.`,
    );
  return undefined;
}

/**
 * Images and documents (docs/providers.md#attachments). Wording: [V]/[R] `…image.source.base64: image exceeds
 * 5 MB maximum: X bytes > 5242880 bytes` (X counts the base64 text); [R] `…image.source.base64.media_type:
 * Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'` (anthropics/claude-code#8184),
 * `…image.source.base64: image cannot be empty` (#12750), `…image.source.base64: invalid base64 data`
 * (anthropic-sdk-typescript#603), `…image.source.base64.data: Image does not match the provided media
 * type image/png` (claude-code#12064 and many more, 2025), and its 2026 form for bytes of another image
 * type `…image.source.base64: The image was specified using the image/png media type, but the image
 * appears to be a image/jpeg image` (home-assistant/core#167208, BerriAI/litellm#24900); `…image.source
 * .base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels` and `… for
 * many-image requests: 2000 pixels` (code corpus); `…pdf.source.base64.data: The PDF specified was not
 * valid.` (claude-code#5174); `A maximum of 100 PDF pages may be provided.` (docs/providers.md#attachments). [A]: the document
 * media_type wording, and a bad PDF's base64 getting the not-valid PDF message.
 * The per-request image count (100, or 600 with more than 200k context) is not checked.
 */
const imageLimits = {
  base64Chars: 5 * MB,
  pixels: 8000,
  manyImagesPixels: 2000,
  manyImages: 20,
  pdfPages: 100,
};

/**
 * One image block's source; its pixel size when it is base64.
 * @param {Record<string, unknown>} block @param {string} where e.g. messages.0.content.1
 * @returns {Reply | { width: number, height: number } | undefined}
 */
function imageBlockCheck(block, where) {
  const source = block.source;
  if (!isRecord(source)) return invalid(`${where}.image.source: Field required`);
  if (source.type === 'url' || source.type === 'file') return undefined;
  if (source.type !== 'base64') {
    return invalid(
      `${where}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`,
    );
  }
  const at = `${where}.image.source.base64`;
  const mediaType = String(source.media_type);
  if (!imageTypes.includes(mediaType))
    return invalid(
      `${at}.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    );
  if (typeof source.data !== 'string') return invalid(`${at}.data: Input should be a valid string`);
  if (source.data === '') return invalid(`${at}: image cannot be empty`);
  if (source.data.length > imageLimits.base64Chars) {
    return invalid(
      `${at}: image exceeds 5 MB maximum: ${source.data.length} bytes > ${imageLimits.base64Chars} bytes`,
    );
  }
  const bytes = decodeBase64(source.data);
  if (!bytes) return invalid(`${at}: invalid base64 data`);
  const size = imageSize(bytes, mediaType);
  if (size) return size;
  const actual = magicType(bytes);
  if (actual && actual !== mediaType && imageTypes.includes(actual)) {
    return invalid(
      `${at}: The image was specified using the ${mediaType} media type, but the image appears to be a ${actual} image`,
    );
  }
  return invalid(`${at}.data: Image does not match the provided media type ${mediaType}`);
}

/**
 * One document block's source; its page count when it is a base64 PDF.
 * @param {Record<string, unknown>} block @param {string} where @returns {Reply | number}
 */
function documentBlockCheck(block, where) {
  const source = block.source;
  if (!isRecord(source)) return invalid(`${where}.document.source: Field required`);
  if (source.type === 'text') {
    if (source.media_type !== 'text/plain')
      return invalid(`${where}.document.source.text.media_type: Input should be 'text/plain'`);
    if (typeof source.data !== 'string')
      return invalid(`${where}.document.source.text.data: Input should be a valid string`);
    return 0;
  }
  if (source.type !== 'base64') return 0;
  if (source.media_type !== 'application/pdf')
    return invalid(`${where}.document.source.base64.media_type: Input should be 'application/pdf'`);
  const bytes = decodeBase64(source.data);
  if (!bytes || magicType(bytes) !== 'application/pdf')
    return invalid(`${where}.pdf.source.base64.data: The PDF specified was not valid.`);
  return pdfPageCount(bytes);
}

/** The image and document blocks of every message, tool results included. @param {unknown[]} messages @returns {Reply | undefined} */
function attachmentsError(messages) {
  /** @type {{ where: string, width: number, height: number }[]} */
  const images = [];
  let pages = 0;
  /** @param {unknown} content @param {string} where @returns {Reply | undefined} */
  const walk = (content, where) => {
    if (!Array.isArray(content)) return undefined;
    for (const [index, block] of content.entries()) {
      if (!isRecord(block)) continue;
      const at = `${where}.${index}`;
      if (block.type === 'image') {
        const checked = imageBlockCheck(block, at);
        if (checked && 'status' in checked) return checked;
        if (checked) images.push({ where: at, ...checked });
      } else if (block.type === 'document') {
        const checked = documentBlockCheck(block, at);
        if (typeof checked !== 'number') return checked;
        pages += checked;
      } else if (block.type === 'tool_result') {
        const error = walk(block.content, `${at}.tool_result.content`);
        if (error) return error;
      }
    }
    return undefined;
  };
  for (const [index, message] of messages.entries()) {
    const error = isRecord(message) ? walk(message.content, `messages.${index}.content`) : undefined;
    if (error) return error;
  }
  const many = images.length > imageLimits.manyImages;
  const limit = many ? imageLimits.manyImagesPixels : imageLimits.pixels;
  const large = images.find((image) => Math.max(image.width, image.height) > limit);
  if (large) {
    return invalid(
      `${large.where}.image.source.base64.data: At least one of the image dimensions exceed max allowed size${many ? ' for many-image requests' : ''}: ${limit} pixels`,
    );
  }
  if (pages > imageLimits.pdfPages) return invalid('A maximum of 100 PDF pages may be provided.');
  return undefined;
}

/**
 * Anthropic's front end refuses a body over 32 MB before anything else, with a 413 whose body,
 * as reported, has no `"type":"error"` wrapper and no request_id: `{"error":{"type":
 * "request_too_large","message":"Request exceeds the maximum size"}}` [R] anthropics/claude-code
 * #3335, #10314, #14447, anthropics/anthropic-sdk-python#938 (32 MB for the Messages API, per the
 * maintainer there). Whether 32 MB means 32 MiB is [A]; CORS headers on it are [A] (kept, so a
 * browser can read it).
 * @param {MockRequest} request @returns {Reply | undefined}
 */
function sizeGate(request) {
  if (Buffer.byteLength(request.bodyText, 'utf8') <= 32 * MB) return undefined;
  return {
    status: 413,
    body: { error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } },
  };
}

/** @param {MockRequest} request @returns {Reply | undefined} */
export function gate(request) {
  const tooLarge = sizeGate(request);
  if (tooLarge) return tooLarge;
  // Anthropic refuses browser requests (they carry an Origin) without this header, and leaves out
  // every CORS header, so the browser only sees a failed fetch.
  if (request.headers.origin && request.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
    return {
      ...anthropicError(
        401,
        'authentication_error',
        "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
      ),
      withoutCors: true,
    };
  }
  const version = request.headers['anthropic-version'];
  if (!version) return invalid('anthropic-version: header is required');
  if (!knownVersions.includes(version))
    return invalid(`anthropic-version: "${version}" is not a valid version`);
  return undefined;
}

/** @param {Record<string, unknown>} body @param {unknown} _request @param {string} scenario @returns {Reply | undefined} */
export function validate(body, _request, scenario) {
  const unknown = Object.keys(body).find((key) => !topLevelKeys.includes(key));
  if (unknown) return invalid(`${unknown}: Extra inputs are not permitted`);
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (body[field] === undefined) return invalid(`${field}: Field required`);
  }
  if (!Array.isArray(body.messages)) return invalid('messages: Input should be a valid list');
  for (const [index, message] of body.messages.entries()) {
    if (!isRecord(message)) return invalid(`messages.${index}: Input should be a valid dictionary`);
    if (message.role === 'system') {
      return invalid(
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      );
    }
    if (message.role !== 'user' && message.role !== 'assistant')
      return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
    const extra = Object.keys(message).find((key) => key !== 'role' && key !== 'content');
    if (extra) return invalid(`messages.${index}.${extra}: Extra inputs are not permitted`);
    const isLast = index === body.messages.length - 1;
    if (
      (message.content === '' || (Array.isArray(message.content) && message.content.length === 0)) &&
      !(isLast && message.role === 'assistant')
    ) {
      return invalid(
        `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
      );
    }
    if (typeof message.content === 'string' && message.content !== '' && message.content.trim() === '') {
      return invalid('messages: text content blocks must contain non-whitespace text');
    }
  }
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    return invalid('system: Input should be a valid string');
  const mediaError = attachmentsError(body.messages);
  if (mediaError) return mediaError;
  const settingsError =
    thinkingError(body) ??
    cacheControlError(body.cache_control) ??
    anthropicToolsError(body) ??
    cacheBreakpointsError(body);
  if (settingsError) return settingsError;
  const temperature = body.temperature;
  // Models released after Opus 4.6 take no sampling settings (docs/providers.md#anthropic-thinking).
  const fixedSampling = scenario === 'reasoning-model' || isLatestModel(body.model);
  if (fixedSampling && temperature !== undefined && temperature !== 1)
    return invalid('`temperature` is deprecated for this model.');
  if (typeof temperature === 'number' && temperature > 1)
    return invalid('temperature: Input should be less than or equal to 1');
  if (typeof temperature === 'number' && temperature < 0)
    return invalid('temperature: Input should be greater than or equal to 0');
  const samplingError = thinkingSamplingError(body);
  if (samplingError) return samplingError;
  if (temperature !== undefined && body.top_p !== undefined) {
    return invalid('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  }
  return (
    thinkingBlocksError(body, body.messages) ??
    anthropicHistoryError(body, thinkingOn(body)) ??
    searchHistoryError(body) ??
    searchScenarioError(body, scenario)
  );
}

/** @param {number} status @param {string} model @returns {Reply} */
export function httpError(status, model) {
  switch (status) {
    case 400:
      return invalid('messages: text content blocks must contain non-whitespace text');
    case 401:
      return anthropicError(401, 'authentication_error', 'invalid x-api-key');
    case 403:
      return anthropicError(
        403,
        'permission_error',
        'Your API key does not have permission to use the specified resource.',
      );
    case 404:
      return anthropicError(404, 'not_found_error', `model: ${model}`);
    case 429:
      return anthropicError(
        429,
        'rate_limit_error',
        'This request would exceed the rate limit for your organization (mock) of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
        {
          'retry-after': '20',
          'anthropic-ratelimit-input-tokens-limit': '50000',
          'anthropic-ratelimit-input-tokens-remaining': '0',
        },
      );
    case 529:
      return anthropicError(529, 'overloaded_error', 'Overloaded');
    default:
      return anthropicError(status, 'api_error', 'Internal server error');
  }
}

/** Missing key, bad key and unparsable body. @type {Pick<import('./wire.mjs').MockProvider, 'missingKey' | 'badKey' | 'invalidJson'>} */
export const anthropicKeyReplies = {
  missingKey: () => anthropicError(401, 'authentication_error', 'x-api-key header is required'),
  badKey: () => anthropicError(401, 'authentication_error', 'invalid x-api-key'),
  invalidJson: () => invalid('The request body is not valid JSON: Expecting value: line 1 column 1 (char 0)'),
};

/** Anthropic's models retired by 2026-11-26 (platform.claude.com/docs/en/about-claude/model-deprecations). */
const retiredModels = /^claude-(2|3-|sonnet-4-(0|20250514)$|opus-4-(0|20250514)$)/;

/** The same 404 as for an unknown model: not_found_error "model: {id}". @param {string} model @returns {Reply | undefined} */
export function retiredError(model) {
  return retiredModels.test(model) ? anthropicError(404, 'not_found_error', `model: ${model}`) : undefined;
}
