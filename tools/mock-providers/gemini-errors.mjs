// @ts-check
/** Gemini's error replies: proto-JSON validation, keys and statuses, as Google RPC errors. */

import { MB, decodeBase64, isImageOf, magicType } from './attachments.mjs';
import { searchRetrievalError } from './gemini-search.mjs';
import { geminiHistoryError, geminiToolsError } from './gemini-tools.mjs';
import { isRecord } from './wire.mjs';

/** @typedef {import('./wire.mjs').Reply} Reply */

/** @param {string} name */
const withSnakeCase = (name) => [name, name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
const topLevelKeys = [
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
].flatMap(withSnakeCase);
const generationConfigKeys = [
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'thinkingConfig',
  'responseModalities',
  'imageConfig',
  'mediaResolution',
  'speechConfig',
  'enableEnhancedCivicAnswers',
].flatMap(withSnakeCase);

/**
 * @param {number} status @param {string} rpcStatus @param {string} message @param {unknown[]} [details]
 * @returns {Reply}
 */
function googleError(status, rpcStatus, message, details) {
  return {
    status,
    body: { error: { code: status, message, status: rpcStatus, ...(details && { details }) } },
  };
}

/** @param {string} message */
const invalid = (message) => googleError(400, 'INVALID_ARGUMENT', message);

/**
 * generationConfig.thinkingConfig (docs/providers.md#gemini-thinking): a level or a budget, not both; levels
 * only on Gemini 3 and later; no budget 0 where thinking cannot be switched off. The level is taken
 * in either case, since the genai SDK sends its upper-case enum names.
 * @param {Record<string, unknown>} thinking @param {string} model @returns {Reply | undefined}
 */
function thinkingConfigError(thinking, model) {
  const level = thinking.thinkingLevel ?? thinking.thinking_level;
  const budget = thinking.thinkingBudget ?? thinking.thinking_budget;
  if (level !== undefined && budget !== undefined)
    return invalid('You can only set only one of thinking budget and thinking level.');
  if (level !== undefined && !['minimal', 'low', 'medium', 'high'].includes(String(level).toLowerCase())) {
    return invalid(
      `Invalid JSON payload received. Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "${String(level)}"`,
    );
  }
  if (level !== undefined && /^gemini-[12]\./.test(model))
    return invalid('Thinking level is not supported for this model.');
  if (budget === 0 && /^gemini-(2\.5-pro|3)/.test(model))
    return invalid('Budget 0 is invalid. This model only works in thinking mode.');
  return undefined;
}

/**
 * Inline data (docs/providers.md#attachments): raw base64 bytes, no `data:` prefix. Wording: [R] `Invalid
 * value at 'contents[0].parts[2].inline_data.data' (TYPE_BYTES), Base64 decoding failed for
 * "data:image/png;base64"` with a BadRequest field violation (musistudio/claude-code-router#845,
 * danny-avila/LibreChat#6593; the value is echoed up to its first comma there, and the mock cuts
 * other values at 64 characters, which is [A]); `Unsupported MIME type: png`
 * (charmbracelet/crush#995); `Unable to process input image. Please retry or report in
 * https://developers.generativeai.google/guide/troubleshooting` (google-gemini/gemini-cli#5064);
 * `The document has no pages.` for a PDF that is not one (code corpus: a client's list of Google's
 * invalid-file messages). Which MIME types pass is [A]: PNG, JPEG, WEBP, HEIC, HEIF and GIF images,
 * PDF, text, audio and video.
 * @param {Record<string, unknown>} inline @param {string} where e.g. contents[0].parts[1]
 * @returns {Reply | undefined}
 */
function inlineDataError(inline, where) {
  const field = `${where}.inline_data.data`;
  const data = typeof inline.data === 'string' ? inline.data : '';
  const bytes = decodeBase64(data, { lenient: true });
  if (!bytes) {
    const comma = data.indexOf(',');
    const shown =
      data.startsWith('data:') && comma !== -1
        ? data.slice(0, comma)
        : data.length > 64
          ? `${data.slice(0, 64)}...`
          : data;
    const message = `Invalid value at '${field}' (TYPE_BYTES), Base64 decoding failed for "${shown}"`;
    return googleError(400, 'INVALID_ARGUMENT', message, [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field, description: message }],
      },
    ]);
  }
  const mime = String(inline.mimeType ?? inline.mime_type ?? '').toLowerCase();
  const checkedImage = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].includes(mime);
  const accepted =
    checkedImage ||
    ['image/heic', 'image/heif', 'application/pdf'].includes(mime) ||
    /^(text|audio|video)\//.test(mime);
  if (!accepted) return invalid(`Unsupported MIME type: ${mime}`);
  if (checkedImage && !isImageOf(bytes, mime))
    return invalid(
      'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    );
  if (mime === 'application/pdf' && magicType(bytes) !== 'application/pdf')
    return invalid('The document has no pages.');
  return undefined;
}

/**
 * Google's front end refuses a body over the inline limit (docs/providers.md#attachments; older doc
 * copies said 20 MB) in its own words: `Request payload size exceeds the limit: 20971520 bytes.`, INVALID_ARGUMENT. The
 * wording is [R] for other Google APIs (10485760 and 4194304 bytes, googleworkspace/dotnet-samples#23,
 * google-gemini/deprecated-generative-ai-android#26); for Gemini at 20 MiB it is [A].
 * @param {import('./wire.mjs').MockRequest} request @returns {Reply | undefined}
 */
export function gate(request) {
  // PDFs sent inline: up to 50 MB (ai.google.dev/gemini-api/docs/file-input-methods).
  const limit = 50 * MB;
  if (Buffer.byteLength(request.bodyText, 'utf8') <= limit) return undefined;
  return invalid(`Request payload size exceeds the limit: ${limit} bytes.`);
}

/** @param {Record<string, unknown>} body @param {import('./wire.mjs').MockRequest} request @returns {Reply | undefined} */
export function validate(body, request) {
  const unknown = Object.keys(body).find((key) => !topLevelKeys.includes(key));
  if (unknown) return invalid(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
  const config = body.generationConfig ?? body.generation_config;
  if (config !== undefined) {
    const unknownConfig = isRecord(config)
      ? Object.keys(config).find((key) => !generationConfigKeys.includes(key))
      : 'generationConfig';
    if (unknownConfig)
      return invalid(
        `Invalid JSON payload received. Unknown name "${unknownConfig}" at 'generation_config': Cannot find field.`,
      );
    const temperature = isRecord(config) ? config.temperature : undefined;
    if (typeof temperature === 'number' && (temperature < 0 || temperature > 2)) {
      return invalid(
        `* GenerateContentRequest.generation_config.temperature: temperature must be in the range [0.0, 2.0]\n`,
      );
    }
    const thinking = isRecord(config) ? (config.thinkingConfig ?? config.thinking_config) : undefined;
    const thinkingError = isRecord(thinking)
      ? thinkingConfigError(thinking, request.params.model ?? '')
      : undefined;
    if (thinkingError) return thinkingError;
  }
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [index, content] of contents.entries()) {
    if (!isRecord(content))
      return invalid(`Invalid JSON payload received. Expected an object at 'contents[${index}]'.`);
    const extra = Object.keys(content).find((key) => key !== 'role' && key !== 'parts');
    if (extra)
      return invalid(
        `Invalid JSON payload received. Unknown name "${extra}" at 'contents[${index}]': Cannot find field.`,
      );
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model')
      return invalid('Please use a valid role: user, model.');
    if (!Array.isArray(content.parts) || content.parts.length === 0) {
      return invalid(
        `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`,
      );
    }
    for (const [partIndex, part] of content.parts.entries()) {
      if (!isRecord(part) || Object.keys(part).length === 0) {
        return invalid(
          `* GenerateContentRequest.contents[${index}].parts[${partIndex}].data: required oneof field 'data' must have one initialized field\n`,
        );
      }
      // The empty text part that only carries a thought signature goes back as it came (§C).
      if (part.text === '' && part.thoughtSignature === undefined && part.thought_signature === undefined)
        return invalid(
          'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.',
        );
      const inline = part.inlineData ?? part.inline_data;
      const inlineError = isRecord(inline)
        ? inlineDataError(inline, `contents[${index}].parts[${partIndex}]`)
        : undefined;
      if (inlineError) return inlineError;
    }
  }
  if (isRecord(contents[0]) && contents[0].role === 'model')
    return invalid('Please ensure that multiturn requests alternate between user and model.');
  const model = request.params.model ?? '';
  return geminiToolsError(body) ?? searchRetrievalError(body, model) ?? geminiHistoryError(body, model);
}

const errorInfo = (/** @type {string} */ reason) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'googleapis.com',
  metadata: { service: 'generativelanguage.googleapis.com' },
});

/** @param {number} status @param {string} model @returns {Reply} */
export function httpError(status, model) {
  switch (status) {
    case 400:
      return invalid(
        '* GenerateContentRequest.generation_config.max_output_tokens: max_output_tokens must be positive.\n',
      );
    case 401:
      return googleError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        [errorInfo('ACCESS_TOKEN_TYPE_UNSUPPORTED')],
      );
    case 403:
      return googleError(
        403,
        'PERMISSION_DENIED',
        "Permission denied: Consumer 'api_key:mock' has been suspended.",
        [errorInfo('CONSUMER_SUSPENDED')],
      );
    case 404:
      return googleError(
        404,
        'NOT_FOUND',
        `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      );
    case 429:
      return googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [
              {
                quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
                quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
                quotaValue: '10',
              },
            ],
          },
          {
            '@type': 'type.googleapis.com/google.rpc.Help',
            links: [
              {
                description: 'Learn more about Gemini API quotas',
                url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
              },
            ],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
        ],
      );
    case 503:
      return googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    default:
      return googleError(
        status,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      );
  }
}

/** Missing key, bad key and unparsable body. @type {Pick<import('./wire.mjs').MockProvider, 'missingKey' | 'badKey' | 'invalidJson'>} */
export const geminiKeyReplies = {
  missingKey: () =>
    googleError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
  badKey: () =>
    googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      errorInfo('API_KEY_INVALID'),
      {
        '@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
        locale: 'en-US',
        message: 'API key not valid. Please pass a valid API key.',
      },
    ]),
  invalidJson: () => invalid('Invalid JSON payload received. Unexpected token.'),
};

/** Gemini's models gone by 2026-11-26 (ai.google.dev/gemini-api/docs/deprecations), and what each answers. */
const retiredModels = {
  'gemini-2.5-flash': 'is no longer available to new users.',
  'gemini-2.5-pro': 'is no longer available to new users.',
  'gemini-2.0-flash': 'is no longer available. Please update your code to use models/gemini-3.8-flash',
  'gemini-pro': 'is no longer available. Please update your code to use models/gemini-3.8-flash',
  'gemini-pro-vision': 'is no longer available. Please update your code to use models/gemini-3.8-flash',
};

/** 404 NOT_FOUND "This model models/{id} is no longer available…". @param {string} model @returns {Reply | undefined} */
export function retiredError(model) {
  const said = Object.entries(retiredModels).find(([id]) => id === model)?.[1];
  return said ? googleError(404, 'NOT_FOUND', `This model models/${model} ${said}`) : undefined;
}
