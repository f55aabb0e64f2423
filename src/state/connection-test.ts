import type { Config } from '../domain/config.ts';
import { configProblem, connectionUrl, modelOf, providerCatalog } from '../domain/provider-catalog.ts';
import { describeProviderError, isProviderError, type ProviderError } from '../providers/provider-error.ts';
import { collectText } from '../providers/registry.ts';
import type { CreateChatProvider, ListedModel } from '../providers/types.ts';

/** What 'Test connection' found, in one sentence; and the models it listed. */
export interface ConnectionCheck {
  ok: boolean;
  message: string;
  models?: ListedModel[];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function isLoopback(url: string): boolean {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * An https page may not call a plain-http address (mixed content): the browser blocks it before
 * any request. Loopback addresses are exempt in Chromium and Firefox.
 */
export function mixedContent(config: Config, pageUrl: string): string | null {
  const url = connectionUrl(config);
  if (!pageUrl.startsWith('https:') || !url.startsWith('http:') || isLoopback(url)) return null;
  return `This page is served over https, so the browser blocks the plain-http address ${url}: use an https address for it, or open the app over http.`;
}

/** One sentence: what is wrong with the connection and how to fix it. */
export function failureMessage(config: Config, error: ProviderError, pageUrl: string): string {
  const definition = providerCatalog[config.provider];
  const url = connectionUrl(config);
  const host = hostOf(url);
  switch (error.kind) {
    case 'auth':
      return `${definition.label} refused the key: check it, or create a new one at ${definition.keyHint}.`;
    case 'permission':
      return `The key works but has no access to this (${error.message}): check its permissions and billing.`;
    case 'not-found':
      return definition.modelKey === 'deploymentName'
        ? `There is no deployment named “${modelOf(config)}” at ${host}: check the deployment name and the endpoint.`
        : `Nothing answers at ${url} (404): check the base URL.`;
    case 'cors': {
      // Anthropic's own reason comes first: its organisations can switch browser access off.
      if (definition.corsAdvice)
        return `${host} refused a request from this page (CORS). ${definition.corsAdvice}`;
      const origin = new URL(pageUrl).origin;
      return `${host} refused a request from this page (CORS): allow the origin ${origin} in its settings (for Ollama set OLLAMA_ORIGINS=${origin} before ollama serve; in LM Studio switch on Enable CORS).`;
    }
    case 'network':
      return `Could not reach ${host}: check the address, your connection, and that the server is running.`;
    case 'rate-limited':
      return `The connection works, but the key is rate-limited right now: ${error.message}`;
    default:
      return describeProviderError(error);
  }
}

/**
 * 'Test connection': lists the models (for Azure, whose deployments cannot always be listed with
 * a key, asks the deployment a one-word question) and says in one sentence what it found.
 */
export async function testConnection(
  config: Config,
  createProvider: CreateChatProvider,
  pageUrl: string,
): Promise<ConnectionCheck> {
  const listsModels = providerCatalog[config.provider].modelKey === 'model';
  // Listing needs no model: an OpenAI-compatible endpoint is tested with its base URL alone.
  const problem = configProblem(config, listsModels ? ['model'] : []);
  if (problem) return { ok: false, message: `${problem}.` };
  const blocked = mixedContent(config, pageUrl);
  if (blocked) return { ok: false, message: blocked };
  const signal = AbortSignal.timeout(20_000);
  try {
    const service = createProvider(config);
    if (!listsModels) {
      // At least 16 tokens: some deployments refuse a smaller limit.
      const request = { messages: [{ role: 'user' as const, content: 'ping' }], settings: { maxTokens: 16 } };
      // The reply itself does not matter: an answer proves the deployment exists.
      await collectText(service.chat({ ...request, signal, stream: false }));
      return { ok: true, message: `Connected: the deployment “${modelOf(config)}” answered.` };
    }
    const models = await service.listModels(signal);
    const count = models.length;
    const available = `${count} model${count === 1 ? '' : 's'} available`;
    return {
      ok: true,
      message: `Connected: ${available}${config.apiKey.trim() ? ' to this key' : ''}.`,
      models,
    };
  } catch (error) {
    if (!isProviderError(error))
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    return { ok: false, message: failureMessage(config, error, pageUrl) };
  }
}
