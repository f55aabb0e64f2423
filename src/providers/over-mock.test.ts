import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { utf8Reply } from '../../tools/mock-providers/server.mjs';
import { conversation, testConfigs, httpProviderIds, type HttpProviderId } from './__fixtures__/configs.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import { isProviderError, type ProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ProviderErrorKind } from './types.ts';

/** Every provider over real HTTP against the loopback mock. */

const mock = mockProvidersForThisFile();
let unique = 0;

function configFor(
  id: Exclude<HttpProviderId, 'custom'>,
  scenario: string,
  overrides: Partial<Config> = {},
): Config {
  unique += 1;
  return { ...testConfigs[id], apiKey: `${scenario}.test${unique}`, baseUrl: mock().url, ...overrides };
}

function chat(config: Config, stream = true) {
  return drain(createChatProvider(config).chat({ messages: conversation, stream }));
}

function providerError(error: unknown): ProviderError {
  if (!isProviderError(error)) throw new Error(`Expected a ProviderError, got ${String(error)}`);
  return error;
}

const echo = 'Echo: Tell me a joke (4 messages received)';

/**
 * The five hosted providers; an OpenAI-compatible endpoint (a local server) has its own block
 * below, and the browser's own model makes no HTTP request (browser-model.test.ts).
 */
const hosted = httpProviderIds.filter((id): id is Exclude<HttpProviderId, 'custom'> => id !== 'custom');

describe.each(hosted)('%s over HTTP', (id) => {
  it.each([true, false])(
    'ok (stream %s): echoes the last user message and counts the history',
    async (stream) => {
      const config = configFor(id, 'ok');
      const result = await chat(config, stream);
      expect(result.error).toBeUndefined();
      expect(result.text).toBe(echo);
      expect(result.finish).toMatchObject({ type: 'finish', reason: 'stop' });
      const recorded = mock().requests.filter((request) => request.key === config.apiKey);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]?.provider).toBe(id);
    },
  );

  it('utf8: assembles multi-byte characters that the server split across socket writes', async () => {
    const result = await chat(configFor(id, 'utf8'));
    expect(result.text).toBe(utf8Reply);
  });

  it('drop: keeps the text that arrived and reports the lost connection', async () => {
    const result = await chat(configFor(id, 'drop'));
    expect(result.text.length).toBeGreaterThan(0);
    expect(echo.startsWith(result.text) && result.text !== echo).toBe(true);
    expect(providerError(result.error).kind).toBe('network');
  });

  it("error-event: keeps the text and throws the provider's mid-stream error", async () => {
    const result = await chat(configFor(id, 'error-event'));
    expect(result.text.length).toBeGreaterThan(0);
    expect(echo.startsWith(result.text)).toBe(true);
    const expected: Record<typeof id, ProviderErrorKind> = {
      openai: 'server',
      azure: 'server',
      groq: 'server',
      claude: 'overloaded',
      gemini: 'overloaded',
    };
    expect(providerError(result.error).kind).toBe(expected[id]);
  });

  it('blocked: ends with a content filter, or for Gemini throws a blocked error', async () => {
    const result = await chat(configFor(id, 'blocked'));
    if (id === 'gemini') {
      expect(result.text).toBe('');
      expect(providerError(result.error).message).toBe('Gemini blocked the prompt (SAFETY).');
    } else {
      expect(result.finish).toMatchObject({ reason: 'content-filter' });
      expect(echo.startsWith(result.text)).toBe(true);
    }
  });

  it('http-429: rate-limited with the retry delay the provider gave', async () => {
    const delays: Record<typeof id, number> = { openai: 20, azure: 6, groq: 12, claude: 20, gemini: 34.4 };
    const error = providerError((await chat(configFor(id, 'http-429'))).error);
    expect([error.kind, error.status, error.retryAfter]).toEqual(['rate-limited', 429, delays[id]]);
  });

  it.each([
    ['http-400', 'invalid-request'],
    ['http-401', 'auth'],
    ['http-403', 'permission'],
    ['http-404', 'not-found'],
    ['http-500', 'server'],
    ['http-503', 'overloaded'],
  ])('%s maps to %s', async (scenario, kind) => {
    const expectedKind = id === 'azure' && scenario === 'http-400' ? 'blocked' : kind;
    expect(providerError((await chat(configFor(id, scenario))).error).kind).toBe(expectedKind);
  });

  it("an unknown key is refused with the provider's bad-key error", async () => {
    const error = providerError((await chat(configFor(id, 'sk-real-looking'))).error);
    expect([error.kind, error.status]).toEqual(['auth', id === 'gemini' ? 400 : 401]);
  });

  it('lists models, with the limits and capabilities the provider reports', async () => {
    const models = await createChatProvider(configFor(id, 'ok')).listModels();
    expect(models.length).toBeGreaterThan(1);
    expect(models.every((model) => model.id !== '' && !model.id.startsWith('models/'))).toBe(true);
    // OpenAI and Azure report nothing about their models; the others report limits.
    const reported: Record<typeof id, [string, object]> = {
      openai: ['gpt-4o', {}],
      azure: ['gpt-4o', {}],
      groq: ['llama-3.3-70b-versatile', { contextWindow: 131_072, maxOutput: 32_768 }],
      claude: [
        'claude-opus-4-8',
        { contextWindow: 1_000_000, maxOutput: 128_000, reasoning: true, images: true, pdfs: true },
      ],
      gemini: ['gemini-2.5-flash', { contextWindow: 1_048_576, maxOutput: 65_536, reasoning: true }],
    };
    const [model, capabilities] = reported[id];
    expect(models.find((listed) => listed.id === model)?.capabilities).toEqual(capabilities);
  });

  it('stops a slow stream at once when aborted, keeping what arrived', async () => {
    const controller = new AbortController();
    let text = '';
    let caught: unknown;
    try {
      const parts = createChatProvider(configFor(id, 'slow')).chat({
        messages: conversation,
        signal: controller.signal,
      });
      for await (const part of parts) {
        if (part.type === 'text-delta') text += part.text;
        if (text.length > 0) setTimeout(() => controller.abort(), 50);
      }
    } catch (error) {
      caught = error;
    }
    expect(providerError(caught).kind).toBe('aborted');
    // The first chunk arrives at once, the next 200 ms later: the abort lands in between, and
    // nothing more is read (the whole reply streams for 16 s, past the test's own timeout).
    expect(text).toBe(id === 'gemini' ? 'This is a' : 'This');
  });
});

describe('request validation against the real-shaped mock', () => {
  it('OpenAI rejects an out-of-range temperature with its own 400', async () => {
    const error = providerError((await chat(configFor('openai', 'ok', { temperature: 2.5 }))).error);
    expect([error.kind, error.status, error.message]).toEqual([
      'invalid-request',
      400,
      "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
    ]);
  });

  it('Gemini rejects an out-of-range temperature with INVALID_ARGUMENT', async () => {
    const error = providerError((await chat(configFor('gemini', 'ok', { temperature: 2.5 }))).error);
    expect([error.kind, error.status]).toEqual(['invalid-request', 400]);
  });

  it('Claude gets temperatures above 1 clamped, so the request passes validation', async () => {
    const config = configFor('claude', 'ok', { temperature: 1.8 });
    expect((await chat(config)).text).toBe(echo);
    const [recorded] = mock().requests.filter((request) => request.key === config.apiKey);
    expect(recorded?.body).toMatchObject({ temperature: 1 });
  });

  it('Azure with an old api-version passes because no stream_options is sent', async () => {
    expect((await chat(configFor('azure', 'ok', { apiVersion: '2023-05-15' }))).text).toBe(echo);
  });

  it('markdown: streams a long markdown reply to the end', async () => {
    const result = await chat(configFor('groq', 'markdown'));
    expect(result.finish).toMatchObject({ reason: 'stop' });
    expect(result.text).toContain('```typescript');
    expect(result.text.length).toBeGreaterThan(5000);
  });
});

describe('an OpenAI-compatible local server (Ollama) over HTTP', () => {
  /** The local mock takes its scenario from the base URL: a local server needs no key. */
  function localConfig(scenario: string): Config {
    unique += 1;
    return { ...testConfigs.custom, baseUrl: `${mock().url}/local/${scenario}.test${unique}/v1` };
  }

  it.each([true, false])('ok (stream %s): echoes, with no Authorization header', async (stream) => {
    const config = localConfig('ok');
    const result = await chat(config, stream);
    expect([result.error, result.text]).toEqual([undefined, echo]);
    const [recorded] = mock().requests.filter((request) =>
      request.path.startsWith(new URL(config.baseUrl ?? '').pathname),
    );
    expect(recorded?.path).toMatch(/\/v1\/chat\/completions$/);
    expect(recorded?.headers).not.toHaveProperty('authorization');
    expect(recorded?.body).toEqual({
      model: 'llama3.2:latest',
      messages: conversation,
      temperature: 0.7,
      max_tokens: 800,
      top_p: 1,
      stream,
    });
  });

  it('lists its models from /models', async () => {
    expect((await createChatProvider(localConfig('ok')).listModels()).map(({ id }) => id)).toEqual([
      'llama3.2:latest',
      'qwen3:8b',
      'gemma3:4b',
    ]);
  });

  it('keeps the text before a mid-stream error, and names a model it does not have', async () => {
    const broken = await chat(localConfig('error-event'));
    expect(broken.text.length).toBeGreaterThan(0);
    expect(providerError(broken.error).kind).toBe('server');
    const missing = providerError((await chat(localConfig('http-404'))).error);
    expect([missing.kind, missing.message]).toEqual([
      'not-found',
      'model "llama3.2:latest" not found, try pulling it first',
    ]);
  });

  it('sends a key as a bearer token when one is given', async () => {
    const config = { ...localConfig('ok'), apiKey: 'lm-studio-token' };
    expect((await chat(config)).text).toBe(echo);
    const [recorded] = mock().requests.filter((request) =>
      request.path.startsWith(new URL(config.baseUrl ?? '').pathname),
    );
    expect(recorded?.headers.authorization).toBe('Bearer lm-studio-token');
  });
});

describe('models retired upstream, over HTTP', () => {
  it.each([
    ['openai', 'gpt-3.5-turbo', 404],
    ['claude', 'claude-3-opus-20240229', 404],
    ['gemini', 'gemini-2.5-flash', 404],
    ['groq', 'llama-3.3-70b-versatile', 400],
  ] as const)("%s: its answer for %s (%i) is read as the model's being gone", async (id, model, status) => {
    const error = providerError((await chat(configFor(id, 'retired', { model }))).error);
    expect([error.status, error.modelGone]).toEqual([status, true]);
  });

  it.each([
    ['openai', 'gpt-5.4'],
    ['claude', 'claude-sonnet-4-6'],
    ['gemini', 'gemini-3.8-flash'],
    ['groq', 'openai/gpt-oss-120b'],
  ] as const)('%s: a current model (%s) still answers', async (id, model) => {
    expect((await chat(configFor(id, 'retired', { model }))).text).toBe(echo);
  });

  it('other failures of the same status are not taken for a gone model', async () => {
    const refused = providerError((await chat(configFor('groq', 'http-400'))).error);
    expect([refused.status, refused.modelGone]).toEqual([400, undefined]);
    const azure = providerError((await chat(configFor('azure', 'http-404'))).error);
    expect([azure.status, azure.modelGone]).toEqual([404, undefined]);
  });

  it("reads OpenAI's shutdown_date, and the list leaves out the models already shut down", async () => {
    const models = await createChatProvider(configFor('openai', 'retired')).listModels();
    expect(models.find(({ id }) => id === 'o3')?.shutdownDate).toBe('2026-12-11');
    expect(models.find(({ id }) => id === 'gpt-5.4')).toEqual({ id: 'gpt-5.4', capabilities: {} });
    expect(models.map(({ id }) => id)).not.toContain('gpt-3.5-turbo');
  });
});
