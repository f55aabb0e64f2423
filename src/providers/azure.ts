import type { Config } from '../domain/config.ts';
import { getJson, resolveBase } from './http.ts';
import { dataIds } from './json.ts';
import { completionMessages, runChatCompletion } from './openai-compatible.ts';
import type { ChatProvider } from './types.ts';

/** The last data-plane api-version that still lists deployments. */
const listApiVersion = '2022-12-01';

export function createAzureProvider(config: Config, fetch: typeof globalThis.fetch): ChatProvider {
  const base = resolveBase(config.baseUrl, config.endpoint ?? '');
  const deployment = config.deploymentName ?? '';
  const apiVersion = encodeURIComponent(config.apiVersion?.trim() || '2023-05-15');
  const target = {
    provider: 'azure' as const,
    fetch,
    headers: { 'api-key': config.apiKey, 'Content-Type': 'application/json' },
  };
  return {
    id: 'azure',
    chat({ messages, signal, stream = true }) {
      // No stream_options: api-versions such as 2023-05-15 reject it, and Azure streams no usage anyway.
      const body = {
        model: deployment,
        messages: completionMessages(messages),
        temperature: config.temperature,
        max_tokens: config.maxTokens,
        top_p: config.topP,
        frequency_penalty: config.frequencyPenalty,
        presence_penalty: config.presencePenalty,
        stream,
      };
      const url = `${base}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${apiVersion}`;
      return runChatCompletion({ ...target, url, signal }, body, stream);
    },
    async listModels(signal) {
      const url = `${base}/openai/deployments?api-version=${listApiVersion}`;
      return dataIds(await getJson({ ...target, url, signal }));
    },
  };
}
