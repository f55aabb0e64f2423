import { withoutTrailingSlashes } from '../lib/trailing-slashes.ts';
import type { ProviderId } from '../domain/config.ts';
import { errorFromResponse } from './error-mapping.ts';
import { parseJson } from './json.ts';
import {
  abortFailure,
  abortedError,
  connectionLostError,
  corsError,
  errorName,
  networkError,
  ProviderError,
  timeoutError,
} from './provider-error.ts';

export interface HttpRequest {
  provider: ProviderId;
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  signal?: AbortSignal | undefined;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

async function fetchFailure(request: HttpRequest, error: unknown): Promise<ProviderError> {
  const host = hostOf(request.url);
  if (request.signal?.aborted) return abortFailure(request.provider, host, request.signal);
  const name = errorName(error);
  if (name === 'AbortError') return abortedError(request.provider, error);
  if (name === 'TimeoutError') return timeoutError(request.provider, host, error);
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  if (offline) return networkError(request.provider, host, error);
  return (await serverAnswers(request))
    ? corsError(request.provider, host, error)
    : networkError(request.provider, host, error);
}

/**
 * A browser hides why a request failed. An opaque (no-cors) request that goes through shows the
 * server is there, so the failure was its CORS refusal; one that fails too means the network.
 */
async function serverAnswers(request: HttpRequest): Promise<boolean> {
  try {
    await request.fetch(request.url, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      signal: AbortSignal.timeout(5000),
    });
    return true;
  } catch {
    return false;
  }
}

/** A failure while reading a body that had started to arrive. */
export function readFailure(request: HttpRequest, error: unknown): ProviderError {
  const host = hostOf(request.url);
  if (request.signal?.aborted) return abortFailure(request.provider, host, request.signal);
  return errorName(error) === 'AbortError'
    ? abortedError(request.provider, error)
    : connectionLostError(request.provider, host, error);
}

async function send(
  request: HttpRequest,
  method: 'GET' | 'POST',
  body?: string | FormData,
): Promise<Response> {
  try {
    new URL(request.url);
  } catch {
    const message = `Invalid URL "${request.url}": the endpoint or base URL must be a full address such as https://host.`;
    throw new ProviderError({ provider: request.provider, kind: 'invalid-request', message });
  }
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method,
      headers: request.headers,
      body,
      signal: request.signal,
    });
  } catch (error) {
    throw await fetchFailure(request, error);
  }
  if (!response.ok) throw errorFromResponse(request.provider, response, await readText(response, request));
  return response;
}

async function readText(response: Response, request: HttpRequest): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw readFailure(request, error);
  }
}

/** The parsed JSON body of a successful response. */
export async function readJson(response: Response, request: HttpRequest): Promise<unknown> {
  const text = await readText(response, request);
  const json = parseJson(text);
  if (json === undefined) {
    const message = `Unreadable response from ${hostOf(request.url)}: expected JSON.`;
    throw new ProviderError({ provider: request.provider, kind: 'server', message });
  }
  return json;
}

/** POSTs JSON and returns the 2xx response unread (so it can be streamed); throws ProviderError otherwise. */
export function postJson(request: HttpRequest, body: unknown): Promise<Response> {
  return send(request, 'POST', JSON.stringify(body));
}

/** POSTs a form (multipart: the browser sets its Content-Type), as postJson does JSON. */
export function postForm(request: HttpRequest, form: FormData): Promise<Response> {
  return send(request, 'POST', form);
}

export async function getJson(request: HttpRequest): Promise<unknown> {
  return readJson(await send(request, 'GET'), request);
}

/** GETs and returns the 2xx response unread (a file to read with a bound); throws ProviderError otherwise. */
export function getResponse(request: HttpRequest): Promise<Response> {
  return send(request, 'GET');
}

/** The base URL without trailing slashes: the user's base URL (a proxy, a compatible server, a mock) or the public one. */
export function resolveBase(custom: string | undefined, publicBase: string): string {
  return withoutTrailingSlashes(custom?.trim() || publicBase);
}
