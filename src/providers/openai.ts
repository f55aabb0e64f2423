import type { Config } from '../domain/config.ts';
import { getJson, resolveBase } from './http.ts';
import { dataIds } from './json.ts';
import { completionMessages, runChatCompletion } from './openai-compatible.ts';
import type { ChatProvider } from './types.ts';

export function createOpenAIProvider(config: Config, fetch: typeof globalThis.fetch): ChatProvider {
  const base = resolveBase(config.baseUrl, 'https://api.openai.com');
  const target = {
    provider: 'openai' as const,
    fetch,
    headers: { Authorization: `Bearer ${config.apiKey}`, 'Content-Type': 'application/json' },
  };
  return {
    id: 'openai',
    chat({ messages, signal, stream = true }) {
      const body = {
        model: config.model,
        messages: completionMessages(messages),
        temperature: config.temperature,
        max_tokens: config.maxTokens,
        top_p: config.topP,
        frequency_penalty: config.frequencyPenalty,
        presence_penalty: config.presencePenalty,
        stream,
        ...(stream && { stream_options: { include_usage: true } }),
      };
      return runChatCompletion({ ...target, url: `${base}/v1/chat/completions`, signal }, body, stream);
    },
    async listModels(signal) {
      const ids = dataIds(await getJson({ ...target, url: `${base}/v1/models`, signal }));
      return ids.filter((id) => !nonChatModel.test(id));
    },
  };
}

/** /v1/models also lists embedding, audio, image and moderation models, which cannot chat. */
const nonChatModel =
  /embedding|whisper|tts|dall-e|moderation|transcribe|realtime|^gpt-image|^davinci|^babbage/;
