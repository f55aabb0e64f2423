import type { ProviderId } from '../domain/config.ts';
import { providerCatalog } from '../domain/provider-catalog.ts';
import type { ProviderErrorInfo, ProviderErrorKind } from './types.ts';

const retryableKinds: ReadonlySet<ProviderErrorKind> = new Set([
  'rate-limited',
  'overloaded',
  'cancelled',
  'server',
  'network',
]);

/** A failed provider call, as data: the caller maps `kind` to what the user sees. */
export class ProviderError extends Error implements ProviderErrorInfo {
  override readonly name = 'ProviderError';
  readonly provider: ProviderId;
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfter?: number;
  readonly param?: string;
  readonly modelGone?: boolean;

  constructor(info: ProviderErrorInfo, options?: ErrorOptions) {
    super(info.message, options);
    this.provider = info.provider;
    this.kind = info.kind;
    if (info.status !== undefined) this.status = info.status;
    if (info.retryAfter !== undefined) this.retryAfter = info.retryAfter;
    if (info.param !== undefined) this.param = info.param;
    if (info.modelGone) this.modelGone = true;
  }

  /** True when the same request may succeed later (rate limit, overload, server or network trouble). */
  get retryable(): boolean {
    const status = this.status ?? 0;
    return retryableKinds.has(this.kind) || status === 429 || status >= 500;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

export function kindForStatus(status: number): ProviderErrorKind {
  switch (status) {
    case 401:
      return 'auth';
    case 403:
      return 'permission';
    case 404:
      return 'not-found';
    case 429:
      return 'rate-limited';
    case 499:
      return 'cancelled';
    case 503:
    case 529:
      return 'overloaded';
    default:
      return status >= 500 ? 'server' : 'invalid-request';
  }
}

const maxDescriptionMessage = 240;

function truncate(text: string): string {
  return text.length > maxDescriptionMessage ? `${text.slice(0, maxDescriptionMessage - 1)}…` : text;
}

/** A short description for a toast, e.g. `401 · Incorrect API key provided: sk-…` or `429 · … · retry after 20 s`. */
export function describeProviderError(error: ProviderErrorInfo): string {
  const parts = [truncate(error.message.trim())];
  if (error.status !== undefined) parts.unshift(String(error.status));
  if (error.retryAfter !== undefined) parts.push(`retry after ${Math.max(1, Math.ceil(error.retryAfter))} s`);
  return parts.join(' · ');
}

// Our own messages for failures where the provider said nothing: one clear message per situation.

export function networkError(provider: ProviderId, host: string, cause?: unknown): ProviderError {
  const message = `Network error: could not reach ${host}. Check your connection or base URL.`;
  return new ProviderError({ provider, kind: 'network', message }, { cause });
}

/**
 * A browser cannot tell a CORS refusal from a network failure (both are a bare TypeError); the
 * caller has found the server answering, so it refused the browser. A provider's definition may
 * say why that happens with it (Anthropic organisations can switch browser access off).
 */
export function corsError(provider: ProviderId, host: string, cause?: unknown): ProviderError {
  const message = `${host} does not allow requests from a browser (CORS). ${
    providerCatalog[provider].corsAdvice ?? 'Use the base URL of a proxy that does.'
  }`;
  return new ProviderError({ provider, kind: 'cors', message }, { cause });
}

export function timeoutError(provider: ProviderId, host: string, cause?: unknown): ProviderError {
  const message = `Timed out waiting for ${host}. The provider may be slow or unreachable; try again.`;
  return new ProviderError({ provider, kind: 'network', message }, { cause });
}

export function connectionLostError(provider: ProviderId, host: string, cause?: unknown): ProviderError {
  const message = `Connection to ${host} was lost before the reply finished.`;
  return new ProviderError({ provider, kind: 'network', message }, { cause });
}

export function abortedError(provider: ProviderId, cause?: unknown): ProviderError {
  return new ProviderError({ provider, kind: 'aborted', message: 'Request stopped.' }, { cause });
}

/** The failure that an aborted signal stands for: a timeout (AbortSignal.timeout) or a user stop. */
export function abortFailure(provider: ProviderId, host: string, signal: AbortSignal): ProviderError {
  const reason: unknown = signal.reason;
  return errorName(reason) === 'TimeoutError'
    ? timeoutError(provider, host, reason)
    : abortedError(provider, reason);
}

/** The `name` of a thrown value; DOMException and Error alike. */
export function errorName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('name' in value)) return undefined;
  return typeof value.name === 'string' ? value.name : undefined;
}
