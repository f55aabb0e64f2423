import type { Config, ProviderId } from '../domain/config.ts';
import { createAnthropicProvider } from './anthropic.ts';
import { createAzureProvider } from './azure.ts';
import { createGeminiProvider } from './gemini.ts';
import { createGroqProvider } from './groq.ts';
import { createOpenAIProvider } from './openai.ts';
import type { ChatProvider, CreateChatProvider, StreamPart } from './types.ts';

export { describeProviderError, isProviderError, ProviderError } from './provider-error.ts';
export type * from './types.ts';

const factories: Record<ProviderId, (config: Config, fetch: typeof globalThis.fetch) => ChatProvider> = {
  azure: createAzureProvider,
  openai: createOpenAIProvider,
  claude: createAnthropicProvider,
  gemini: createGeminiProvider,
  groq: createGroqProvider,
};

/** The chat provider for a configuration. Throws `Unsupported provider: X` for an unknown provider. */
export const createChatProvider: CreateChatProvider = (config, options) => {
  const provider: unknown = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(factories, provider)) {
    throw new Error(`Unsupported provider: ${String(provider)}`);
  }
  // Called through a wrapper: a bare `window.fetch` reference throws "Illegal invocation" when called as a method.
  const fetch = options?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return factories[config.provider](config, fetch);
};

/** Reads a reply to its end and returns the full text; `onText` sees each piece as it arrives. */
export async function collectText(
  parts: AsyncIterable<StreamPart>,
  onText?: (text: string) => void,
): Promise<string> {
  let text = '';
  for await (const part of parts) {
    if (part.type !== 'text-delta') continue;
    text += part.text;
    onText?.(part.text);
  }
  return text;
}
