import { withoutTrailingSlashes } from '../lib/trailing-slashes.ts';
import type { Config, ProviderId } from './config.ts';
import { azure } from './provider-definitions/azure.ts';
import { claude } from './provider-definitions/claude.ts';
import { custom } from './provider-definitions/custom.ts';
import { device } from './provider-definitions/device.ts';
import type { ModelCapabilities } from './provider-definitions/capabilities.ts';
import type { ProviderDefinition, RequiredKey, SettingField } from './provider-definitions/definition.ts';
import { gemini } from './provider-definitions/gemini.ts';
import { groq } from './provider-definitions/groq.ts';
import { openai } from './provider-definitions/openai.ts';

export type { SettingField };

/**
 * Every provider, in the order the app offers them: the one place that lists them. A provider is
 * its definition file (provider-definitions/<id>.ts) and its line here; its id (`ProviderId`,
 * `providerIds` in config.ts), label and catalog entry come from that.
 */
export const providerDefinitions = [azure, openai, claude, gemini, groq, device, custom] as const;

/** Every provider, by id. */
export const providerCatalog = Object.fromEntries(
  providerDefinitions.map((definition) => [definition.id, definition]),
) as Readonly<Record<ProviderId, ProviderDefinition>>;

/**
 * Whether this browser can offer the provider: one that runs on a browser global (the built-in
 * model) only where that global exists. A stored configuration naming it loads all the same.
 */
export function isOffered(provider: ProviderId, scope: object = globalThis): boolean {
  const needed = providerCatalog[provider].browserGlobal;
  return needed === undefined || needed in scope;
}

/** Whether the provider's panel has a key field: not for a model that runs in the browser. */
export function takesKey(provider: ProviderId): boolean {
  return providerCatalog[provider].browserGlobal === undefined;
}

function providerLabel(id: ProviderId): string {
  return providerCatalog[id].label;
}

/** What a connection is called: an endpoint's own name, else its provider's label. */
export function connectionLabel(config: Pick<Config, 'provider' | 'name'>): string {
  return config.name?.trim() || providerLabel(config.provider);
}

/**
 * A provider's defaults, keeping the given key, temperature and max tokens unless its defaults set
 * them. A provider without a key keeps none: another provider's key must not be stored with it.
 */
export function providerDefaults(
  provider: ProviderId,
  kept: Pick<Config, 'apiKey' | 'temperature' | 'maxTokens'>,
): Config {
  const apiKey = takesKey(provider) ? kept.apiKey : '';
  return { provider, ...kept, apiKey, ...providerCatalog[provider].defaults };
}

/** What a remembered connection brings back when the panel switches to its provider. */
const rememberedFields = ['apiKey', 'model', 'endpoint', 'deploymentName', 'apiVersion', 'baseUrl'] as const;

/**
 * The configuration after the user picks another provider: its defaults, keeping key, temperature
 * and max tokens; with that provider's remembered connection, its key, model, endpoint and base URL instead.
 */
export function switchProvider(config: Config, provider: ProviderId, remembered?: Config): Config {
  const { apiKey, temperature, maxTokens } = config;
  const next = providerDefaults(provider, { apiKey, temperature, maxTokens });
  if (remembered?.provider !== provider) return next;
  for (const field of rememberedFields) {
    if (field === 'apiKey' && !takesKey(provider)) continue;
    const value = remembered[field];
    if (value !== undefined && value !== '') Object.assign(next, { [field]: value });
  }
  return next;
}

/** The provider that connections are added to one by one (OpenAI-compatible endpoints). */
const endpointProvider =
  providerDefinitions.find((definition) => definition.multipleConnections)?.id ?? 'custom';

/** A new OpenAI-compatible endpoint, not yet named, keeping temperature and max tokens. */
export function newEndpoint(endpointId: string, { temperature, maxTokens }: Config): Config {
  return { ...providerDefaults(endpointProvider, { apiKey: '', temperature, maxTokens }), endpointId };
}

/** The model a configuration sends to: its model, or for Azure its deployment. */
export function modelOf(config: Config): string {
  return config[providerCatalog[config.provider].modelKey] ?? '';
}

/** The configuration with another model (for Azure, another deployment). */
export function withModel(config: Config, model: string): Config {
  return { ...config, [providerCatalog[config.provider].modelKey]: model };
}

/** The address a configuration calls: its base URL, the provider's public host, or Azure's endpoint. */
export function connectionUrl(config: Config): string {
  const { host } = providerCatalog[config.provider].api;
  // Slashes matched from the first of a run only (the lookbehind): quadratic on a long run otherwise.
  return withoutTrailingSlashes(config.baseUrl?.trim() || host || config.endpoint?.trim() || '');
}

/**
 * What the configuration's model can do: its provider's table, overruled by what the provider's
 * own model list reported for it, where it did.
 */
export function capabilitiesOf(config: Config, reported: Partial<ModelCapabilities> = {}): ModelCapabilities {
  return {
    ...providerCatalog[config.provider].capabilities(modelOf(config).replace(/^models\//, '')),
    ...reported,
  };
}

function isPresent(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  return typeof value === 'number' && value > 0;
}

/**
 * Why a configuration cannot be used, or null when it can (docs/behaviour.md#validity).
 * `ignoring`: settings a caller does without (listing models needs no model).
 */
export function configProblem(config: Config, ignoring: readonly RequiredKey[] = []): string | null {
  const missing = providerCatalog[config.provider].required.find(
    ({ key }) => !ignoring.includes(key) && !isPresent(config[key]),
  );
  return missing ? `${connectionLabel(config)}: ${missing.name} is missing` : null;
}

/**
 * Why 'Save Configuration' refuses a configuration, or null. Only a provider without a built-in
 * model list (an OpenAI-compatible server) is refused for want of a model: the others have their
 * default models (docs/behaviour.md#switching-provider).
 */
export function saveProblem(config: Config): string | null {
  const { models, modelKey } = providerCatalog[config.provider];
  if (models.length > 0 || modelKey !== 'model' || isPresent(config.model)) return null;
  return "Not saved: choose a model. Test connection lists the server's models, or type a model id.";
}

/** The provider whose key this looks like, where keys have a recognisable shape. */
export function keyOwner(apiKey: string): ProviderId | undefined {
  const key = apiKey.trim();
  return providerDefinitions.find((definition) => definition.keyShape?.test(key))?.id;
}

/** 'This looks like an OpenAI key': the key has another provider's shape than the configuration's. */
export function foreignKeyWarning(config: Pick<Config, 'provider' | 'apiKey'>): string | null {
  const owner = keyOwner(config.apiKey);
  if (!owner || owner === config.provider) return null;
  const label = providerLabel(owner);
  return `This looks like ${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label} key`;
}
