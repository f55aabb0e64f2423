import type { Config, ProviderId } from './config.ts';

/** A setting the panel can show, in the order shown. */
export type ConfigField =
  | 'model'
  | 'endpoint'
  | 'deploymentName'
  | 'apiVersion'
  | 'topP'
  | 'topK'
  | 'frequencyPenalty'
  | 'presencePenalty'
  | 'stop';

export interface SliderBounds {
  min: number;
  max: number;
  step: number;
}

export interface ProviderInfo {
  id: ProviderId;
  /** Shown in toasts, the badge and the composer placeholder. */
  label: string;
  /** The spec's list first (so its defaults hold), then current ids. */
  models: readonly string[];
  fields: readonly ConfigField[];
  maxTokens: SliderBounds;
  /** The provider's defaults, keeping what a provider switch keeps. */
  defaults(kept: Pick<Config, 'apiKey' | 'temperature' | 'maxTokens'>): Config;
  /** Where the user gets a key: shown beside the key field. */
  keyHint: string;
}

export const sliderBounds = {
  temperature: { min: 0, max: 2, step: 0.01 },
  topP: { min: 0, max: 1, step: 0.01 },
  topK: { min: 1, max: 100, step: 1 },
  frequencyPenalty: { min: -2, max: 2, step: 0.01 },
  presencePenalty: { min: -2, max: 2, step: 0.01 },
} as const satisfies Record<string, SliderBounds>;

const maxTokens: SliderBounds = { min: 50, max: 8000, step: 10 };

function firstModel(models: readonly string[]): string {
  return models[0] ?? '';
}

const openaiModels = [
  'gpt-4-turbo-preview',
  'gpt-4',
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-16k',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o',
  'gpt-4o-mini',
];
const claudeModels = [
  'claude-3-opus-20240229',
  'claude-3-sonnet-20240229',
  'claude-3-haiku-20240307',
  'claude-2.1',
  'claude-2.0',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'claude-opus-4-1',
];
const geminiModels = [
  'gemini-pro',
  'gemini-pro-vision',
  'gemini-2.5-flash',
  'gemini-2.5-pro',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
];
const groqModels = [
  'mixtral-8x7b-32768',
  'llama2-70b-4096',
  'gemma-7b-it',
  'llama-3.3-70b-versatile',
  'llama-3.1-8b-instant',
  'openai/gpt-oss-120b',
  'openai/gpt-oss-20b',
];

export const providerCatalog: Record<ProviderId, ProviderInfo> = {
  azure: {
    id: 'azure',
    label: 'Azure OpenAI',
    models: [],
    fields: ['endpoint', 'deploymentName', 'apiVersion', 'topP', 'frequencyPenalty', 'presencePenalty'],
    maxTokens,
    defaults: (kept) => ({
      provider: 'azure',
      ...kept,
      endpoint: '',
      deploymentName: '',
      apiVersion: '2023-05-15',
      topP: 0.95,
      frequencyPenalty: 0,
      presencePenalty: 0,
    }),
    keyHint: 'Keys and Endpoint page of your Azure OpenAI resource',
  },
  openai: {
    id: 'openai',
    label: 'OpenAI',
    models: openaiModels,
    fields: ['model', 'topP', 'frequencyPenalty', 'presencePenalty'],
    maxTokens,
    defaults: (kept) => ({
      provider: 'openai',
      ...kept,
      model: firstModel(openaiModels),
      topP: 0.95,
      frequencyPenalty: 0,
      presencePenalty: 0,
    }),
    keyHint: 'platform.openai.com/api-keys',
  },
  claude: {
    id: 'claude',
    label: 'Claude',
    models: claudeModels,
    fields: ['model'],
    maxTokens: { min: 50, max: 4096, step: 10 },
    defaults: (kept) => ({ provider: 'claude', ...kept, model: firstModel(claudeModels), maxTokens: 4096 }),
    keyHint: 'console.anthropic.com/settings/keys',
  },
  gemini: {
    id: 'gemini',
    label: 'Gemini',
    models: geminiModels,
    fields: ['model', 'topP', 'topK', 'stop'],
    maxTokens,
    defaults: (kept) => ({
      provider: 'gemini',
      ...kept,
      model: firstModel(geminiModels),
      topP: 0.95,
      topK: 40,
    }),
    keyHint: 'aistudio.google.com/apikey',
  },
  groq: {
    id: 'groq',
    label: 'Groq',
    models: groqModels,
    fields: ['model', 'topP', 'stop'],
    maxTokens,
    defaults: (kept) => ({ provider: 'groq', ...kept, model: firstModel(groqModels), topP: 0.95 }),
    keyHint: 'console.groq.com/keys',
  },
};

export function providerLabel(id: ProviderId): string {
  return providerCatalog[id].label;
}

/** The configuration after the user picks another provider: its defaults, keeping key, temperature and max tokens. */
export function switchProvider(config: Config, provider: ProviderId): Config {
  const { apiKey, temperature, maxTokens } = config;
  return providerCatalog[provider].defaults({ apiKey, temperature, maxTokens });
}

/** Why a configuration cannot be used, or null when it can (DECISIONS: the final validity rule). */
export function configProblem(config: Config): string | null {
  const label = providerLabel(config.provider);
  if (!config.apiKey.trim()) return `${label}: API key is missing`;
  if (config.provider === 'azure') {
    if (!config.endpoint?.trim()) return `${label}: endpoint is missing`;
    if (!config.deploymentName?.trim()) return `${label}: deployment name is missing`;
    return null;
  }
  if (!config.model?.trim()) return `${label}: model is missing`;
  if (config.provider === 'claude' && !(config.maxTokens > 0)) return `${label}: max tokens is missing`;
  return null;
}
