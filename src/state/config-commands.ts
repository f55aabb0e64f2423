import type { Config } from '../domain/config.ts';
import { configProblem, providerLabel } from '../domain/provider-catalog.ts';
import { createChatProvider } from '../providers/registry.ts';
import type { ChatProvider } from '../providers/types.ts';
import { saveConfig as storeConfig } from '../storage/local-settings.ts';
import { getState, setState } from './chat-store.ts';
import { notify } from './notify.ts';
import { broadcast, reportWrite } from './persistence.ts';

/**
 * The chat service for a configuration: null when the configuration is invalid (logged as a
 * warning) or the provider could not be built (toast 'Failed to initialize AI service').
 */
export function buildService(config: Config): ChatProvider | null {
  const problem = configProblem(config);
  if (problem) {
    console.warn(`Chat service not initialised: ${problem}`);
    return null;
  }
  try {
    return createChatProvider(config);
  } catch (error) {
    console.error('Failed to initialize AI service', error);
    notify.error('Failed to initialize AI service', error instanceof Error ? error.message : undefined);
    return null;
  }
}

/** Applies a configuration in memory (checked, service rebuilt) without saving it. */
export function applyConfig(config: Config): void {
  setState({ config, service: buildService(config), liveModels: null });
}

/** 'Save Configuration': persist, rebuild the service, tell other tabs. */
export function saveConfiguration(config: Config): void {
  applyConfig(config);
  if (reportWrite(storeConfig(config))) broadcast({ type: 'config-saved' });
  notify.success('Configuration saved');
  void refreshLiveModels();
}

/** A cache key for the live model list: which provider and host and key it was fetched from. */
function modelListKey(config: Config): string {
  return [config.provider, config.baseUrl ?? '', config.endpoint ?? '', config.apiKey].join('|');
}

/** Fetches the provider's own model list for the saved configuration, once per configuration. */
export async function refreshLiveModels(): Promise<void> {
  const { service, config, liveModels } = getState();
  if (!service || config.provider === 'azure') return;
  const key = modelListKey(config);
  if (liveModels?.forConfig === key) return;
  try {
    const models = await service.listModels(AbortSignal.timeout(15_000));
    if (modelListKey(getState().config) === key) setState({ liveModels: { forConfig: key, models } });
  } catch (error) {
    console.warn(`Could not list ${providerLabel(config.provider)} models`, error);
  }
}
