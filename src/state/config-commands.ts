import { connectionIdOf, splitConfig, type Config, type Connections } from '../domain/config.ts';
import type { ModelPin } from '../domain/conversation.ts';
import {
  configProblem,
  connectionLabel,
  foreignKeyWarning,
  newEndpoint,
  providerCatalog,
  saveProblem,
} from '../domain/provider-catalog.ts';
import type { ChatProvider } from '../providers/types.ts';
import type { Theme } from '../storage/local-settings.ts';
import type { ChatContext } from './chat-context.ts';
import { connectionOf, modelListKey, targetConfig } from './chat-store.ts';
import type { ConnectionCheck } from './connection-test.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { KeyLock } from './key-lock.ts';

/** What a reply is asked with: the configuration it follows, and the service for its connection (null when it cannot be used). */
export interface ReplyTarget {
  config: Config;
  service: ChatProvider | null;
}

export interface SettingsCommands {
  /**
   * 'Save Configuration': persist, remember it as its provider's connection, rebuild the service,
   * tell other tabs. Returns why it refused instead (a held key, an endpoint without a model).
   */
  saveConfiguration(config: Config): string | null;
  /**
   * 'Test connection' for a configuration as drafted (not saved); loaded on first use. The models
   * it lists become the drafted connection's live list.
   */
  checkConnection(config: Config): Promise<ConnectionCheck>;
  /**
   * 'This looks like an OpenAI key' while a key of another provider's shape is drafted for this
   * connection; null once the user chose to send it anyway, or when it is the connection's saved key.
   */
  keyWarning(config: Config): string | null;
  /** 'Use it anyway': the drafted key may go to its connection's provider. */
  confirmKey(config: Config): void;
  /** 'Remove endpoint': forgets a connection (never the saved configuration's). */
  forgetConnection(connectionId: string): void;
  /** A draft for 'Add OpenAI-compatible endpoint…', with a new id. */
  newEndpointDraft(draft: Config): Config;
  /**
   * Fetches a provider's own model list with its connection (the saved configuration's provider by
   * default), once per connection. Only a provider that names its model needs one (Azure's model
   * is its deployment).
   */
  refreshModelList(connectionId?: string): Promise<void>;
  setTheme(theme: Theme): void;
  /** 'Automatic titles': after the first reply, the model names the conversation. */
  setAutoTitle(on: boolean): void;
}

/** The configuration as the other command modules use it; `commands` is what the UI may call. */
export interface ConfigService {
  commands: SettingsCommands;
  /** The service for the saved configuration. */
  service(): ChatProvider | null;
  /** What a conversation's next reply uses: its pin, a one-off choice, or the saved configuration. */
  targetFor(conversationId: string, override?: ModelPin): ReplyTarget;
  /** Applies a configuration in memory (checked, service rebuilt) without saving it. */
  applyConfig(config: Config): void;
  applyConnections(connections: Connections): void;
  /** Replaces the remembered connections, in memory and stored; false when storing failed. */
  replaceConnections(connections: Connections): boolean;
  /** Stores the saved configuration (without its key while keys are protected); false when storing failed. */
  writeConfig(config: Config): boolean;
}

/** The saved configuration, each provider's remembered connection, and the services built from them (derived, never stored). */
export function createConfigCommands({
  ctx,
  sync,
  keyLock,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  keyLock: KeyLock;
}): ConfigService {
  /** One service per connection: a conversation that changes its model reuses it. */
  const services = new Map<string, ChatProvider | null>();
  /** Model lists in flight or fetched: each connection's list is asked for once. */
  const listing = new Set<string>();

  /**
   * The chat service for a configuration's connection: null when the configuration is invalid
   * (logged as a warning) or the provider could not be built (toast 'Failed to initialize AI
   * service'). Built once per connection.
   */
  function serviceFor(config: Config): ChatProvider | null {
    const problem = configProblem(config);
    if (problem) {
      console.warn(`Chat service not initialised: ${problem}`);
      return null;
    }
    const { connection, key } = splitConfig(config);
    if (!services.has(key)) services.set(key, buildService(connection));
    return services.get(key) ?? null;
  }

  function buildService(connection: Config): ChatProvider | null {
    try {
      return ctx.createProvider(connection);
    } catch (error) {
      console.error('Failed to initialize AI service', error);
      ctx.notify.error('Failed to initialize AI service', error instanceof Error ? error.message : undefined);
      return null;
    }
  }

  function service(): ChatProvider | null {
    return serviceFor(ctx.get().config);
  }

  function targetFor(conversationId: string, override?: ModelPin): ReplyTarget {
    const config = targetConfig(ctx.get(), conversationId, override);
    return { config, service: serviceFor(config) };
  }

  function applyConfig(config: Config): void {
    ctx.store.setState({ config });
    service();
  }

  function applyConnections(connections: Connections): void {
    ctx.store.setState({ connections });
  }

  function replaceConnections(connections: Connections): boolean {
    applyConnections(connections);
    const stored = sync.reportWrite(ctx.settings.saveConnections(keyLock.storableConnections(connections)));
    // With keys protected, they go to the vault rather than the connections.
    void keyLock.reseal();
    return stored;
  }

  function writeConfig(config: Config): boolean {
    return sync.reportWrite(ctx.settings.saveConfig(keyLock.storable(config)));
  }

  /** Keeps a configuration as its provider's connection (its key is then remembered), in memory and stored. */
  function remember(config: Config): boolean {
    return replaceConnections({ ...ctx.get().connections, [connectionIdOf(config)]: config });
  }

  function forgetConnection(connectionId: string): void {
    if (connectionIdOf(ctx.get().config) === connectionId) return;
    const connections = Object.fromEntries(
      Object.entries(ctx.get().connections).filter(([id]) => id !== connectionId),
    );
    replaceConnections(connections);
  }

  function newEndpointDraft(draft: Config): Config {
    return newEndpoint(ctx.newId(), draft);
  }

  /** Names a key and the connection it would go to. */
  function keyConfirmation(config: Config): string {
    return `${connectionIdOf(config)}|${config.apiKey.trim()}`;
  }

  function keyWarning(config: Config): string | null {
    const warning = foreignKeyWarning(config);
    if (!warning) return null;
    const state = ctx.get();
    if (connectionOf(state, connectionIdOf(config))?.apiKey.trim() === config.apiKey.trim()) return null;
    return state.confirmedKeys.includes(keyConfirmation(config)) ? null : warning;
  }

  function confirmKey(config: Config): void {
    ctx.store.setState((state) => ({ confirmedKeys: [...state.confirmedKeys, keyConfirmation(config)] }));
  }

  /** Why a key is held back from its provider: sent nowhere until confirmed or replaced. */
  function heldKeyReason(config: Config): string | null {
    const warning = keyWarning(config);
    return warning
      ? `${warning}: it was not sent to ${connectionLabel(config)}. Replace it, or choose Use it anyway.`
      : null;
  }

  function saveConfiguration(config: Config): string | null {
    const refusal = heldKeyReason(config) ?? saveProblem(config);
    if (refusal) return refusal;
    applyConfig(config);
    const saved = writeConfig(config);
    if (remember(config) && saved) ctx.tabSync.post({ type: 'config-saved' });
    ctx.notify.success('Configuration saved');
    void refreshModelList();
    return null;
  }

  async function refreshModelList(connectionId = connectionIdOf(ctx.get().config)): Promise<void> {
    const connection = connectionOf(ctx.get(), connectionId);
    // Azure's model is its deployment; the browser's model has no field but lists its one model
    // with its context window and whether it takes images.
    const offersModels = connection && providerCatalog[connection.provider].modelKey === 'model';
    if (!connection || !offersModels || configProblem(connection)) return;
    const key = modelListKey(connection);
    const current = serviceFor(connection);
    if (!current || listing.has(key)) return;
    listing.add(key);
    try {
      const models = await current.listModels(AbortSignal.timeout(15_000));
      ctx.store.setState((state) => ({ modelLists: { ...state.modelLists, [key]: models } }));
    } catch (error) {
      // Asked again the next time: the failure may have been passing.
      listing.delete(key);
      console.warn(`Could not list ${connectionLabel(connection)} models`, error);
    }
  }

  async function checkConnection(config: Config): Promise<ConnectionCheck> {
    const held = heldKeyReason(config);
    if (held) return { ok: false, message: held };
    const { testConnection } = await import('./connection-test.ts');
    const check = await testConnection(
      config,
      ctx.createProvider,
      globalThis.location?.href ?? 'http://localhost/',
    );
    const { models } = check;
    if (models)
      ctx.store.setState((state) => ({
        modelLists: { ...state.modelLists, [modelListKey(config)]: models },
      }));
    return check;
  }

  return {
    commands: {
      saveConfiguration,
      checkConnection,
      keyWarning,
      confirmKey,
      forgetConnection,
      newEndpointDraft,
      refreshModelList,
      setTheme(theme) {
        ctx.store.setState({ theme });
        ctx.settings.saveTheme(theme);
      },
      setAutoTitle(autoTitle) {
        ctx.store.setState({ autoTitle });
        ctx.settings.saveAutoTitle(autoTitle);
      },
    },
    service,
    targetFor,
    applyConfig,
    applyConnections,
    replaceConnections,
    writeConfig,
  };
}
