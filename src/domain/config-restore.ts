import { defaultConfig, isProviderId, providerIds, type Config, type ProviderId } from './config.ts';
import { describeType, isRecord, ownField, type JsonRecord } from './json-guards.ts';
import { providerCatalog, providerDefaults } from './provider-catalog.ts';

const numberFields = [
  'temperature',
  'maxTokens',
  'topP',
  'frequencyPenalty',
  'presencePenalty',
  'topK',
] as const;
const stringFields = [
  'apiKey',
  'model',
  'endpoint',
  'deploymentName',
  'apiVersion',
  'baseUrl',
  'endpointId',
  'name',
] as const;

export type ConfigCheck =
  | {
      ok: true;
      config: Config;
      /** False when the data carried no apiKey: an import then keeps the current key (docs/decisions.md#key-left-out-of-exports). */
      hasKey: boolean;
    }
  | { ok: false; problem: string };

/** What a missing field falls back to: the default configuration, or the provider's defaults (docs/behaviour.md#configuration). */
function baseConfig(provider: ProviderId): Config {
  if (provider === defaultConfig.provider) return { ...defaultConfig };
  const { apiKey, temperature, maxTokens } = defaultConfig;
  return providerDefaults(provider, { apiKey, temperature, maxTokens });
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * The provider, with the legacy rule: a configuration saved before providers existed has none, and
 * is azure when it has an endpoint and a deployment; otherwise it gets the default provider.
 */
function readProvider(record: JsonRecord): ProviderId | null {
  const provider = ownField(record, 'provider');
  if (provider === undefined || provider === null) {
    const legacyAzure =
      isNonEmptyString(ownField(record, 'endpoint')) && isNonEmptyString(ownField(record, 'deploymentName'));
    return legacyAzure ? 'azure' : defaultConfig.provider;
  }
  return isProviderId(provider) ? provider : null;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Copies known fields of the right type over the defaults; `strict` turns a wrong type into a problem. */
function readConfig(value: unknown, strict: boolean, path: string): ConfigCheck {
  if (!isRecord(value))
    return { ok: false, problem: `${path} must be an object (found ${describeType(value)})` };
  const provider = readProvider(value);
  if (provider === null) {
    return { ok: false, problem: `${path}.provider must be one of ${providerIds.join(', ')}` };
  }
  const config = baseConfig(provider);
  for (const field of numberFields) {
    const raw = ownField(value, field);
    if (raw === undefined) continue;
    if (typeof raw === 'number' && Number.isFinite(raw)) config[field] = raw;
    else if (strict)
      return { ok: false, problem: `${path}.${field} must be a number (found ${describeType(raw)})` };
  }
  for (const field of stringFields) {
    const raw = ownField(value, field);
    if (raw === undefined) continue;
    if (typeof raw === 'string') config[field] = raw;
    else if (strict)
      return { ok: false, problem: `${path}.${field} must be a string (found ${describeType(raw)})` };
  }
  const stop = ownField(value, 'stop');
  if (isStringList(stop)) config.stop = [...stop];
  else if (stop !== undefined && strict)
    return { ok: false, problem: `${path}.stop must be a list of strings` };
  // Only an endpoint has an id and a name of its own; a file cannot rename a provider.
  if (providerCatalog[provider].multipleConnections) config.endpointId ||= 'default';
  else {
    delete config.endpointId;
    delete config.name;
  }
  return { ok: true, config, hasKey: typeof ownField(value, 'apiKey') === 'string' };
}

/**
 * The saved configuration, restored leniently: missing or mistyped fields get the defaults, unknown
 * fields are dropped. Null when it is not an object or names an unknown provider.
 */
export function restoreConfig(value: unknown): Config | null {
  const check = readConfig(value, false, 'config');
  return check.ok ? check.config : null;
}

/** The strict check for an imported configuration: a known provider and fields of the right types. */
export function validateConfigShape(value: unknown, path = 'config'): ConfigCheck {
  return readConfig(value, true, path);
}
