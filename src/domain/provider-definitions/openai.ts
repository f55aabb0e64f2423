import { capabilityTable, withProviderTool, type ModelCapabilities } from './capabilities.ts';
import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

/** o-series and gpt-5 family: `max_completion_tokens`, and no temperature, top_p or penalties. */
const reasoningModel: Partial<ModelCapabilities> = {
  reasoning: true,
  thinking: 'effort',
  efforts: ['low', 'medium', 'high'],
  rejects: ['temperature', 'topP', 'frequencyPenalty', 'presencePenalty'],
  rejectsBecause: 'reasoning model',
  tokenLimitField: 'max_completion_tokens',
};

const gpt5: Partial<ModelCapabilities> = { ...reasoningModel, contextWindow: 400_000, maxOutput: 128_000 };

/** OpenAI lists no capabilities: this table is from its model pages (docs/providers.md#openai-reasoning-models). */
const openaiTable = capabilityTable({ images: true, pdfs: true }, [
  // gpt-5-chat-latest and the like: the chat variants without a minor version do not reason, nor take tools.
  { match: /^gpt-\d+-chat/, capabilities: { contextWindow: 128_000, maxOutput: 16_384, tools: false } },
  // Efforts per model (docs/providers.md#openai-reasoning-models); 'off' is OpenAI's 'none'.
  { match: /^gpt-\d+(\.\d+)?-pro/, capabilities: { ...gpt5, efforts: ['medium', 'high', 'xhigh'] } },
  { match: /^gpt-\d+(\.\d+)?-codex/, capabilities: { ...gpt5, efforts: ['low', 'medium', 'high', 'xhigh'] } },
  { match: /^gpt-5(-|$)/, capabilities: { ...gpt5, efforts: ['minimal', 'low', 'medium', 'high'] } },
  { match: /^gpt-5\.1/, capabilities: { ...gpt5, efforts: ['off', 'low', 'medium', 'high'] } },
  { match: /^gpt-5\.[2-5]/, capabilities: { ...gpt5, efforts: ['off', 'low', 'medium', 'high', 'xhigh'] } },
  {
    match: /^gpt-([5-9]|[1-9]\d)/,
    capabilities: { ...gpt5, efforts: ['off', 'low', 'medium', 'high', 'xhigh', 'max'] },
  },
  {
    match: /^o\d-mini$/,
    capabilities: {
      ...reasoningModel,
      images: false,
      pdfs: false,
      contextWindow: 200_000,
      maxOutput: 100_000,
    },
  },
  { match: /^o\d/, capabilities: { ...reasoningModel, contextWindow: 200_000, maxOutput: 100_000 } },
  { match: /^gpt-4\.1/, capabilities: { contextWindow: 1_047_576, maxOutput: 32_768 } },
  { match: /^chatgpt-4o/, capabilities: { contextWindow: 128_000, maxOutput: 16_384, tools: false } },
  { match: /^gpt-4o/, capabilities: { contextWindow: 128_000, maxOutput: 16_384 } },
  {
    match: /^gpt-4-turbo-preview|^gpt-4-\d{4}-preview/,
    capabilities: { images: false, pdfs: false, contextWindow: 128_000, maxOutput: 4096 },
  },
  { match: /^gpt-4-turbo/, capabilities: { contextWindow: 128_000, maxOutput: 4096 } },
  {
    match: /^gpt-4(-\d{4})?$/,
    capabilities: { images: false, pdfs: false, contextWindow: 8192, maxOutput: 8192 },
  },
  {
    match: /^gpt-3\.5-turbo/,
    capabilities: { images: false, pdfs: false, contextWindow: 16_385, maxOutput: 4096 },
  },
]);

/**
 * Models that take the Responses `web_search` tool (platform.openai.com/docs/guides/tools-web-search):
 * gpt-5 and later (not the chat-only or search-preview variants), gpt-4.1 and gpt-4.1-mini (not
 * nano, which the guide excludes), gpt-4o and gpt-4o-mini, o3 and o4-mini, each also dated. The
 * same models take `code_interpreter` and `image_generation`.
 */
const searchesTheWeb =
  /^(gpt-([5-9]|\d{2})(?!.*(-chat|search|audio|realtime|transcribe|tts|image))|((gpt-4\.1|gpt-4o)(-mini)?|o3|o4-mini)(-\d{4}-\d{2}-\d{2})?$)/;

export const openaiCapabilities = withProviderTool(
  withProviderTool(
    withProviderTool(openaiTable, 'webSearch', searchesTheWeb),
    'codeExecution',
    searchesTheWeb,
  ),
  'imageOutput',
  searchesTheWeb,
);

export const openai: ProviderDefinition<'openai'> = {
  id: 'openai',
  label: 'OpenAI',
  keyHint: 'platform.openai.com/api-keys',
  // sk-… and sk-proj-…; not Anthropic's sk-ant- nor OpenRouter's sk-or-.
  keyShape: /^sk-(?!ant-|or-)/,
  // Current models first, the recommended one on top; then the original and other retired ids
  // (their days: openai-retirements.ts).
  models: [
    'gpt-5.5',
    'gpt-5.4',
    'gpt-5.4-mini',
    'gpt-5.1',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-5-mini',
    'o3',
    // The original list (docs/behaviour.md#built-in-model-lists), and ids retired since.
    'gpt-4-turbo-preview',
    'gpt-4',
    'gpt-3.5-turbo',
    'gpt-3.5-turbo-16k',
    'o4-mini',
  ],
  // A shut-down model: 404 "The model `gpt-3.5-turbo-1106` has been deprecated…", code model_not_found.
  modelGone: [{ status: 404, code: 'model_not_found' }],
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
  // OpenAI: at most 50 MB of images per request.
  maxFileBytes: 50 * 1024 * 1024,
  capabilities: openaiCapabilities,
  api: {
    kind: 'chat-completions',
    host: 'https://api.openai.com',
    chatPath: '/v1/chat/completions',
    responsesPath: '/v1/responses',
    modelsPath: '/v1/models',
    auth: 'bearer',
    sends: ['top_p', 'frequency_penalty', 'presence_penalty', 'stream_options'],
    hiddenModels: /embedding|whisper|tts|dall-e|moderation|transcribe|realtime|^gpt-image|^davinci|^babbage/,
  },
};
