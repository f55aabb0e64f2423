import { describe, expect, it } from 'vitest';
import { defaultConfig } from './config.ts';
import { restoreConfig, validateConfigShape } from './config-restore.ts';

describe('restoreConfig', () => {
  it('restores a full configuration unchanged', () => {
    const saved = { ...defaultConfig, apiKey: 'sk-1', model: 'gpt-4o', temperature: 1.2, stop: ['END'] };
    expect(restoreConfig(saved)).toEqual(saved);
  });

  it('fills an empty object with the default configuration', () => {
    expect(restoreConfig({})).toEqual(defaultConfig);
  });

  it('treats a legacy config without provider but with endpoint and deployment as azure', () => {
    expect(
      restoreConfig({ apiKey: 'k', endpoint: 'https://x.openai.azure.com', deploymentName: 'gpt' }),
    ).toEqual({
      provider: 'azure',
      apiKey: 'k',
      temperature: 0.7,
      maxTokens: 800,
      endpoint: 'https://x.openai.azure.com',
      deploymentName: 'gpt',
      apiVersion: '2023-05-15',
      topP: 0.95,
      frequencyPenalty: 0,
      presencePenalty: 0,
    });
  });

  it('fills missing numbers from the provider defaults', () => {
    expect(restoreConfig({ provider: 'claude', apiKey: 'k' })).toMatchObject({
      provider: 'claude',
      model: 'claude-3-opus-20240229',
      maxTokens: 4096,
      temperature: 0.7,
    });
    expect(restoreConfig({ provider: 'gemini', apiKey: 'k', temperature: 0.2 })).toMatchObject({
      topK: 40,
      topP: 0.95,
      temperature: 0.2,
    });
  });

  it('drops fields of the wrong type and unknown fields', () => {
    const restored = restoreConfig({
      provider: 'groq',
      apiKey: 42,
      temperature: 'hot',
      model: 'llama-3.3-70b-versatile',
      stop: ['a', 1],
      extra: 'x',
    });
    expect(restored).toEqual({
      provider: 'groq',
      apiKey: '',
      temperature: 0.7,
      maxTokens: 800,
      model: 'llama-3.3-70b-versatile',
      topP: 0.95,
    });
  });

  it('keeps baseUrl and stop', () => {
    expect(
      restoreConfig({ provider: 'groq', baseUrl: 'http://127.0.0.1:9999', stop: ['\n\n'] }),
    ).toMatchObject({
      baseUrl: 'http://127.0.0.1:9999',
      stop: ['\n\n'],
    });
  });

  it.each([null, 'openai', 3, ['openai'], { provider: 'mistral' }])('rejects %j', (value) => {
    expect(restoreConfig(value)).toBeNull();
  });
});

describe('validateConfigShape', () => {
  it('accepts a configuration without a key and says so', () => {
    const check = validateConfigShape({ provider: 'openai', model: 'gpt-4' });
    expect(check).toEqual({ ok: true, hasKey: false, config: { ...defaultConfig, model: 'gpt-4' } });
  });

  it('reports a present key', () => {
    const check = validateConfigShape({ provider: 'openai', apiKey: 'sk' });
    expect(check.ok && check.hasKey).toBe(true);
  });

  it('applies the legacy azure rule', () => {
    const check = validateConfigShape({ endpoint: 'https://e', deploymentName: 'd' });
    expect(check.ok && check.config.provider).toBe('azure');
  });

  it.each([
    [
      { provider: 'mistral' },
      'config.provider must be one of azure, openai, claude, gemini, groq, device, custom',
    ],
    [{ provider: 'openai', temperature: '0.7' }, 'config.temperature must be a number (found a string)'],
    [{ provider: 'openai', model: 5 }, 'config.model must be a string (found a number)'],
    [{ provider: 'groq', stop: 'END' }, 'config.stop must be a list of strings'],
    [[], 'config must be an object (found a list)'],
  ])('rejects %j', (value, problem) => {
    expect(validateConfigShape(value)).toEqual({ ok: false, problem });
  });
});
