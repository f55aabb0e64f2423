import { capabilityTable, withProviderTool, type ModelCapabilities } from './capabilities.ts';
import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

/** Extended thinking with a token budget (3.7 to 4.5); the efforts map to shares of max tokens. */
const budgetThinking: Partial<ModelCapabilities> = {
  reasoning: true,
  thinking: 'budget',
  efforts: ['off', 'low', 'medium', 'high'],
};
/** Adaptive thinking, steered by `output_config.effort` (4.6 on). */
const adaptiveThinking: Partial<ModelCapabilities> = {
  reasoning: true,
  thinking: 'adaptive',
  efforts: ['off', 'low', 'medium', 'high', 'max'],
};
/** Models released after Opus 4.6 take temperature only at 1 and top_p only at 0.99 or more: send neither. */
const fixedSampling: Partial<ModelCapabilities> = {
  ...adaptiveThinking,
  efforts: ['off', 'low', 'medium', 'high', 'xhigh', 'max'],
  rejects: ['temperature', 'topP', 'topK'],
  rejectsBecause: 'fixed sampling on this model',
};

/** Anthropic's /v1/models reports limits per key; this table covers the rest (docs/providers.md#anthropic-thinking). */
const claudeTable = capabilityTable({ images: true, pdfs: true, contextWindow: 200_000 }, [
  // Fable 5 and Mythos 5 always think: 'disabled' is a 400 (docs/providers.md#anthropic-thinking).
  {
    match: /^claude-(fable|mythos)/,
    capabilities: {
      ...fixedSampling,
      efforts: ['low', 'medium', 'high', 'xhigh', 'max'],
      maxOutput: 128_000,
    },
  },
  {
    match: /^claude-(opus-4-[7-9]|opus-5|sonnet-5)/,
    capabilities: { ...fixedSampling, maxOutput: 128_000 },
  },
  { match: /^claude-(opus|sonnet)-4-6/, capabilities: { ...adaptiveThinking, maxOutput: 128_000 } },
  {
    match: /^claude-(sonnet-4|haiku-4|opus-4-5|3-7-sonnet)/,
    capabilities: { ...budgetThinking, maxOutput: 64_000 },
  },
  { match: /^claude-opus-4/, capabilities: { ...budgetThinking, maxOutput: 32_000 } },
  { match: /^claude-3-5/, capabilities: { maxOutput: 8192 } },
  { match: /^claude-3-/, capabilities: { pdfs: false, maxOutput: 4096 } },
  // Tool use came with Claude 3.
  { match: /^claude-2/, capabilities: { images: false, pdfs: false, maxOutput: 4096, tools: false } },
]);

/**
 * Models the `web_search` server tool works with (Anthropic's web search tool page): Fable 5 and
 * Mythos 5 (their point releases and preview), Opus 5 and 4.5 to 4.8, Sonnet 5 and 4.5 to 4.6,
 * Haiku 5.5 and 4.5; ids with or without their date. Not Opus 4.1 and older. The code execution
 * tool works with these too (it also did with some older models, not offered).
 */
const searchesTheWeb =
  /^claude-(fable-5|mythos-(5|preview)|opus-(5|4-[5-8])|sonnet-(5|4-[56])|haiku-(5-5|4-5))(-|$)/;

const claudeCapabilities = withProviderTool(
  withProviderTool(claudeTable, 'webSearch', searchesTheWeb),
  'codeExecution',
  searchesTheWeb,
);

export const claude: ProviderDefinition<'claude'> = {
  id: 'claude',
  label: 'Claude',
  keyHint: 'console.anthropic.com/settings/keys',
  keyShape: /^sk-ant-/,
  // Current models first, the recommended one on top; then the original and other retired ids
  // (their days: claude-retirements.ts).
  models: [
    // Anthropic's named replacement for the retired Sonnet 4.
    'claude-sonnet-4-6',
    'claude-opus-4-8',
    'claude-sonnet-5',
    'claude-opus-5',
    'claude-haiku-4-5',
    'claude-sonnet-4-5',
    'claude-opus-4-6',
    'claude-opus-4-1',
    // The original list (docs/behaviour.md#built-in-model-lists), all retired since.
    'claude-3-opus-20240229',
    'claude-3-sonnet-20240229',
    'claude-3-haiku-20240307',
    'claude-2.1',
    'claude-2.0',
  ],
  // Retired and unknown models alike: 404 not_found_error "model: claude-sonnet-4-20250514".
  modelGone: [{ status: 404, type: 'not_found_error' }],
  modelKey: 'model',
  fields: [
    fields.model,
    fields.temperature,
    { ...fields.maxTokens, bounds: { ...fields.maxTokens.bounds, max: 4096 } },
  ],
  defaults: { model: 'claude-3-opus-20240229', maxTokens: 4096 },
  required: [requireKey, requireModel, { key: 'maxTokens', name: 'max tokens' }],
  corsAdvice:
    'Browser (CORS) access may be disabled for your organization in the Anthropic Console settings, or a proxy dropped the anthropic-dangerous-direct-browser-access header.',
  // Anthropic: a whole request is at most 32 MB.
  maxFileBytes: 32 * 1024 * 1024,
  capabilities: claudeCapabilities,
  api: { kind: 'anthropic-messages', host: 'https://api.anthropic.com' },
};
