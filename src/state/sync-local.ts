import type { Conversation } from '../domain/conversation.ts';
import { mergeConversations } from '../domain/message-tree.ts';
import type { Project } from '../domain/projects.ts';
import { readPrompts, type Prompt } from '../domain/prompts.ts';
import { storageKeys } from '../storage/keys.ts';
import { connectionIdOf, type Config, type Connections } from '../domain/config.ts';
import { restoreConfig } from '../domain/config-restore.ts';
import { isRecord } from '../domain/json-guards.ts';
import type { LocalRecords } from '../sync/replicator.ts';
import {
  conversationKind,
  keysIn,
  projectKind,
  promptKind,
  settingsId,
  settingsKind,
  settingsKindFor,
  syncedSettingKeys,
  withKeys,
  withOwnConnections,
  withoutKeys,
  type HeldKeys,
  type SyncedSettings,
} from '../sync/synced-kinds.ts';
import type { ChatContext } from './chat-context.ts';
import { isStreamingIn } from './chat-store.ts';
import type { ConversationSync } from './conversation-sync.ts';

/** The synced settings as last seen here (their stored text, keys out) and when they changed. */
export interface SettingsStamp {
  snapshot: string;
  at: string;
}

/**
 * This device's side of each synced kind (docs/sync.md): read from, merged into and removed
 * from the app's own storage, through the same paths a change from another tab takes, so the
 * screen and the other tabs follow. `declined(documentId)` is true for a record deleted here
 * whose deletion has not reached the server yet: nothing from the server brings it back.
 */
export function localRecords({
  ctx,
  sync,
  declined,
  absorbed,
  settingsStamp,
  reloadSettings,
  keysSynced,
  resealKeys,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  /**
   * The settings as last seen here (keys taken out) and when they changed: a change is told by
   * comparing, since settings are saved in many places; kept by the caller.
   */
  settingsStamp: { get(): SettingsStamp | null; set(stamp: SettingsStamp): void };
  /** Takes in settings written to storage (as another tab's change is taken in). */
  reloadSettings(): void;
  /** The keys go with their connections (the user's choice, on an encrypted database). */
  keysSynced: boolean;
  /** Stores the keys the state holds as they are stored (sealed in the vault while protected). */
  resealKeys(): Promise<void>;
  declined(type: string, id: string): boolean;
  /** A record from the server was stored as it is now, or removed (null): nothing to send back. */
  absorbed(type: string, id: string, updatedAt: string | null): void;
}) {
  const notStreaming = () => false;

  const conversations: LocalRecords<Conversation> = {
    kind: conversationKind,
    read: (id) => ctx.db().get(id),
    async absorb(remote) {
      if (declined(conversationKind.type, remote.id)) return false;
      const ok = await sync.saveStored(remote.id, (stored) =>
        stored ? mergeConversations(stored, remote) : remote,
      );
      // A conversation new here joins the list (one already open takes the merge as it shows).
      if (ok) await sync.receive(remote.id);
      return ok;
    },
    async remove(id) {
      sync.forget(id);
      await sync.remove(id);
    },
    streaming: (id) => isStreamingIn(ctx.get(), id),
  };

  const projects: LocalRecords<Project> = {
    kind: projectKind,
    read: async (id) => ctx.get().projects.find((project) => project.id === id),
    async absorb(remote) {
      if (declined(projectKind.type, remote.id)) return false;
      const { result, value, changed } = await ctx
        .db()
        .updateProject(remote.id, (stored) => (stored ? projectKind.merge(stored, remote) : remote));
      if (!sync.reportWrite(result) || !value) return false;
      if (changed) {
        absorbed(projectKind.type, value.id, value.updatedAt);
        ctx.store.setState((state) => ({
          projects: [...state.projects.filter((project) => project.id !== value.id), value],
        }));
        ctx.tabSync.post({ type: 'projects-changed' });
      }
      return true;
    },
    async remove(id) {
      if (!ctx.get().projects.some((project) => project.id === id)) return;
      if (!sync.reportWrite(await ctx.db().deleteProject(id))) return;
      absorbed(projectKind.type, id, null);
      ctx.store.setState((state) => ({ projects: state.projects.filter((project) => project.id !== id) }));
      ctx.tabSync.post({ type: 'projects-changed' });
    },
    streaming: notStreaming,
  };

  /** The prompts as storage holds them now (another tab may have changed them). */
  const storedPrompts = () => readPrompts(ctx.settings.loadPrompts());
  /** Stores the prompts with one changed (or removed: null) by the server, and shows them. */
  function writePrompts(prompts: Prompt[], id: string, updatedAt: string | null): boolean {
    const written = ctx.settings.savePrompts(prompts);
    if (written.ok) {
      absorbed(promptKind.type, id, updatedAt);
      ctx.store.setState({ prompts });
    }
    return sync.reportWrite(written);
  }

  const prompts: LocalRecords<Prompt> = {
    kind: promptKind,
    read: async (id) => storedPrompts().find((prompt) => prompt.id === id),
    async absorb(remote) {
      if (declined(promptKind.type, remote.id)) return false;
      const stored = storedPrompts();
      const known = stored.find((prompt) => prompt.id === remote.id);
      const value = known ? promptKind.merge(known, remote) : remote;
      if (value === known) return true;
      return writePrompts(
        [...stored.filter((prompt) => prompt.id !== remote.id), value],
        value.id,
        value.updatedAt,
      );
    },
    async remove(id) {
      const stored = storedPrompts();
      if (!stored.some((prompt) => prompt.id === id)) return;
      writePrompts(
        stored.filter((prompt) => prompt.id !== id),
        id,
        null,
      );
    },
    streaming: notStreaming,
  };

  /** The synced settings as stored now, keys taken out. */
  function storedSettings(): Record<string, string> {
    const stored: SyncedSettings['stored'] = {};
    const held = keysSynced ? heldKeys() : {};
    for (const key of syncedSettingKeys) {
      const text = ctx.settings.readText(storageKeys[key]);
      if (text !== null) stored[key] = withKeys(key, withoutKeys(key, text), held);
    }
    return stored;
  }
  /** The keys this device holds (in memory: stored in the vault while protected), with their addresses. */
  function heldKeys(): HeldKeys {
    const { config, connections } = ctx.get();
    return {
      ...keysIn('connections', JSON.stringify(connections)),
      ...keysIn('config', JSON.stringify(config)),
    };
  }
  /**
   * Synced keys arriving: the configuration and connections they come with (read back as a
   * stored configuration is) take them into memory, and the vault, before the settings are stored
   * without them and taken in (which puts back the keys memory holds).
   */
  async function takeKeys(remote: SyncedSettings): Promise<void> {
    const read = (text: string | undefined): unknown => {
      try {
        return text === undefined ? undefined : JSON.parse(text);
      } catch {
        return undefined;
      }
    };
    const { config, connections } = ctx.get();
    const theirConfig = restoreConfig(read(remote.stored.config));
    const theirConnections = read(remote.stored.connections);
    const keyed = (mine: Config | undefined, theirs: Config): Config =>
      theirs.apiKey || !mine ? theirs : { ...theirs, apiKey: mine.apiKey };
    const next: Connections = { ...connections };
    if (isRecord(theirConnections))
      for (const [id, value] of Object.entries(theirConnections)) {
        const theirs = restoreConfig(value);
        if (theirs && connectionIdOf(theirs) === id) next[id] = keyed(connections[id], theirs);
      }
    ctx.store.setState({
      connections: next,
      ...(theirConfig && {
        config: keyed(
          connectionIdOf(theirConfig) === connectionIdOf(config) ? config : next[connectionIdOf(theirConfig)],
          theirConfig,
        ),
      }),
    });
    await resealKeys();
  }
  /** The settings here, stamped now when they differ from the last seen. */
  function currentSettings(): SyncedSettings {
    const stored = storedSettings();
    const snapshot = JSON.stringify(stored);
    let stamp = settingsStamp.get();
    if (stamp?.snapshot !== snapshot) {
      // Seen for the first time since sync began: as old as can be, so the synced ones win.
      stamp = { snapshot, at: stamp ? ctx.now().toISOString() : new Date(0).toISOString() };
      settingsStamp.set(stamp);
    }
    return { id: settingsId, updatedAt: stamp.at, stored };
  }

  const settings: LocalRecords<SyncedSettings> = {
    kind: settingsKindFor(keysSynced),
    read: async (id) => (id === settingsId ? currentSettings() : undefined),
    async absorb(remote) {
      const mine = currentSettings();
      if (settingsKind.merge(mine, remote) !== remote) return true;
      const same = JSON.stringify(remote.stored) === JSON.stringify(mine.stored);
      if (!same && keysSynced) await takeKeys(remote);
      // This device's keys go back in: the configuration's and the connections'.
      const keys: HeldKeys = Object.assign(
        {},
        ...syncedSettingKeys.map((key) => keysIn(key, ctx.settings.readText(storageKeys[key]))),
      );
      for (const key of same ? [] : syncedSettingKeys) {
        const own = ctx.settings.readText(storageKeys[key]);
        let text = remote.stored[key];
        if (key === 'connections' && text !== undefined) text = withOwnConnections(text, own);
        // Stored as this device stores keys: without them while they are protected.
        if (text !== undefined) text = withKeys(key, text, keys);
        if (text !== undefined && keysSynced && ctx.get().keyLock !== 'off') text = withoutKeys(key, text);
        const written = ctx.settings.writeText(storageKeys[key], text ?? null);
        if (!sync.reportWrite(written)) return false;
      }
      settingsStamp.set({ snapshot: JSON.stringify(storedSettings()), at: remote.updatedAt });
      absorbed(settingsKind.type, settingsId, remote.updatedAt);
      if (!same) reloadSettings();
      return true;
    },
    // Settings are never deleted: a tombstone (not written by this app) changes nothing here.
    remove: async () => undefined,
    streaming: notStreaming,
  };

  return { records: [conversations, projects, prompts, settings] as const, currentSettings };
}
