import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

export const openai: ProviderDefinition = {
  id: 'openai',
  label: 'OpenAI',
  keyHint: 'platform.openai.com/api-keys',
  models: [
    'gpt-4-turbo-preview',
    'gpt-4',
    'gpt-3.5-turbo',
    'gpt-3.5-turbo-16k',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4o',
    'gpt-4o-mini',
  ],
  modelKey: 'model',
  fields: [
    fields.model,
    fields.temperature,
    fields.maxTokens,
    fields.topP,
    fields.frequencyPenalty,
    fields.presencePenalty,
  ],
  defaults: { model: 'gpt-4-turbo-preview', topP: 0.95, frequencyPenalty: 0, presencePenalty: 0 },
  required: [requireKey, requireModel],
  api: {
    kind: 'chat-completions',
    host: 'https://api.openai.com',
    chatPath: '/v1/chat/completions',
    modelsPath: '/v1/models',
    auth: 'bearer',
    sends: ['top_p', 'frequency_penalty', 'presence_penalty', 'stream_options'],
    hiddenModels: /embedding|whisper|tts|dall-e|moderation|transcribe|realtime|^gpt-image|^davinci|^babbage/,
  },
};
