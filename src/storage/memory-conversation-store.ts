import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { compareByOrder, summarizeConversation } from '../domain/conversation-summary.ts';
import type { Project } from '../domain/projects.ts';
import type { ConversationStore } from './conversation-store.ts';
import { storageFailure, storageOk, type StorageResult } from './result.ts';

/**
 * The fallback when IndexedDB is unavailable (blocked, private modes, old browsers): the same
 * interface, so the app works for the session. Records are cloned in and out, as IndexedDB does.
 */
export function createMemoryConversationStore(): ConversationStore {
  const records = new Map<string, Conversation>();
  const projects = new Map<string, Project>();
  /** Stored files with the conversation that refers to them, and files staged for the next write. */
  const files = new Map<string, { conversationId: string; blob: Blob }>();
  const staged = new Map<string, Blob>();

  /** Stores a conversation's staged files; `prune` also drops the ones it no longer refers to, as IndexedDB's update does. */
  function keepFiles(conversation: Conversation, prune: boolean): void {
    const wanted = attachmentIds(conversation);
    if (prune)
      for (const [id, file] of files)
        if (file.conversationId === conversation.id && !wanted.has(id)) files.delete(id);
    for (const id of wanted) {
      const blob = staged.get(id);
      if (!blob) continue;
      files.set(id, { conversationId: conversation.id, blob });
      staged.delete(id);
    }
  }

  function dropFiles(conversationId: string): void {
    for (const [id, file] of files) if (file.conversationId === conversationId) files.delete(id);
  }

  function storeProject(project: Project): void {
    projects.set(project.id, project);
    const wanted = new Set(project.files.map((file) => file.id));
    for (const [id, file] of files)
      if (file.conversationId === project.id && !wanted.has(id)) files.delete(id);
    for (const id of wanted) {
      const blob = staged.get(id);
      if (!blob) continue;
      files.set(id, { conversationId: project.id, blob });
      staged.delete(id);
    }
  }

  function store(conversation: Conversation, prune = false): void {
    records.set(conversation.id, conversation);
    keepFiles(conversation, prune);
  }

  function sorted(): Conversation[] {
    return [...records.values()].sort(compareByOrder);
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
    read: (id) => {
      const record = records.get(id);
      return Promise.resolve(
        record ? { status: 'ok', conversation: structuredClone(record) } : { status: 'missing' },
      );
    },
    getAll: () => Promise.resolve({ items: structuredClone(sorted()), skipped: 0 }),
    put: (conversation) => write(() => store(structuredClone(conversation))),
    update: async (id, change) => {
      const record = records.get(id);
      const stored = record && structuredClone(record);
      const next = change(stored);
      if (next === undefined || next === stored)
        return { result: storageOk(), value: stored, changed: false };
      const result = await write(() => store(structuredClone(next), true));
      return { result, value: next, changed: true };
    },
    putMany: (conversations) =>
      write(() => {
        // Clone everything first so a failure changes nothing.
        const copies = structuredClone([...conversations]);
        for (const copy of copies) store(copy);
      }),
    delete: (id) =>
      write(() => {
        records.delete(id);
        dropFiles(id);
      }),
    // Memory never holds an unreadable record.
    dropSummary: () => write(() => undefined),
    replaceAll: (conversations, newProjects = []) =>
      write(() => {
        const copies = structuredClone([...conversations]);
        const projectCopies = structuredClone([...newProjects]);
        records.clear();
        projects.clear();
        files.clear();
        for (const copy of projectCopies) storeProject(copy);
        for (const copy of copies) store(copy);
      }),
    listProjects: () => Promise.resolve({ items: structuredClone([...projects.values()]), skipped: 0 }),
    updateProject: async (id, change) => {
      const record = projects.get(id);
      const stored = record && structuredClone(record);
      const next = change(stored);
      if (next === undefined || next === stored)
        return { result: storageOk(), value: stored, changed: false };
      const result = await write(() => storeProject(structuredClone(next)));
      return { result, value: next, changed: true };
    },
    deleteProject: (id) =>
      write(() => {
        projects.delete(id);
        dropFiles(id);
      }),
    stageAttachment: (id, blob) => void staged.set(id, blob),
    dropStagedAttachment: (id) => void staged.delete(id),
    readAttachment: (id) => Promise.resolve(staged.get(id) ?? files.get(id)?.blob),
    close: () => undefined,
  };
}
