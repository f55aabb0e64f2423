import { defaultConfig } from '../domain/config.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import { migrateLegacyConversations } from '../storage/legacy-migration.ts';
import { loadActiveId, loadConfig, loadTheme, readSavedConfig } from '../storage/local-settings.ts';
import { subscribeToStorageEvents, type TabSyncMessage } from '../storage/tab-sync.ts';
import { commitConversation, forgetConversation, getState, listItemOf, setState } from './chat-store.ts';
import { buildService } from './config-commands.ts';
import { ensureLoaded } from './conversation-commands.ts';
import { notify } from './notify.ts';
import { db, onOtherTab, openPersistence, saveBacklog } from './persistence.ts';
import { saveStreamingReply } from './send-commands.ts';

/** Restores everything from storage: configuration, theme, conversation list, the active one. */
export async function boot(): Promise<void> {
  const saved = readSavedConfig();
  const config = saved.config ?? defaultConfig;
  setState({ config, service: buildService(config), theme: loadTheme() });
  if (saved.problem) {
    notify.warning(
      'The saved configuration could not be read',
      `The default settings are used instead (${saved.problem}). Your conversations are not affected; save your settings again in the panel on the right.`,
    );
  }

  const store = await openPersistence();
  if (!store.persistent) {
    notify.warning(
      'Conversations are not being saved',
      'This browser does not allow storage here (private mode?). The app works, but closing the tab loses your chats.',
    );
  }
  const migration = await migrateLegacyConversations(store).catch((error: unknown) => ({
    migrated: 0,
    problem: error instanceof Error ? error.message : String(error),
  }));
  if ('problem' in migration) {
    console.error('Could not migrate saved conversations', migration.problem);
    // Without IndexedDB the old data simply stays where it is (the warning above says so).
    if (store.persistent) {
      notify.warning(
        'Some conversations saved by an older version could not be read',
        `${migration.problem}; the readable ones are shown.`,
      );
    }
  }

  const { items: summaries, skipped } = await store.listSummaries().catch((error: unknown) => {
    // Never stuck on 'Loading…': start empty and say why.
    console.error('Could not read saved conversations', error);
    notify.error(
      'Saved conversations could not be read',
      `The browser's storage failed (${error instanceof Error ? error.message : String(error)}). Reloading may help.`,
    );
    return { items: [], skipped: 0 };
  });
  if (skipped > 0) {
    const one = skipped === 1;
    notify.warning(
      `${skipped} saved conversation${one ? '' : 's'} could not be read and ${one ? 'was' : 'were'} skipped`,
      `${one ? 'It is' : 'They are'} damaged in this browser's storage; the other conversations are shown.`,
    );
  }
  const list = summaries.map(listItemOf);
  const activeId = pickActiveId(list, loadActiveId());
  setState({ list, activeId, persistent: store.persistent });
  if (activeId) await ensureLoaded(activeId).catch((error: unknown) => console.error(error));
  setState({ ready: true });

  onOtherTab(applyOtherTabChange);
  subscribeToStorageEvents(() => {
    const saved = loadConfig();
    if (saved) setState({ config: saved, service: buildService(saved), theme: loadTheme() });
    else setState({ theme: loadTheme() });
  });
  // Closing or hiding the tab mid-reply keeps what has arrived (and what earlier failed to save).
  const saveBeforeLeaving = () => {
    saveStreamingReply();
    void saveBacklog();
  };
  window.addEventListener('pagehide', saveBeforeLeaving);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveBeforeLeaving();
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
      const list = summaries.map(listItemOf);
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
