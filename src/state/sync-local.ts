import type { Conversation } from '../domain/conversation.ts';
import { mergeConversations } from '../domain/message-tree.ts';
import type { Project } from '../domain/projects.ts';
import { readPrompts, type Prompt } from '../domain/prompts.ts';
import { storageKeys } from '../storage/keys.ts';
import type { LocalRecords } from '../sync/replicator.ts';
import {
  conversationKind,
  keysIn,
  projectKind,
  promptKind,
  settingsId,
  settingsKind,
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
    for (const key of syncedSettingKeys) {
      const text = ctx.settings.readText(storageKeys[key]);
      if (text !== null) stored[key] = withoutKeys(key, text);
    }
    return stored;
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
    kind: settingsKind,
    read: async (id) => (id === settingsId ? currentSettings() : undefined),
    async absorb(remote) {
      const mine = currentSettings();
      if (settingsKind.merge(mine, remote) !== remote) return true;
      const same = JSON.stringify(remote.stored) === JSON.stringify(mine.stored);
      // This device's keys go back in: the configuration's and the connections'.
      const keys: HeldKeys = Object.assign(
        {},
        ...syncedSettingKeys.map((key) => keysIn(key, ctx.settings.readText(storageKeys[key]))),
      );
      for (const key of same ? [] : syncedSettingKeys) {
        const own = ctx.settings.readText(storageKeys[key]);
        let text = remote.stored[key];
        if (key === 'connections' && text !== undefined) text = withOwnConnections(text, own);
        const written = ctx.settings.writeText(
          storageKeys[key],
          text === undefined ? null : withKeys(key, text, keys),
        );
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
