import type { Conversation } from '../domain/conversation.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import type { StorageResult } from '../storage/result.ts';
import { createTabSync, type TabSyncMessage } from '../storage/tab-sync.ts';
import { setState } from './chat-store.ts';
import { notify } from './notify.ts';

let database: ConversationStore | null = null;
let tabSync: ReturnType<typeof createTabSync> | null = null;

export async function openPersistence(): Promise<ConversationStore> {
  database ??= await openConversationDb();
  tabSync ??= createTabSync();
  return database;
}

export function db(): ConversationStore {
  if (!database) throw new Error('Conversation storage used before it was opened');
  return database;
}

export function broadcast(message: TabSyncMessage): void {
  tabSync?.post(message);
}

export function onOtherTab(handler: (message: TabSyncMessage) => void): () => void {
  return tabSync?.subscribe(handler) ?? (() => {});
}

/**
 * Reports a write's outcome. A failed write keeps everything in memory and warns once, with an
 * Export action, until a later write succeeds.
 */
export function reportWrite(result: StorageResult): boolean {
  if (result.ok) {
    setState((state) => (state.storageProblem ? { storageProblem: null } : state));
    return true;
  }
  let announce = false;
  setState((state) => {
    announce = state.storageProblem === null;
    return { storageProblem: result.message };
  });
  if (announce) {
    const title =
      result.reason === 'quota' ? 'Storage is full: changes are not being saved' : 'Could not save';
    notify.warning(
      title,
      `${result.message} Nothing is lost while this tab stays open; export a copy to be safe.`,
      {
        label: 'Export',
        onClick: () => setState({ importExportOpen: true }),
      },
    );
  }
  return false;
}

/** Saves a conversation and tells other tabs. */
export async function persistConversation(conversation: Conversation): Promise<boolean> {
  const ok = reportWrite(await db().put(conversation));
  if (ok) broadcast({ type: 'conversation-saved', id: conversation.id });
  return ok;
}
