import type { Conversation } from '../domain/conversation.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import type { StorageResult } from '../storage/result.ts';
import { createTabSync, type TabSyncMessage } from '../storage/tab-sync.ts';
import { getState, setState } from './chat-store.ts';
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

/**
 * What failed to reach storage (storage full, ...): kept in memory and written again, from the
 * latest in-memory copy, after the next write that works, or by itself a little later.
 */
const unsaved = new Set<string>();
const undeleted = new Set<string>();
const firstRetryMs = 5000;
const maxRetryMs = 60_000;
let retryMs = firstRetryMs;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let flushing = false;

function scheduleRetry(): void {
  if (retryTimer !== null) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void saveBacklog();
  }, retryMs);
  retryMs = Math.min(retryMs * 2, maxRetryMs);
}

function wrote(ok: boolean): void {
  if (ok) {
    retryMs = firstRetryMs;
    if (unsaved.size > 0 || undeleted.size > 0) void saveBacklog();
  } else scheduleRetry();
}

/** Writes what earlier failed to save; a reply still streaming is left to its own saves. */
export async function saveBacklog(): Promise<void> {
  if (flushing) return;
  flushing = true;
  try {
    for (const id of [...undeleted]) {
      if (!reportWrite(await db().delete(id))) return scheduleRetry();
      undeleted.delete(id);
      broadcast({ type: 'conversation-deleted', id });
    }
    for (const id of [...unsaved]) {
      const { loaded, streamingId } = getState();
      const conversation = loaded[id];
      if (!conversation) {
        unsaved.delete(id);
        continue;
      }
      if (id === streamingId) continue;
      if (!reportWrite(await db().put(conversation))) return scheduleRetry();
      // Changed again while being written: the newer copy is still to save.
      if (getState().loaded[id] === conversation) unsaved.delete(id);
      broadcast({ type: 'conversation-saved', id });
    }
    if (unsaved.size > 0 && !getState().streamingId) scheduleRetry();
  } finally {
    flushing = false;
  }
}

/** Saves a conversation and tells other tabs; a failure keeps it in the backlog. */
export async function persistConversation(conversation: Conversation): Promise<boolean> {
  const ok = reportWrite(await db().put(conversation));
  settle(conversation.id, ok);
  return ok;
}

function settle(id: string, ok: boolean): void {
  if (ok) {
    unsaved.delete(id);
    broadcast({ type: 'conversation-saved', id });
  } else unsaved.add(id);
  wrote(ok);
}

/**
 * Changes a conversation with a read-modify-write in one transaction (see ConversationStore.update),
 * so what another tab wrote meanwhile is not lost. Returns the new conversation, also when the
 * write failed (memory keeps it; the backlog saves it later), or undefined when nothing changed.
 */
export async function persistChange(
  id: string,
  change: (stored: Conversation | undefined) => Conversation | undefined,
): Promise<Conversation | undefined> {
  const { result, value, changed } = await db().update(id, change);
  if (!changed) return undefined;
  settle(id, reportWrite(result));
  return value;
}

/**
 * Saves this tab's messages (a sent message, a streaming or finished reply) and keeps the name as
 * stored, which another tab may have changed. Returns the name now stored.
 */
export async function persistMessages(conversation: Conversation): Promise<string> {
  // Our own last save failed: memory is the newest copy, the name included.
  const memoryWins = unsaved.has(conversation.id);
  const saved = await persistChange(conversation.id, (stored) =>
    memoryWins || !stored ? conversation : { ...conversation, name: stored.name },
  );
  return saved?.name ?? conversation.name;
}

/** Deletes a conversation from storage and tells other tabs; a failure is retried later. */
export async function unpersistConversation(id: string): Promise<boolean> {
  unsaved.delete(id);
  const ok = reportWrite(await db().delete(id));
  if (ok) broadcast({ type: 'conversation-deleted', id });
  else undeleted.add(id);
  wrote(ok);
  return ok;
}

/** After an import replaced everything, nothing older is still waiting to be written. */
export function forgetBacklog(): void {
  unsaved.clear();
  undeleted.clear();
}
