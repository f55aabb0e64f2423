import type { HttpProviderId } from './configs.ts';
import type { ProviderErrorKind } from '../types.ts';

/** Error responses as each provider sends them (docs/providers.md#error-shapes-and-kinds), and what they must map to. */

export interface ErrorCase {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  kind: ProviderErrorKind;
  message: string;
  retryAfter?: number;
}

export const openaiCases: ErrorCase[] = [
  {
    status: 400,
    body: {
      error: {
        message: 'Unrecognized request argument supplied: foo',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    },
    kind: 'invalid-request',
    message: 'Unrecognized request argument supplied: foo',
  },
  {
    status: 401,
    body: {
      error: {
        message:
          'Incorrect API key provided: sk-abc***wxyz. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
    kind: 'auth',
    message:
      'Incorrect API key provided: sk-abc***wxyz. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  {
    status: 403,
    body: {
      error: {
        message: 'Country, region, or territory not supported',
        type: 'request_forbidden',
        param: null,
        code: 'unsupported_country_region_territory',
      },
    },
    kind: 'permission',
    message: 'Country, region, or territory not supported',
  },
  {
    status: 404,
    body: {
      error: {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    },
    kind: 'not-found',
    message: 'The model `gpt-9` does not exist or you do not have access to it.',
  },
  {
    status: 429,
    body: {
      error: {
        message:
          'Rate limit reached for gpt-4.1 in organization org-x on tokens per min (TPM): Limit 30000, Used 18928, Requested 11159. Please try again in 174ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
    kind: 'rate-limited',
    message:
      'Rate limit reached for gpt-4.1 in organization org-x on tokens per min (TPM): Limit 30000, Used 18928, Requested 11159. Please try again in 174ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
    retryAfter: 0.174,
  },
  {
    status: 429,
    headers: { 'retry-after': '20' },
    body: {
      error: {
        message: 'Rate limit reached. Please try again in 6m0s.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      },
    },
    kind: 'rate-limited',
    message: 'Rate limit reached. Please try again in 6m0s.',
    retryAfter: 20,
  },
  {
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached. Please try again in 6m0s.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      },
    },
    kind: 'rate-limited',
    message: 'Rate limit reached. Please try again in 6m0s.',
    retryAfter: 360,
  },
  {
    status: 500,
    body: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
    kind: 'server',
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  {
    status: 503,
    body: {
      error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error' },
    },
    kind: 'overloaded',
    message: 'The engine is currently overloaded, please try again later.',
  },
  { status: 529, body: '', kind: 'overloaded', message: 'HTTP error 529' },
  { status: 502, body: '<html><body>Bad gateway</body></html>', kind: 'server', message: 'HTTP error 502' },
];

const azureCases: ErrorCase[] = [
  {
    status: 400,
    body: {
      error: {
        message:
          "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
        innererror: { code: 'ResponsibleAIPolicyViolation' },
      },
    },
    kind: 'blocked',
    message:
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
  },
  {
    status: 401,
    body: {
      error: {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      },
    },
    kind: 'auth',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
  {
    status: 403,
    body: {
      error: {
        code: 'AuthenticationTypeDisabled',
        message: 'Key based authentication is disabled for this resource.',
      },
    },
    kind: 'permission',
    message: 'Key based authentication is disabled for this resource.',
  },
  {
    status: 404,
    body: {
      error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
    },
    kind: 'not-found',
    message: 'The API deployment for this resource does not exist.',
  },
  {
    status: 429,
    headers: { 'retry-after-ms': '6500', 'retry-after': '7' },
    body: {
      error: {
        code: '429',
        message:
          'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2023-05-15 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.',
      },
    },
    kind: 'rate-limited',
    message:
      'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2023-05-15 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.',
    retryAfter: 6.5,
  },
  {
    status: 429,
    body: { error: { code: '429', message: 'Rate limit exceeded. Please retry after 6 seconds.' } },
    kind: 'rate-limited',
    message: 'Rate limit exceeded. Please retry after 6 seconds.',
    retryAfter: 6,
  },
  {
    status: 500,
    body: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
    kind: 'server',
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  {
    status: 503,
    body: {
      error: {
        code: 'ServiceUnavailable',
        message: 'The service is temporarily unable to process your request.',
      },
    },
    kind: 'overloaded',
    message: 'The service is temporarily unable to process your request.',
  },
  {
    status: 529,
    body: { error: { code: 'Overloaded', message: 'Overloaded' } },
    kind: 'overloaded',
    message: 'Overloaded',
  },
];

const groqCases: ErrorCase[] = [
  {
    status: 400,
    body: {
      error: {
        message: "property 'store' is unsupported, did you mean 'stop'?",
        type: 'invalid_request_error',
      },
    },
    kind: 'invalid-request',
    message: "property 'store' is unsupported, did you mean 'stop'?",
  },
  {
    status: 401,
    body: { error: { message: 'Invalid API Key', type: 'invalid_request_error', code: 'invalid_api_key' } },
    kind: 'auth',
    message: 'Invalid API Key',
  },
  {
    status: 403,
    body: { error: { message: 'Forbidden', type: 'permission_error' } },
    kind: 'permission',
    message: 'Forbidden',
  },
  {
    status: 404,
    body: {
      error: {
        message: 'The model `llama3.1-405b` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    },
    kind: 'not-found',
    message: 'The model `llama3.1-405b` does not exist or you do not have access to it.',
  },
  {
    status: 429,
    headers: { 'retry-after': '12' },
    body: {
      error: {
        message:
          'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_1` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 4437, Requested 9854. Please try again in 11.455s.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    },
    kind: 'rate-limited',
    message:
      'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_1` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 4437, Requested 9854. Please try again in 11.455s.',
    retryAfter: 12,
  },
  {
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached. Please try again in 11.455s.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    },
    kind: 'rate-limited',
    message: 'Rate limit reached. Please try again in 11.455s.',
    retryAfter: 11.455,
  },
  {
    status: 500,
    body: { error: { message: 'Internal Server Error', type: 'internal_server_error' } },
    kind: 'server',
    message: 'Internal Server Error',
  },
  {
    status: 503,
    body: { error: { message: 'Service Unavailable', type: 'internal_server_error' } },
    kind: 'overloaded',
    message: 'Service Unavailable',
  },
  { status: 529, body: 'overloaded', kind: 'overloaded', message: 'overloaded' },
];

/** @param type Anthropic error type */
const anthropic = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_011',
});
const claudeCases: ErrorCase[] = [
  {
    status: 400,
    body: anthropic('invalid_request_error', 'max_tokens: Field required'),
    kind: 'invalid-request',
    message: 'max_tokens: Field required',
  },
  {
    status: 401,
    body: anthropic('authentication_error', 'invalid x-api-key'),
    kind: 'auth',
    message: 'invalid x-api-key',
  },
  {
    status: 403,
    body: anthropic(
      'permission_error',
      'Your API key does not have permission to use the specified resource.',
    ),
    kind: 'permission',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  {
    status: 404,
    body: anthropic('not_found_error', 'model: claude-3-opus-20240229'),
    kind: 'not-found',
    message: 'model: claude-3-opus-20240229',
  },
  {
    status: 413,
    body: anthropic('request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
    kind: 'invalid-request',
    message: 'Request exceeds the maximum allowed number of bytes.',
  },
  {
    status: 429,
    headers: { 'retry-after': '20' },
    body: anthropic(
      'rate_limit_error',
      'This request would exceed the rate limit for your organization of 50,000 input tokens per minute.',
    ),
    kind: 'rate-limited',
    message:
      'This request would exceed the rate limit for your organization of 50,000 input tokens per minute.',
    retryAfter: 20,
  },
  {
    status: 500,
    body: anthropic('api_error', 'Internal server error'),
    kind: 'server',
    message: 'Internal server error',
  },
  {
    status: 503,
    body: anthropic('api_error', 'Service unavailable'),
    kind: 'overloaded',
    message: 'Service unavailable',
  },
  {
    status: 529,
    body: anthropic('overloaded_error', 'Overloaded'),
    kind: 'overloaded',
    message: 'Overloaded',
  },
];

const google = (code: number, status: string, message: string, details?: unknown[]) => ({
  error: { code, message, status, ...(details && { details }) },
});
const geminiCases: ErrorCase[] = [
  {
    status: 400,
    body: google(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
    ]),
    kind: 'auth',
    message: 'API key not valid. Please pass a valid API key.',
  },
  {
    status: 400,
    body: [google(400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.')],
    kind: 'invalid-request',
    message: 'Please use a valid role: user, model.',
  },
  {
    status: 401,
    body: google(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'),
    kind: 'auth',
    message: 'Request had invalid authentication credentials.',
  },
  {
    status: 403,
    body: google(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
    kind: 'permission',
    message:
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  },
  {
    status: 404,
    body: google(
      404,
      'NOT_FOUND',
      'models/gemini-pro is not found for API version v1beta, or is not supported for generateContent.',
    ),
    kind: 'not-found',
    message:
      'models/gemini-pro is not found for API version v1beta, or is not supported for generateContent.',
  },
  {
    status: 429,
    body: google(
      429,
      'RESOURCE_EXHAUSTED',
      'You exceeded your current quota, please check your plan and billing details.',
      [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
      ],
    ),
    kind: 'rate-limited',
    message: 'You exceeded your current quota, please check your plan and billing details.',
    retryAfter: 34.4,
  },
  {
    status: 500,
    body: google(500, 'INTERNAL', 'An internal error has occurred.'),
    kind: 'server',
    message: 'An internal error has occurred.',
  },
  {
    status: 503,
    body: google(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
    kind: 'overloaded',
    message: 'The model is overloaded. Please try again later.',
  },
  { status: 529, body: google(529, 'UNAVAILABLE', 'Overloaded'), kind: 'overloaded', message: 'Overloaded' },
  {
    status: 499,
    body: google(499, 'CANCELLED', 'The operation was cancelled.'),
    kind: 'cancelled',
    message: 'The provider cancelled the request; try again. (The operation was cancelled.)',
  },
];

export const errorCases: Record<HttpProviderId, ErrorCase[]> = {
  openai: openaiCases,
  azure: azureCases,
  groq: groqCases,
  claude: claudeCases,
  gemini: geminiCases,
  // Compatible servers answer in OpenAI's error shape.
  custom: openaiCases,
};
