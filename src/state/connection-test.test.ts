import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../domain/config.ts';
import { switchProvider } from '../domain/provider-catalog.ts';
import { ProviderError } from '../providers/provider-error.ts';
import { failureMessage, mixedContent, testConnection } from './connection-test.ts';

const openai: Config = { ...defaultConfig, apiKey: 'sk-test' };

describe('mixedContent', () => {
  it('blocks a plain-http address from an https page, except loopback', () => {
    const local = { ...openai, baseUrl: 'http://192.168.1.20:11434/v1' };
    expect(mixedContent(local, 'https://chat.example.com/')).toBe(
      'This page is served over https, so the browser blocks the plain-http address http://192.168.1.20:11434/v1: use an https address for it, or open the app over http.',
    );
    expect(mixedContent(local, 'http://127.0.0.1:4173/')).toBeNull();
    expect(
      mixedContent({ ...openai, baseUrl: 'http://localhost:11434/v1' }, 'https://chat.example.com/'),
    ).toBeNull();
    expect(mixedContent(openai, 'https://chat.example.com/')).toBeNull();
  });

  it('is said before any request is made', async () => {
    const createProvider = () => {
      throw new Error('no request expected');
    };
    const result = await testConnection(
      { ...openai, baseUrl: 'http://10.0.0.5/v1' },
      createProvider,
      'https://a.example/',
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^This page is served over https/);
  });
});

describe('failureMessage', () => {
  const error = (kind: ProviderError['kind'], message = 'm') =>
    new ProviderError({ provider: 'openai', kind, message });

  it('says what is wrong and what to do, per kind and provider', () => {
    const page = 'http://127.0.0.1:4173/';
    expect(failureMessage(openai, error('not-found'), page)).toBe(
      'Nothing answers at https://api.openai.com (404): check the base URL.',
    );
    const azure = {
      ...switchProvider(openai, 'azure'),
      endpoint: 'https://r.openai.azure.com/',
      deploymentName: 'prod',
    };
    expect(failureMessage(azure, error('not-found'), page)).toBe(
      'There is no deployment named “prod” at r.openai.azure.com: check the deployment name and the endpoint.',
    );
    expect(failureMessage(openai, error('rate-limited', 'Slow down'), page)).toBe(
      'The connection works, but the key is rate-limited right now: Slow down',
    );
  });

  it('names a missing setting without a request', async () => {
    const result = await testConnection(
      { ...openai, apiKey: '' },
      () => {
        throw new Error('no request expected');
      },
      'http://x/',
    );
    expect(result).toEqual({ ok: false, message: 'OpenAI: API key is missing.' });
  });
});
