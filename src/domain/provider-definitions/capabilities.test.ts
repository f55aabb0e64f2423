import { describe, expect, it } from 'vitest';
import { providerCatalog } from '../provider-catalog.ts';
import { supportsTools, unknownModel } from './capabilities.ts';

describe('tool support', () => {
  /** Built-in models known to take no tools. */
  const without = new Set(['claude-2.1', 'claude-2.0', 'gemini-pro-vision', 'llama2-70b-4096']);

  it('is claimed for every built-in model but the few that never took tools', () => {
    for (const definition of Object.values(providerCatalog))
      for (const model of definition.models)
        expect([model, supportsTools(definition.capabilities(model))]).toEqual([model, !without.has(model)]);
  });

  it('is refused by the chat-only OpenAI variants, and assumed for a model nobody knows', () => {
    const openai = providerCatalog.openai.capabilities;
    expect(supportsTools(openai('gpt-5-chat-latest'))).toBe(false);
    expect(supportsTools(openai('chatgpt-4o-latest'))).toBe(false);
    expect(supportsTools(openai('gpt-4o-2024-08-06'))).toBe(true);
    expect(supportsTools(providerCatalog.custom.capabilities('llama3.2:latest'))).toBe(true);
    expect(supportsTools(unknownModel)).toBe(true);
    expect(supportsTools({ tools: false })).toBe(false);
  });
});
