import { describe, expect, it, vi } from 'vitest';
import { conversation, httpProviderIds, testConfigs, type HttpProviderId } from './__fixtures__/configs.ts';
import { drain, failingStream, fakeFetch, hangingStream, jsonResponse } from './__fixtures__/fake-fetch.ts';
import { describeProviderError, isProviderError, ProviderError } from './provider-error.ts';
import { errorCases, openaiCases } from './__fixtures__/error-cases.ts';
import { createChatProvider } from './registry.ts';

/** One event carrying the text "Part", in each provider's stream format. */
const partEvent: Record<HttpProviderId, string> = {
  openai: 'data: {"choices":[{"index":0,"delta":{"content":"Part"},"finish_reason":null}]}\n\n',
  azure:
    'data: {"choices":[{"content_filter_results":{},"delta":{"content":"Part"},"finish_reason":null,"index":0}]}\n\n',
  groq: 'data: {"choices":[{"index":0,"delta":{"content":"Part"},"finish_reason":null}]}\n\n',
  custom:
    'data: {"object":"chat.completion.chunk","model":"llama3.2:latest","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"Part"},"finish_reason":null}]}\n\n',
  claude:
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}\n\n',
  gemini: 'data: {"candidates":[{"content":{"parts":[{"text":"Part"}],"role":"model"},"index":0}]}\r\n\r\n',
};

function expectProviderError(error: unknown): ProviderError {
  expect(isProviderError(error)).toBe(true);
  return error as ProviderError;
}

// Over a fake fetch: the browser's own model makes no request (browser-model.test.ts).
describe.each(httpProviderIds)('%s', (id) => {
  const config = testConfigs[id];

  it('stops reading at once when aborted mid-stream, keeps the text and throws kind aborted', async () => {
    const { response, cancelled } = hangingStream(partEvent[id]);
    const { fetch } = fakeFetch(() => response);
    const controller = new AbortController();
    let text = '';
    let caught: unknown;
    try {
      for await (const part of createChatProvider(config, { fetch }).chat({
        messages: conversation,
        signal: controller.signal,
      })) {
        if (part.type === 'text-delta') text += part.text;
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(text).toBe('Part');
    expect(expectProviderError(caught).kind).toBe('aborted');
    await expect(cancelled).resolves.toBeUndefined();
  });

  it('throws kind aborted without a request when the signal was aborted before', async () => {
    const { fetch, requests } = fakeFetch(() => jsonResponse({}));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, signal: AbortSignal.abort() }),
    );
    expect(expectProviderError(result.error).kind).toBe('aborted');
    expect(requests).toHaveLength(0);
  });

  it('keeps the text and throws a network error when the connection drops mid-stream', async () => {
    const { fetch } = fakeFetch(() => failingStream(partEvent[id]));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('Part');
    const error = expectProviderError(result.error);
    expect([error.kind, error.retryable]).toEqual(['network', true]);
    expect(error.message).toMatch(/^Connection to .+ was lost before the reply finished\.$/);
  });

  it('throws a network error when the body ends cleanly before the reply finished', async () => {
    const { fetch } = fakeFetch(
      () => new Response(partEvent[id], { headers: { 'content-type': 'text/event-stream' } }),
    );
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.text).toBe('Part');
    expect(expectProviderError(result.error).kind).toBe('network');
  });

  it('maps a rejected fetch (TypeError) to a network error when the server cannot be reached at all', async () => {
    const fetch: typeof globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    const error = expectProviderError(result.error);
    expect(error.kind).toBe('network');
    expect(describeProviderError(error)).toMatch(
      /^Network error: could not reach .+\. Check your connection or base URL\.$/,
    );
  });

  it('maps a rejected fetch to a CORS error when an opaque request reaches the server', async () => {
    const modes: (RequestMode | undefined)[] = [];
    const fetch: typeof globalThis.fetch = (_url, init) => {
      modes.push(init?.mode);
      return init?.mode === 'no-cors'
        ? Promise.resolve(new Response(null, { status: 200 }))
        : Promise.reject(new TypeError('Failed to fetch'));
    };
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    const error = expectProviderError(result.error);
    expect(error.kind).toBe('cors');
    expect(modes).toEqual([undefined, 'no-cors']);
    if (id === 'claude') expect(describeProviderError(error)).toContain('Anthropic Console');
  });

  it('maps a timeout signal to a network error that says it timed out', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('signal timed out', 'TimeoutError'));
    const fetch: typeof globalThis.fetch = () => Promise.reject(controller.signal.reason);
    const result = await drain(
      createChatProvider(config, { fetch }).chat({ messages: conversation, signal: controller.signal }),
    );
    const error = expectProviderError(result.error);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Timed out waiting for /);
  });
});

describe.each(httpProviderIds)('%s HTTP errors', (id) => {
  it.each(errorCases[id])(
    'maps $status to $kind',
    async ({ status, body, headers, kind, message, retryAfter }) => {
      const { fetch } = fakeFetch(() => jsonResponse(body, { status, headers: headers ?? {} }));
      const provider = createChatProvider(testConfigs[id], { fetch });
      const chatError = (await drain(provider.chat({ messages: conversation }))).error;
      const listError = await provider.listModels().catch((error: unknown) => error);
      for (const error of [chatError, listError]) {
        const {
          provider: errorProvider,
          kind: errorKind,
          status: errorStatus,
          message: errorMessage,
          retryAfter: wait,
        } = expectProviderError(error);
        expect({ errorProvider, errorKind, errorStatus, errorMessage, wait }).toEqual({
          errorProvider: id,
          errorKind: kind,
          errorStatus: status,
          errorMessage: message,
          wait: retryAfter,
        });
      }
    },
  );
});

describe('error descriptions for a toast', () => {
  it('reads status · message · retry hint', async () => {
    const { fetch } = fakeFetch(() => jsonResponse(openaiCases[1]?.body, { status: 401 }));
    const error = (
      await drain(createChatProvider(testConfigs.openai, { fetch }).chat({ messages: conversation }))
    ).error;
    expect(describeProviderError(expectProviderError(error))).toBe(
      '401 · Incorrect API key provided: sk-abc***wxyz. You can find your API key at https://platform.openai.com/account/api-keys.',
    );
    const limited = new ProviderError({
      provider: 'groq',
      kind: 'rate-limited',
      status: 429,
      message: 'Rate limit reached',
      retryAfter: 11.455,
    });
    expect(describeProviderError(limited)).toBe('429 · Rate limit reached · retry after 12 s');
  });
});

describe('offline', () => {
  it('reports a network error, not CORS, for Claude when the browser knows it is offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    try {
      const fetch: typeof globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
      const result = await drain(
        createChatProvider(testConfigs.claude, { fetch }).chat({ messages: conversation }),
      );
      expect(expectProviderError(result.error).kind).toBe('network');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
