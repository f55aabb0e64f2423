import { describe, expect, it } from 'vitest';
import { providerCatalog } from '../provider-catalog.ts';
import { describeCapabilities, supportsTools, unknownModel, type ModelCapabilities } from './capabilities.ts';

describe('tool support', () => {
  /** Built-in models known to take no tools; the browser's own model is offered none on the web. */
  const without = new Set(['claude-2.1', 'claude-2.0', 'gemini-pro-vision', 'llama2-70b-4096', 'built-in']);

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

describe("the providers' own tools", () => {
  const { openai, azure, claude, gemini, groq } = providerCatalog;
  const tools = (capabilities: ModelCapabilities) => [
    capabilities.webSearch,
    capabilities.codeExecution,
    capabilities.imageOutput,
  ];

  it('are switched on per conversation where the API takes them', () => {
    expect(tools(openai.capabilities('gpt-5.2'))).toEqual([true, true, true]);
    expect(tools(openai.capabilities('gpt-4.1-nano'))).toEqual([undefined, undefined, undefined]);
    expect(tools(claude.capabilities('claude-sonnet-4-5'))).toEqual([true, true, undefined]);
    expect(tools(gemini.capabilities('gemini-2.5-flash'))).toEqual([true, true, undefined]);
  });

  it("are not offered on Azure, and come unasked with Groq's compound and Gemini's image models", () => {
    expect(tools(azure.capabilities('gpt-5.2'))).toEqual([false, false, false]);
    expect(tools(groq.capabilities('groq/compound'))).toEqual(['auto', 'auto', undefined]);
    expect(tools(gemini.capabilities('gemini-3-pro-image'))).toEqual([undefined, undefined, 'auto']);
    expect(describeCapabilities(gemini.capabilities('gemini-3-pro-image'))).toBe(
      '1M context · reasons · images · PDFs · creates images',
    );
  });
});
