// @ts-check
/** The error replies of OpenAI, Azure OpenAI and Groq, in each one's own shape and wording. */

import { groqInvalid, openaiInvalid } from './openai-validation.mjs';

/** @typedef {import('./wire.mjs').Reply} Reply */

/** Azure's content filter results. */
const safeFilter = { filtered: false, severity: 'safe' };
export const safeFilters = {
  hate: safeFilter,
  self_harm: safeFilter,
  sexual: safeFilter,
  violence: safeFilter,
};
export const violenceFiltered = { ...safeFilters, violence: { filtered: true, severity: 'medium' } };

/** @param {string} key */
function maskKey(key) {
  return key.length < 8
    ? '****'
    : `${key.slice(0, 3)}${'*'.repeat(Math.min(key.length - 7, 28))}${key.slice(-4)}`;
}

/** @param {string} message @param {Record<string, unknown>} fields @param {number} status @param {Record<string, string>} [headers] @returns {Reply} */
function openaiError(status, message, fields, headers) {
  return {
    status,
    body: { error: { message, type: 'invalid_request_error', param: null, code: null, ...fields } },
    ...(headers && { headers }),
  };
}

/** @param {number} status @param {string} model @returns {Reply} */
export function openaiHttpError(status, model) {
  switch (status) {
    case 400:
      return openaiError(
        400,
        "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
        { param: 'max_tokens', code: 'integer_below_min_value' },
      );
    case 401:
      return openaiError(
        401,
        `Incorrect API key provided: ${maskKey('sk-mock-revoked-key')}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        { code: 'invalid_api_key' },
      );
    case 403:
      return openaiError(403, 'Country, region, or territory not supported', {
        type: 'request_forbidden',
        code: 'unsupported_country_region_territory',
      });
    case 404:
      return openaiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
        code: 'model_not_found',
      });
    case 429:
      return openaiError(
        429,
        `Rate limit reached for ${model} in organization org-mock on tokens per min (TPM): Limit 30000, Used 18928, Requested 11159. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        { type: 'tokens', code: 'rate_limit_exceeded' },
        { 'retry-after': '20', 'x-ratelimit-limit-tokens': '30000', 'x-ratelimit-remaining-tokens': '0' },
      );
    case 503:
    case 529:
      return openaiError(status, 'The engine is currently overloaded, please try again later.', {
        type: 'server_error',
      });
    default:
      return openaiError(status, 'The server had an error while processing your request. Sorry about that!', {
        type: 'server_error',
      });
  }
}

/** @param {number} status @param {string} model @returns {Reply} */
export function groqHttpError(status, model) {
  /** @param {string} message @param {Record<string, unknown>} [fields] @param {Record<string, string>} [headers] */
  const error = (message, fields = {}, headers) => ({
    status,
    body: { error: { message, type: 'invalid_request_error', ...fields } },
    ...(headers && { headers }),
  });
  switch (status) {
    case 400:
      return error('Please reduce the length of the messages or completion.', {
        param: 'messages',
        code: 'context_length_exceeded',
      });
    case 401:
      return error('Invalid API Key', { code: 'invalid_api_key' });
    case 403:
      return error('Forbidden', { type: 'permission_error' });
    case 404:
      return error(`The model \`${model}\` does not exist or you do not have access to it.`, {
        code: 'model_not_found',
      });
    case 429:
      return error(
        `Rate limit reached for model \`${model}\` in organization \`org_mock\` service tier \`on_demand\` on tokens per minute (TPM): Limit 12000, Used 4437, Requested 9854. Please try again in 11.455s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
        { type: 'tokens', code: 'rate_limit_exceeded' },
        { 'retry-after': '12', 'x-ratelimit-limit-tokens': '12000' },
      );
    case 503:
    case 529:
      return error('Service Unavailable', { type: 'internal_server_error' });
    default:
      return error('Internal Server Error', { type: 'internal_server_error' });
  }
}

/** @param {number} status @param {string} model @returns {Reply} */
export function azureHttpError(status, model) {
  /** @param {string} code @param {string} message @param {Record<string, string>} [headers] */
  const error = (code, message, headers) => ({
    status,
    body: { error: { code, message } },
    ...(headers && { headers }),
  });
  switch (status) {
    case 400:
      return {
        status,
        body: {
          error: {
            message:
              "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
            type: null,
            param: 'prompt',
            code: 'content_filter',
            status: 400,
            innererror: {
              code: 'ResponsibleAIPolicyViolation',
              content_filter_result: { ...violenceFiltered, jailbreak: { filtered: false, detected: false } },
            },
          },
        },
      };
    case 401:
      return error(
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      );
    case 403:
      return error('AuthenticationTypeDisabled', 'Key based authentication is disabled for this resource.');
    case 404:
      return error(
        'DeploymentNotFound',
        `The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again. (${model})`,
      );
    case 429:
      return error(
        '429',
        'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2023-05-15 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.',
        { 'retry-after': '6', 'retry-after-ms': '6000', 'x-ms-region': 'Sweden Central' },
      );
    case 503:
    case 529:
      return error(
        'ServiceUnavailable',
        'The service is temporarily unable to process your request. Please try again later.',
      );
    default:
      return {
        status,
        body: {
          error: {
            message: 'The server had an error while processing your request. Sorry about that!',
            type: 'server_error',
            param: null,
            code: null,
          },
        },
      };
  }
}

/** Missing key, bad key and unparsable body. @type {Pick<import('./wire.mjs').MockProvider, 'missingKey' | 'badKey' | 'invalidJson'>} */
export const openaiKeyReplies = {
  missingKey: () =>
    openaiError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      {},
    ),
  badKey: (key) =>
    openaiError(
      401,
      `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      { code: 'invalid_api_key' },
    ),
  invalidJson: () =>
    openaiInvalid(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    ),
};

/** Missing key, bad key and unparsable body. @type {Pick<import('./wire.mjs').MockProvider, 'missingKey' | 'badKey' | 'invalidJson'>} */
export const groqKeyReplies = {
  missingKey: () => groqHttpError(401, ''),
  badKey: () => groqHttpError(401, ''),
  invalidJson: () => groqInvalid('json: cannot unmarshal the request body: invalid character'),
};

/** Missing key, bad key and unparsable body. @type {Pick<import('./wire.mjs').MockProvider, 'missingKey' | 'badKey' | 'invalidJson'>} */
export const azureKeyReplies = {
  missingKey: () => ({
    status: 401,
    body: {
      error: {
        code: '401',
        message:
          'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
      },
    },
  }),
  badKey: () => azureHttpError(401, ''),
  invalidJson: () =>
    openaiInvalid(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    ),
};

/** OpenAI's models shut down by 2026-11-26 (platform.openai.com/docs/deprecations). */
const openaiRetired = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-16k',
  'gpt-4',
  'gpt-4-turbo',
  'gpt-4-turbo-preview',
  'o1',
  'o3-mini',
  'o4-mini',
];

/** @param {string} model */
export const isOpenaiRetired = (model) => openaiRetired.includes(model);

/** A shut-down model: 404, code model_not_found, "has been deprecated". @param {string} model @returns {Reply | undefined} */
export function openaiRetiredError(model) {
  if (!isOpenaiRetired(model)) return undefined;
  return openaiError(
    404,
    `The model \`${model}\` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations`,
    { code: 'model_not_found' },
  );
}

/** Groq's models decommissioned by 2026-11-26 (console.groq.com/docs/deprecations). */
const groqRetired = [
  'mixtral-8x7b-32768',
  'llama2-70b-4096',
  'gemma-7b-it',
  'gemma2-9b-it',
  'llama-3.3-70b-versatile',
  'llama-3.1-8b-instant',
  'qwen/qwen3-32b',
  'meta-llama/llama-4-scout-17b-16e-instruct',
  'meta-llama/llama-4-maverick-17b-128e-instruct',
];

/** Groq answers a decommissioned model with 400 (not 404), code model_decommissioned. @param {string} model @returns {Reply | undefined} */
export function groqRetiredError(model) {
  if (!groqRetired.includes(model)) return undefined;
  return {
    status: 400,
    body: {
      error: {
        message: `The model \`${model}\` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead.`,
        type: 'invalid_request_error',
        code: 'model_decommissioned',
      },
    },
  };
}
