/** The configuration the user saves: one provider, its key, model and sampling settings. */

export const providerIds = ['azure', 'openai', 'claude', 'gemini', 'groq'] as const;
export type ProviderId = (typeof providerIds)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (providerIds as readonly string[]).includes(value);
}

export interface Config {
  provider: ProviderId;
  apiKey: string;
  /** Every provider but azure, whose model is its deployment. */
  model?: string;
  temperature: number;
  maxTokens: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** gemini only. */
  topK?: number;
  /** Stop sequences, sent by groq and gemini. */
  stop?: string[];
  /** azure only: https://{resource}.openai.azure.com */
  endpoint?: string;
  deploymentName?: string;
  apiVersion?: string;
  /** Advanced: replaces the provider's public host, for a proxy, a compatible server or a mock. */
  baseUrl?: string;
}

export const defaultConfig: Config = {
  provider: 'openai',
  apiKey: '',
  model: 'gpt-3.5-turbo',
  temperature: 0.7,
  maxTokens: 800,
  topP: 0.95,
  frequencyPenalty: 0,
  presencePenalty: 0,
};
