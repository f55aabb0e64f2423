import { afterEach, describe, expect, it, vi } from 'vitest';
import { providerIds, type Config } from '../domain/config.ts';
import { testConfigs } from './__fixtures__/configs.ts';
import { collectText, createChatProvider } from './registry.ts';
import type { StreamPart } from './types.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createChatProvider', () => {
  it.each(providerIds)('creates the %s provider', (id) => {
    expect(createChatProvider(testConfigs[id]).id).toBe(id);
  });

  it('throws `Unsupported provider: X` for an unknown provider', () => {
    const config = { ...testConfigs.openai, provider: 'mistral' } as unknown as Config;
    expect(() => createChatProvider(config)).toThrow(new Error('Unsupported provider: mistral'));
    const inherited = { ...testConfigs.openai, provider: 'toString' } as unknown as Config;
    expect(() => createChatProvider(inherited)).toThrow('Unsupported provider: toString');
  });

  it('calls the global fetch through a wrapper when none is injected', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('{"object":"list","data":[{"id":"m"}]}')));
    vi.stubGlobal('fetch', fetch);
    expect(await createChatProvider(testConfigs.groq).listModels()).toEqual([{ id: 'm', capabilities: {} }]);
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe('collectText', () => {
  it('returns the full text and reports each piece', async () => {
    async function* parts(): AsyncGenerator<StreamPart> {
      yield { type: 'text-delta', text: 'Hel' };
      yield { type: 'text-delta', text: 'lo' };
      yield { type: 'finish', reason: 'stop' };
    }
    const pieces: string[] = [];
    expect(await collectText(parts(), (piece) => pieces.push(piece))).toBe('Hello');
    expect(pieces).toEqual(['Hel', 'lo']);
  });
});
