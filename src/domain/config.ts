/** The configuration the user saves: one provider, its key, model and sampling settings. */

import { providerDefinitions } from './provider-catalog.ts';

/**
 * The five built-in providers, then any OpenAI-compatible endpoint the user adds (Ollama, LM Studio,
 * a proxy): the ids of the definitions provider-catalog.ts lists.
 */
export type ProviderId = (typeof providerDefinitions)[number]['id'];
export const providerIds: readonly ProviderId[] = providerDefinitions.map(({ id }) => id);

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
  /** For a provider with any number of connections (custom): which one, and the name it is shown by. */
  endpointId?: string;
  name?: string;
}

/**
 * What names a connection: its provider, and for a provider with any number of them (OpenAI-compatible
 * endpoints) the endpoint's id after a colon.
 */
export function connectionIdOf(config: Pick<Config, 'provider' | 'endpointId'>): string {
  return config.endpointId ? `${config.provider}:${config.endpointId}` : config.provider;
}

/** Each connection's last saved configuration, by connection id. */
export type Connections = Record<string, Config>;

/** Each connection's key, by connection id: the saved configuration's and the remembered ones'. */
export function keysOf(config: Config, connections: Connections): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const connection of [...Object.values(connections), config])
    if (connection.apiKey) keys[connectionIdOf(connection)] = connection.apiKey;
  return keys;
}

/** A configuration with its connection's key from `keys` ('' when they hold none). */
export function withKeyFrom(config: Config, keys: Readonly<Record<string, string>>): Config {
  return {
    ...config,
    apiKey: Object.hasOwn(keys, connectionIdOf(config)) ? (keys[connectionIdOf(config)] ?? '') : '',
  };
}

/** The connections with their keys from `keys`. */
export function connectionsWithKeys(
  connections: Connections,
  keys: Readonly<Record<string, string>>,
): Connections {
  return Object.fromEntries(
    Object.entries(connections).map(([id, config]) => [id, withKeyFrom(config, keys)]),
  );
}

/**
 * What one request may change without a new connection: the model (for Azure its deployment) and
 * how it samples. The rest of a configuration identifies the connection: provider, key, host.
 */
export type RequestSettings = Pick<
  Config,
  | 'model'
  | 'deploymentName'
  | 'temperature'
  | 'maxTokens'
  | 'topP'
  | 'topK'
  | 'frequencyPenalty'
  | 'presencePenalty'
  | 'stop'
>;

const requestSettingKeys: ReadonlySet<string> = new Set<keyof RequestSettings>([
  'model',
  'deploymentName',
  'temperature',
  'maxTokens',
  'topP',
  'topK',
  'frequencyPenalty',
  'presencePenalty',
  'stop',
]);

/**
 * A configuration as its connection (what identifies it, with the required temperature and max
 * tokens) and its request settings; `key` names the connection alone.
 */
export function splitConfig(config: Config): {
  connection: Config;
  settings: Partial<RequestSettings>;
  key: string;
} {
  const fields = Object.entries(config).filter(([, value]) => value !== undefined);
  const identity = Object.fromEntries(fields.filter(([key]) => !requestSettingKeys.has(key)));
  const settings = Object.fromEntries(fields.filter(([key]) => requestSettingKeys.has(key)));
  const { temperature, maxTokens } = config;
  return {
    connection: { ...identity, provider: config.provider, apiKey: config.apiKey, temperature, maxTokens },
    settings,
    key: JSON.stringify(identity),
  };
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
