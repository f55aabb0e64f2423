import { describe, expect, it } from 'vitest';
import { errorFromResponse, retryAfterFrom } from './error-mapping.ts';
import { describeProviderError, isProviderError, kindForStatus, ProviderError } from './provider-error.ts';

describe('ProviderError', () => {
  it('is an Error with the info fields and a name', () => {
    const error = new ProviderError({ provider: 'openai', kind: 'auth', status: 401, message: 'Bad key' });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.provider, error.kind, error.status, error.message, error.retryAfter]).toEqual([
      'ProviderError',
      'openai',
      'auth',
      401,
      'Bad key',
      undefined,
    ]);
    expect(isProviderError(error)).toBe(true);
    expect(isProviderError(new Error('Bad key'))).toBe(false);
  });

  it.each([
    ['rate-limited', undefined, true],
    ['overloaded', 529, true],
    ['server', 500, true],
    ['network', undefined, true],
    ['invalid-request', 400, false],
    ['auth', 401, false],
    ['cors', undefined, false],
    ['blocked', undefined, false],
    ['aborted', undefined, false],
    ['invalid-request', 504, true],
  ] as const)('%s with status %s is retryable: %s', (kind, status, retryable) => {
    expect(new ProviderError({ provider: 'groq', kind, status, message: 'x' }).retryable).toBe(retryable);
  });

  it.each([
    [400, 'invalid-request'],
    [401, 'auth'],
    [403, 'permission'],
    [404, 'not-found'],
    [413, 'invalid-request'],
    [422, 'invalid-request'],
    [429, 'rate-limited'],
    [500, 'server'],
    [502, 'server'],
    [503, 'overloaded'],
    [504, 'server'],
    [529, 'overloaded'],
  ] as const)('status %s is kind %s', (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
  });

  it('describes with status, a truncated message and the retry hint', () => {
    const long = `Rate limit reached ${'x'.repeat(400)}`;
    const description = describeProviderError({
      provider: 'openai',
      kind: 'rate-limited',
      status: 429,
      message: long,
      retryAfter: 20,
    });
    expect(description).toMatch(/^429 · Rate limit reached x+… · retry after 20 s$/);
    expect(description.length).toBeLessThan(270);
    expect(describeProviderError({ provider: 'openai', kind: 'aborted', message: 'Request stopped.' })).toBe(
      'Request stopped.',
    );
    expect(
      describeProviderError({
        provider: 'openai',
        kind: 'rate-limited',
        status: 429,
        message: 'Slow down',
        retryAfter: 0.174,
      }),
    ).toBe('429 · Slow down · retry after 1 s');
  });
});

describe('retryAfterFrom', () => {
  it.each([
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, '', undefined, 1.5],
    [{ 'retry-after': '20' }, 'Please try again in 11.455s.', undefined, 20],
    [{}, 'Please try again in 11.455s.', undefined, 11.455],
    [{}, 'Please try again in 174ms.', undefined, 0.174],
    [{}, 'Please try again in 1m30s.', undefined, 90],
    [{}, 'Please retry after 6 seconds.', undefined, 6],
    [{}, 'Please retry in 34.437s.', undefined, 34.437],
    [{}, 'Quota exceeded', '34.4s', 34.4],
    [{}, 'No hint here', undefined, undefined],
  ])('headers %o and message %j give %s s', (headers, message, retryDelay, seconds) => {
    expect(retryAfterFrom(new Headers(headers), message, retryDelay)).toBe(seconds);
  });

  it('reads an HTTP-date retry-after', () => {
    const inThirtySeconds = new Date(Date.now() + 30_000).toUTCString();
    const seconds = retryAfterFrom(new Headers({ 'retry-after': inThirtySeconds }), '');
    expect(seconds).toBeGreaterThan(28);
    expect(seconds).toBeLessThanOrEqual(30);
  });
});

describe('errorFromResponse fallbacks', () => {
  it('uses short raw text, else the status text, when the body is not provider JSON', () => {
    const plain = errorFromResponse(
      'groq',
      new Response(null, { status: 500, statusText: 'Internal Server Error' }),
      'upstream timeout',
    );
    expect([plain.kind, plain.message]).toEqual(['server', 'upstream timeout']);
    const html = errorFromResponse(
      'gemini',
      new Response(null, { status: 404, statusText: 'Not Found' }),
      '<!DOCTYPE html><html>…',
    );
    expect([html.kind, html.message]).toEqual(['not-found', 'Not Found']);
  });
});
