import type { Config } from '../domain/config.ts';
import { providerCatalog } from '../domain/provider-catalog.ts';
import type { ProviderApi, ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { ProviderError } from './provider-error.ts';
import type { ChatProvider, CreateChatProvider, StreamPart } from './types.ts';

export { describeProviderError, isProviderError, ProviderError } from './provider-error.ts';
export type * from './types.ts';

type Factory = (
  definition: ProviderDefinition,
  config: Config,
  fetch: typeof globalThis.fetch,
) => ChatProvider;

/**
 * One client per API; a provider's definition says which it speaks and how. Each client is its
 * own chunk, fetched when a provider is first used (the chat screen's first load carries none).
 */
const clients: Record<ProviderApi['kind'], () => Promise<Factory>> = {
  'chat-completions': () =>
    import('./openai-compatible.ts').then((module) => module.createChatCompletionsProvider),
  'anthropic-messages': () => import('./anthropic.ts').then((module) => module.createAnthropicProvider),
  gemini: () => import('./gemini.ts').then((module) => module.createGeminiProvider),
  'browser-model': () => import('./browser-model.ts').then((module) => module.createBrowserModelProvider),
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
  // Fetched on first use; a fetch that failed (offline, a redeploy) is tried again on the next call.
  let client: Promise<ChatProvider> | null = null;
  const loaded = (): Promise<ChatProvider> => {
    client ??= clients[definition.api.kind]().then(
      (factory) => factory(definition, config, fetch),
      (cause: unknown) => {
        client = null;
        throw new ProviderError(
          { provider: config.provider, kind: 'network', message: unloadedClientMessage },
          { cause },
        );
      },
    );
    return client;
  };
  return {
    id: config.provider,
    async *chat(request) {
      yield* (await loaded()).chat(request);
    },
    listModels: async (signal) => (await loaded()).listModels(signal),
  };
};

const unloadedClientMessage =
  'Network error: this part of the app could not be loaded. Check your connection and try again.';

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
