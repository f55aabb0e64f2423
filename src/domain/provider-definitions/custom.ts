import { capabilityTable } from './capabilities.ts';
import { fields, requireModel, type ProviderDefinition } from './definition.ts';

/**
 * Any server that speaks OpenAI's Chat Completions: Ollama, LM Studio, llama.cpp's server, vLLM,
 * OpenRouter, a company proxy. The user gives it a name, a base URL (with its /v1) and, if it
 * needs one, a key; its models come from its own /models. Nothing is known about them.
 */
export const custom: ProviderDefinition<'custom'> = {
  id: 'custom',
  label: 'OpenAI-compatible',
  keyHint: 'most local servers need none',
  keyOptional: true,
  multipleConnections: true,
  models: [],
  modelKey: 'model',
  fields: [
    { kind: 'text', key: 'name', label: 'Name', placeholder: 'Ollama' },
    { kind: 'text', key: 'baseUrl', label: 'Base URL', placeholder: 'http://localhost:11434/v1' },
    fields.model,
    fields.temperature,
    fields.maxTokens,
    fields.topP,
  ],
  defaults: { name: '', model: '', topP: 1 },
  required: [{ key: 'baseUrl', name: 'base URL' }, requireModel],
  // Unknown servers: the common 20 MB.
  maxFileBytes: 20 * 1024 * 1024,
  capabilities: capabilityTable({}, []),
  api: {
    kind: 'chat-completions',
    chatPath: '/chat/completions',
    modelsPath: '/models',
    auth: 'bearer',
    // Only what every compatible server takes: strict ones reject the rest.
    sends: ['top_p'],
  },
};
