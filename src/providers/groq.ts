import type { Config } from '../domain/config.ts';
import { getJson, resolveBase } from './http.ts';
import { dataIds } from './json.ts';
import { completionMessages, runChatCompletion } from './openai-compatible.ts';
import type { ChatProvider } from './types.ts';

export function createGroqProvider(config: Config, fetch: typeof globalThis.fetch): ChatProvider {
  const base = resolveBase(config.baseUrl, 'https://api.groq.com');
  const target = {
    provider: 'groq' as const,
    fetch,
    headers: { Authorization: `Bearer ${config.apiKey}`, 'Content-Type': 'application/json' },
  };
  return {
    id: 'groq',
    chat({ messages, signal, stream = true }) {
      // Groq rejects properties it does not support: never penalties, `name` or an empty `stop`.
      const stop = config.stop?.filter((sequence) => sequence !== '');
      const body = {
        model: config.model,
        messages: completionMessages(messages),
        temperature: config.temperature,
        max_tokens: config.maxTokens,
        top_p: config.topP,
        ...(stop && stop.length > 0 ? { stop } : {}),
        stream,
      };
      return runChatCompletion(
        { ...target, url: `${base}/openai/v1/chat/completions`, signal },
        body,
        stream,
      );
    },
    async listModels(signal) {
      return dataIds(await getJson({ ...target, url: `${base}/openai/v1/models`, signal }));
    },
  };
}
