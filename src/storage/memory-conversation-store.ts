import type { Conversation } from '../domain/conversation.ts';
import { compareByCreation, summarizeConversation } from '../domain/conversation-summary.ts';
import type { ConversationStore } from './conversation-store.ts';
import { storageFailure, storageOk, type StorageResult } from './result.ts';

/**
 * The fallback when IndexedDB is unavailable (blocked, private modes, old browsers): the same
 * interface, so the app works for the session. Records are cloned in and out, as IndexedDB does.
 */
export function createMemoryConversationStore(): ConversationStore {
  const records = new Map<string, Conversation>();

  function sorted(): Conversation[] {
    return [...records.values()].sort(compareByCreation);
  }

  function write(change: () => void): Promise<StorageResult> {
    try {
      change();
      return Promise.resolve(storageOk());
    } catch (error) {
      return Promise.resolve(storageFailure(error));
    }
  }

  return {
    persistent: false,
    listSummaries: () => Promise.resolve({ items: sorted().map(summarizeConversation), skipped: 0 }),
    get: (id) => {
      const record = records.get(id);
      return Promise.resolve(record && structuredClone(record));
    },
    getAll: () => Promise.resolve({ items: structuredClone(sorted()), skipped: 0 }),
    put: (conversation) => write(() => records.set(conversation.id, structuredClone(conversation))),
    putMany: (conversations) =>
      write(() => {
        // Clone everything first so a failure changes nothing.
        const copies = structuredClone([...conversations]);
        for (const copy of copies) records.set(copy.id, copy);
      }),
    delete: (id) => write(() => records.delete(id)),
    replaceAll: (conversations) =>
      write(() => {
        const copies = structuredClone([...conversations]);
        records.clear();
        for (const copy of copies) records.set(copy.id, copy);
      }),
    close: () => undefined,
  };
}
