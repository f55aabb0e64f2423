import type { ProviderId } from '../domain/config.ts';
import { isRecord } from '../domain/json-guards.ts';
import { providerCatalog } from '../domain/provider-catalog.ts';
import { arrayAt, fieldAt, parseJson, recordAt, stringAt } from './json.ts';
import { kindForStatus, ProviderError } from './provider-error.ts';
import type { ProviderErrorKind } from './types.ts';

/** What the five error shapes have in common: OpenAI/Groq/Azure `{error:{message,type,code}}`,
 * Anthropic `{type:'error',error:{type,message}}`, Google `{error:{code,message,status,details}}`. */
interface ErrorFields {
  message?: string;
  /** OpenAI and Anthropic `type`, or Google `status` such as RESOURCE_EXHAUSTED. */
  type?: string;
  code?: string;
  /** A status carried in the body: Google `code: 503`, Azure `code: "429"`. */
  status?: number;
  /** Google ErrorInfo reasons, e.g. API_KEY_INVALID. */
  reasons: string[];
  /** Google RetryInfo, e.g. "34.4s". */
  retryDelay?: string;
  /** OpenAI's `param`: the request field the error is about. */
  param?: string;
  /** Groq's `failed_generation`: what the model wrote when its tool call could not be read. */
  failedGeneration?: string;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** The error fields of a provider's error JSON, or undefined when the payload is not an error. */
export function readErrorFields(payload: unknown): ErrorFields | undefined {
  // Google answers some calls with a one-element array.
  const root: unknown = Array.isArray(payload) ? payload[0] : payload;
  const error = fieldAt(root, 'error');
  if (typeof error === 'string') return { message: error, reasons: [] };
  if (!isRecord(error)) return undefined;
  const rawCode = fieldAt(error, 'code');
  const code = isString(rawCode) ? rawCode : undefined;
  const details = arrayAt(error, 'details');
  return {
    message: stringAt(error, 'message'),
    type: stringAt(error, 'type') ?? stringAt(error, 'status'),
    code,
    status: typeof rawCode === 'number' ? rawCode : code && /^\d{3}$/.test(code) ? Number(code) : undefined,
    reasons: details.map((detail) => stringAt(detail, 'reason')).filter(isString),
    retryDelay: details.map((detail) => stringAt(detail, 'retryDelay')).find(isString),
    param: stringAt(error, 'param'),
    failedGeneration: stringAt(error, 'failed_generation'),
  };
}

export function isErrorPayload(payload: unknown): boolean {
  return readErrorFields(payload) !== undefined;
}

/** Error types of Anthropic and OpenAI, and Google RPC statuses: used when no HTTP status says more. */
const kindByType: Readonly<Record<string, ProviderErrorKind>> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'auth',
  permission_error: 'permission',
  billing_error: 'permission',
  not_found_error: 'not-found',
  request_too_large: 'invalid-request',
  rate_limit_error: 'rate-limited',
  rate_limit_exceeded: 'rate-limited',
  insufficient_quota: 'rate-limited',
  tokens: 'rate-limited',
  requests: 'rate-limited',
  api_error: 'server',
  server_error: 'server',
  timeout_error: 'server',
  overloaded_error: 'overloaded',
  INVALID_ARGUMENT: 'invalid-request',
  FAILED_PRECONDITION: 'invalid-request',
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not-found',
  RESOURCE_EXHAUSTED: 'rate-limited',
  UNAVAILABLE: 'overloaded',
  CANCELLED: 'cancelled',
  INTERNAL: 'server',
  DEADLINE_EXCEEDED: 'server',
};

function kindOf(status: number | undefined, fields: ErrorFields | undefined): ProviderErrorKind {
  // Gemini reports a bad key as 400 INVALID_ARGUMENT; only the reason says it is the key.
  if (fields?.reasons.includes('API_KEY_INVALID')) return 'auth';
  // Azure rejects a filtered prompt with 400 code content_filter.
  if (fields?.code === 'content_filter') return 'blocked';
  if (fields?.type === 'overloaded_error') return 'overloaded';
  if (status !== undefined) return kindForStatus(status);
  return kindByType[fields?.type ?? ''] ?? kindByType[fields?.code ?? ''] ?? 'server';
}

/** Seconds in a duration like "34.4s", "174ms" or "6m0s"; undefined when there is none. */
function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let seconds: number | undefined;
  // Numbers are read from their first digit (the lookbehind): tried from every digit of a long run
  // with no unit after it, the search took quadratic time (the body is the provider's text).
  for (const [, amount, unit] of text.matchAll(/(?<!\d)(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    seconds = (seconds ?? 0) + Number(amount) * (units[unit ?? 's'] ?? 1);
  }
  // Rounded to milliseconds: 174 × 0.001 is not exactly 0.174 in floating point.
  return seconds === undefined ? undefined : Math.round(seconds * 1000) / 1000;
}

function headerSeconds(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms') || NaN);
  if (milliseconds >= 0) return milliseconds / 1000;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/**
 * Seconds to wait: the retry-after headers first, then hints in the body, because browsers often
 * cannot read retry-after (providers other than Anthropic do not expose it to CORS requests).
 */
export function retryAfterFrom(
  headers: Headers | undefined,
  message: string,
  retryDelay?: string,
): number | undefined {
  const fromHeaders = headerSeconds(headers);
  if (fromHeaders !== undefined) return fromHeaders;
  if (retryDelay) return parseDuration(retryDelay);
  const tryAgain = /(?:try again|retry) in ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)/i.exec(message)?.[1];
  if (tryAgain) return parseDuration(tryAgain);
  const retryAfter = /retry after (\d+(?:\.\d+)?) seconds?/i.exec(message)?.[1];
  return retryAfter ? Number(retryAfter) : undefined;
}

function fallbackMessage(response: Response, text: string): string {
  const trimmed = text.trim();
  if (trimmed && !trimmed.startsWith('<'))
    return trimmed.length > 300 ? `${trimmed.slice(0, 299)}…` : trimmed;
  return response.statusText || `HTTP error ${response.status}`;
}

/** How much of the model's failed tool call a message quotes. */
const maxFailedGeneration = 300;

/**
 * Groq's `tool_use_failed`: the model wrote a tool call that did not parse or did not fit the
 * tool's schema, and Groq refused the reply. Said in plain words, with what the model wrote.
 */
function toolUseFailedMessage(failedGeneration: string | undefined): string {
  const written = failedGeneration?.trim() ?? '';
  const quoted =
    written.length > maxFailedGeneration ? `${written.slice(0, maxFailedGeneration - 1)}…` : written;
  return `The model tried to call a tool but wrote the call wrongly, so the provider refused the reply (tool_use_failed). Trying again or rephrasing may help.${
    quoted ? ` The model wrote: ${quoted}` : ''
  }`;
}

/** The provider's message, saying first what a bare "cancelled" leaves unclear. */
function messageFor(kind: ProviderErrorKind, message: string, fields?: ErrorFields): string {
  if (fields?.code === 'tool_use_failed') return toolUseFailedMessage(fields.failedGeneration);
  return kind === 'cancelled' ? `The provider cancelled the request; try again. (${message})` : message;
}

/** Whether the response says the model does not exist or was retired, in the provider's own way. */
function isModelGone(provider: ProviderId, status: number, fields: ErrorFields | undefined): boolean {
  return (providerCatalog[provider].modelGone ?? []).some(
    (gone) =>
      gone.status === status &&
      (gone.type === undefined || gone.type === fields?.type) &&
      (gone.code === undefined || gone.code === fields?.code) &&
      (gone.message === undefined || gone.message.test(fields?.message ?? '')),
  );
}

/** The error for a non-2xx response, from the provider's own error JSON. */
export function errorFromResponse(provider: ProviderId, response: Response, text: string): ProviderError {
  const fields = readErrorFields(parseJson(text));
  const kind = kindOf(response.status, fields);
  const message = messageFor(kind, fields?.message || fallbackMessage(response, text), fields);
  return new ProviderError({
    provider,
    kind,
    status: response.status,
    message,
    retryAfter: retryAfterFrom(response.headers, message, fields?.retryDelay),
    param: fields?.param,
    modelGone: isModelGone(provider, response.status, fields),
  });
}

/** The error for an error object that arrived inside a 200 response (mid-stream). */
export function errorFromPayload(provider: ProviderId, payload: unknown): ProviderError {
  // An `event: error` may carry the error object itself rather than `{error: {...}}`.
  const fields = readErrorFields(payload) ?? readErrorFields({ error: payload });
  const kind = kindOf(fields?.status, fields);
  const message = messageFor(
    kind,
    fields?.message || stringAt(recordAt(payload, 'error'), 'type') || 'The provider reported an error.',
    fields,
  );
  return new ProviderError({
    provider,
    kind,
    status: fields?.status,
    message,
    retryAfter: retryAfterFrom(undefined, message, fields?.retryDelay),
  });
}
