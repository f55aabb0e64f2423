import { defaultConfig } from '../domain/config.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import { migrateLegacyConversations } from '../storage/legacy-migration.ts';
import { loadActiveId, loadConfig, loadTheme } from '../storage/local-settings.ts';
import { subscribeToStorageEvents, type TabSyncMessage } from '../storage/tab-sync.ts';
import { commitConversation, forgetConversation, getState, setState } from './chat-store.ts';
import { buildService } from './config-commands.ts';
import { ensureLoaded } from './conversation-commands.ts';
import { notify } from './notify.ts';
import { db, onOtherTab, openPersistence } from './persistence.ts';
import { saveStreamingReply } from './send-commands.ts';

/** Restores everything from storage: configuration, theme, conversation list, the active one. */
export async function boot(): Promise<void> {
  const config = loadConfig() ?? defaultConfig;
  setState({ config, service: buildService(config), theme: loadTheme() });

  const store = await openPersistence();
  if (!store.persistent) {
    notify.warning(
      'Conversations are not being saved',
      'This browser does not allow storage here (private mode?). The app works, but closing the tab loses your chats.',
    );
  }
  const migration = await migrateLegacyConversations(store);
  if ('problem' in migration) console.error('Could not migrate saved conversations', migration.problem);

  const { items: summaries, skipped } = await store.listSummaries();
  if (skipped > 0) notify.warning(`${skipped} saved conversation(s) could not be read and were skipped`);
  const list = summaries.map(({ id, name, createdAt, updatedAt }) => ({ id, name, createdAt, updatedAt }));
  const activeId = pickActiveId(list, loadActiveId());
  setState({ list, activeId, persistent: store.persistent });
  if (activeId) await ensureLoaded(activeId);
  setState({ ready: true });

  onOtherTab(applyOtherTabChange);
  subscribeToStorageEvents(() => {
    const saved = loadConfig();
    if (saved) setState({ config: saved, service: buildService(saved), theme: loadTheme() });
    else setState({ theme: loadTheme() });
  });
  // Closing or hiding the tab mid-reply keeps what has arrived.
  window.addEventListener('pagehide', saveStreamingReply);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveStreamingReply();
  });
}

async function applyOtherTabChange(message: TabSyncMessage): Promise<void> {
  switch (message.type) {
    case 'conversation-saved': {
      const stored = await db().get(message.id);
      if (!stored) return;
      const { streamingId, loaded } = getState();
      const local = loaded[message.id];
      // Our own streaming reply is newer than theirs; take only their name.
      commitConversation(streamingId === message.id && local ? { ...local, name: stored.name } : stored);
      return;
    }
    case 'conversation-deleted': {
      if (getState().streamingId === message.id) return;
      forgetConversation(message.id);
      if (getState().activeId === message.id) setState({ activeId: pickActiveId(getState().list, null) });
      return;
    }
    case 'conversations-replaced': {
      const { items: summaries } = await db().listSummaries();
      const list = summaries.map(({ id, name, createdAt, updatedAt }) => ({
        id,
        name,
        createdAt,
        updatedAt,
      }));
      const activeId = pickActiveId(list, getState().activeId);
      setState({ list, loaded: {}, activeId });
      if (activeId) await ensureLoaded(activeId);
      return;
    }
    case 'config-saved':
    case 'active-changed':
      // Config arrives through the storage event; each tab keeps its own active conversation.
      return;
  }
}
