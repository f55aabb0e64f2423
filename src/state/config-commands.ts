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
import { saveConfig as storeConfig, saveConnections as storeConnections } from '../storage/local-settings.ts';
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

export type ConfigCommands = ReturnType<typeof createConfigCommands>;

/** The saved configuration, each provider's remembered connection, and the services built from them (derived, never stored). */
export function createConfigCommands(ctx: ChatContext, sync: ConversationSync, keyLock: KeyLock) {
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

  /** The service for the saved configuration (the spec's chat service). */
  function service(): ChatProvider | null {
    return serviceFor(ctx.get().config);
  }

  /** What a conversation's next reply uses: its pin, a one-off choice, or the saved configuration. */
  function targetFor(conversationId: string, override?: ModelPin): ReplyTarget {
    const config = targetConfig(ctx.get(), conversationId, override);
    return { config, service: serviceFor(config) };
  }

  /** Applies a configuration in memory (checked, service rebuilt) without saving it. */
  function applyConfig(config: Config): void {
    ctx.store.setState({ config });
    service();
  }

  function applyConnections(connections: Connections): void {
    ctx.store.setState({ connections });
  }

  /** Replaces the remembered connections, in memory and stored; false when storing failed. */
  function replaceConnections(connections: Connections): boolean {
    applyConnections(connections);
    const stored = sync.reportWrite(storeConnections(keyLock.storableConnections(connections)));
    // With keys protected, they go to the vault rather than the connections.
    void keyLock.reseal();
    return stored;
  }

  /** Stores the saved configuration (without its key while keys are protected); false when storing failed. */
  function writeConfig(config: Config): boolean {
    return sync.reportWrite(storeConfig(keyLock.storable(config)));
  }

  /** Keeps a configuration as its provider's connection (its key is then remembered), in memory and stored. */
  function remember(config: Config): boolean {
    return replaceConnections({ ...ctx.get().connections, [connectionIdOf(config)]: config });
  }

  /** 'Remove endpoint': forgets a connection (never the saved configuration's). */
  function forgetConnection(connectionId: string): void {
    if (connectionIdOf(ctx.get().config) === connectionId) return;
    const connections = Object.fromEntries(
      Object.entries(ctx.get().connections).filter(([id]) => id !== connectionId),
    );
    replaceConnections(connections);
  }

  /** A draft for 'Add OpenAI-compatible endpoint…', with a new id. */
  function newEndpointDraft(draft: Config): Config {
    return newEndpoint(ctx.newId(), draft);
  }

  /** Names a key and the connection it would go to. */
  function keyConfirmation(config: Config): string {
    return `${connectionIdOf(config)}|${config.apiKey.trim()}`;
  }

  /**
   * 'This looks like an OpenAI key' while a key of another provider's shape is drafted for this
   * connection; null once the user chose to send it anyway, or when it is the connection's saved key.
   */
  function keyWarning(config: Config): string | null {
    const warning = foreignKeyWarning(config);
    if (!warning) return null;
    const state = ctx.get();
    if (connectionOf(state, connectionIdOf(config))?.apiKey.trim() === config.apiKey.trim()) return null;
    return state.confirmedKeys.includes(keyConfirmation(config)) ? null : warning;
  }

  /** 'Use it anyway': the drafted key may go to its connection's provider. */
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

  /**
   * 'Save Configuration': persist, remember it as its provider's connection, rebuild the service,
   * tell other tabs. Returns why it refused instead (a held key, an endpoint without a model).
   */
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

  /**
   * Fetches a provider's own model list with its connection (the saved configuration's provider by
   * default), once per connection. Only a provider whose panel offers a model list needs one
   * (Azure's model is its deployment).
   */
  async function refreshModelList(connectionId = connectionIdOf(ctx.get().config)): Promise<void> {
    const connection = connectionOf(ctx.get(), connectionId);
    const offersModels =
      connection && providerCatalog[connection.provider].fields.some(({ kind }) => kind === 'model');
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

  /**
   * 'Test connection' for a configuration as drafted (not saved); loaded on first use. The models
   * it lists become the drafted connection's live list.
   */
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
    forgetConnection,
    newEndpointDraft,
    checkConnection,
    keyWarning,
    confirmKey,
    service,
    targetFor,
    applyConfig,
    applyConnections,
    replaceConnections,
    writeConfig,
    saveConfiguration,
    refreshModelList,
  };
}
