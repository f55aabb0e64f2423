import { capabilityTable } from './capabilities.ts';
import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

/** Groq's /models reports context and output limits per key; this table covers the rest. */
const groqCapabilities = capabilityTable({ contextWindow: 131_072 }, [
  // Efforts per docs/providers.md#groq: gpt-oss low to high; qwen3 on (its default) or off.
  {
    match: /^openai\/gpt-oss/,
    capabilities: {
      reasoning: true,
      thinking: 'effort',
      efforts: ['low', 'medium', 'high'],
      maxOutput: 65_536,
    },
  },
  {
    match: /^qwen\/qwen3/,
    capabilities: {
      reasoning: true,
      thinking: 'effort',
      efforts: ['off'],
      reasoningFormat: true,
      maxOutput: 40_960,
    },
  },
  { match: /^meta-llama\/llama-4/, capabilities: { images: true, maxOutput: 8192 } },
  { match: /^llama-3\.3-70b/, capabilities: { maxOutput: 32_768 } },
  { match: /^llama2-/, capabilities: { tools: false } },
  // Compound systems search the web and run code on their own, unasked (console.groq.com/docs/compound).
  { match: /^groq\/compound(-mini)?$/, capabilities: { webSearch: 'auto', codeExecution: 'auto' } },
]);

export const groq: ProviderDefinition<'groq'> = {
  id: 'groq',
  label: 'Groq',
  keyHint: 'console.groq.com/keys',
  keyShape: /^gsk_/,
  // Current models first, the recommended one on top; then the original and other retired ids
  // (their days: groq-retirements.ts).
  models: [
    'openai/gpt-oss-120b',
    'openai/gpt-oss-20b',
    'qwen/qwen3.6-27b',
    // The original list (docs/behaviour.md#built-in-model-lists), and ids retired since.
    'mixtral-8x7b-32768',
    'llama2-70b-4096',
    'gemma-7b-it',
    'llama-3.3-70b-versatile',
    'llama-3.1-8b-instant',
    'qwen/qwen3-32b',
    'meta-llama/llama-4-scout-17b-16e-instruct',
  ],
  // Retired: 400 model_decommissioned; unknown: 404 model_not_found.
  modelGone: [
    { status: 400, code: 'model_decommissioned' },
    { status: 404, code: 'model_not_found' },
  ],
  modelKey: 'model',
  fields: [fields.model, fields.temperature, fields.maxTokens, fields.topP, fields.stop],
  defaults: { model: 'mixtral-8x7b-32768', topP: 0.95 },
  required: [requireKey, requireModel],
  // Not documented for Groq: the common 20 MB.
  maxFileBytes: 20 * 1024 * 1024,
  capabilities: groqCapabilities,
  api: {
    kind: 'chat-completions',
    host: 'https://api.groq.com',
    chatPath: '/openai/v1/chat/completions',
    modelsPath: '/openai/v1/models',
    auth: 'bearer',
    // Groq rejects properties it does not support: never penalties or an empty `stop`.
    sends: ['top_p', 'stop'],
  },
};
