import type { Config } from '../domain/config.ts';
import { providerCatalog } from '../domain/provider-catalog.ts';
import type { ProviderApi, ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { createAnthropicProvider } from './anthropic.ts';
import { createGeminiProvider } from './gemini.ts';
import { createChatCompletionsProvider } from './openai-compatible.ts';
import type { ChatProvider, CreateChatProvider, StreamPart } from './types.ts';

export { describeProviderError, isProviderError, ProviderError } from './provider-error.ts';
export type * from './types.ts';

type Factory = (
  definition: ProviderDefinition,
  config: Config,
  fetch: typeof globalThis.fetch,
) => ChatProvider;

/** One client per API; a provider's definition says which it speaks and how. */
const clients: Record<ProviderApi['kind'], Factory> = {
  'chat-completions': createChatCompletionsProvider,
  'anthropic-messages': createAnthropicProvider,
  gemini: createGeminiProvider,
};

/** The chat provider for a configuration. Throws `Unsupported provider: X` for an unknown provider. */
export const createChatProvider: CreateChatProvider = (config, options) => {
  const provider: unknown = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(providerCatalog, provider)) {
    throw new Error(`Unsupported provider: ${String(provider)}`);
  }
  const definition = providerCatalog[config.provider];
  // Called through a wrapper: a bare `window.fetch` reference throws "Illegal invocation" when called as a method.
  const fetch = options?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return clients[definition.api.kind](definition, config, fetch);
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
