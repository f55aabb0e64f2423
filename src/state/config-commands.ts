import type { Config } from '../domain/config.ts';
import { configProblem, providerCatalog, providerLabel } from '../domain/provider-catalog.ts';
import type { ChatProvider } from '../providers/types.ts';
import { saveConfig as storeConfig } from '../storage/local-settings.ts';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';

/** A cache key for the live model list: which provider and host and key it was fetched from. */
function modelListKey(config: Config): string {
  return [config.provider, config.baseUrl ?? '', config.endpoint ?? '', config.apiKey].join('|');
}

export type ConfigCommands = ReturnType<typeof createConfigCommands>;

/** The saved configuration and the chat service built from it (derived, never stored). */
export function createConfigCommands(ctx: ChatContext, sync: ConversationSync) {
  let built: { config: Config; service: ChatProvider | null } | null = null;

  /**
   * The chat service for the saved configuration: null when the configuration is invalid (logged
   * as a warning) or the provider could not be built (toast 'Failed to initialize AI service').
   * Built once per configuration.
   */
  function service(): ChatProvider | null {
    const { config } = ctx.get();
    if (built?.config !== config) built = { config, service: buildService(config) };
    return built.service;
  }

  function buildService(config: Config): ChatProvider | null {
    const problem = configProblem(config);
    if (problem) {
      console.warn(`Chat service not initialised: ${problem}`);
      return null;
    }
    try {
      return ctx.createProvider(config);
    } catch (error) {
      console.error('Failed to initialize AI service', error);
      ctx.notify.error('Failed to initialize AI service', error instanceof Error ? error.message : undefined);
      return null;
    }
  }

  /** Applies a configuration in memory (checked, service rebuilt) without saving it. */
  function applyConfig(config: Config): void {
    ctx.store.setState({ config, liveModels: null });
    service();
  }

  /** 'Save Configuration': persist, rebuild the service, tell other tabs. */
  function saveConfiguration(config: Config): void {
    applyConfig(config);
    if (sync.reportWrite(storeConfig(config))) ctx.tabSync.post({ type: 'config-saved' });
    ctx.notify.success('Configuration saved');
    void refreshLiveModels();
  }

  /** Fetches the provider's own model list for the saved configuration, once per configuration. */
  async function refreshLiveModels(): Promise<void> {
    const { config, liveModels } = ctx.get();
    const current = service();
    // Only a provider whose panel offers a model list needs one (Azure's model is its deployment).
    const offersModels = providerCatalog[config.provider].fields.some(({ kind }) => kind === 'model');
    if (!current || !offersModels) return;
    const key = modelListKey(config);
    if (liveModels?.forConfig === key) return;
    try {
      const models = await current.listModels(AbortSignal.timeout(15_000));
      if (modelListKey(ctx.get().config) === key)
        ctx.store.setState({ liveModels: { forConfig: key, models } });
    } catch (error) {
      console.warn(`Could not list ${providerLabel(config.provider)} models`, error);
    }
  }

  return { service, applyConfig, saveConfiguration, refreshLiveModels };
}
