import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import {
  compareByOrder,
  readSummary,
  summarizeConversation,
  type ConversationSummary,
} from '../domain/conversation-summary.ts';
import { readStoredConversation, type ConversationStore, type Listing } from './conversation-store.ts';
import { storageKeys } from './keys.ts';
import { storageFailure, storageOk, type StorageResult } from './result.ts';

const { conversationStore, summaryStore, attachmentStore, attachmentsByConversation, projectStore } =
  storageKeys.database;

/** The project reader, loaded with the first project read: the first screen's code has no need of it. */
const projectReader = () => import('../domain/project-validation.ts').then((module) => module.readProject);
/** Writing projects, loaded with the first write of one. */
const projectWrites = () => import('./project-writes.ts');

/** Conversations kept in memory only, when IndexedDB cannot be used: loaded only then. */
const memoryStore = () =>
  import('./memory-conversation-store.ts').then((module) => module.createMemoryConversationStore());

/** A file's bytes and the conversation whose messages refer to it. */
interface AttachmentRow {
  id: string;
  conversationId: string;
  blob: Blob;
}

/** Values are `unknown` on purpose: whatever is read back is shape-checked before use. */
export interface ChatSchema extends DBSchema {
  conversations: { key: string; value: unknown };
  summaries: { key: string; value: unknown };
  attachments: { key: string; value: AttachmentRow; indexes: { conversationId: string } };
  projects: { key: string; value: unknown };
}

export type Database = IDBPDatabase<ChatSchema>;
const writeStores = [conversationStore, summaryStore, attachmentStore, projectStore] as const;
export type WriteTransaction = IDBPTransaction<ChatSchema, (typeof writeStores)[number][], 'readwrite'>;

export interface OpenConversationDbOptions {
  /** Database name; tests use a unique one each. */
  name?: string;
  /** The IndexedDB factory; pass undefined or null to force the in-memory fallback. */
  indexedDB?: IDBFactory | null;
  /** How long to wait for a blocked open (another tab holding an old version) before falling back. */
  openTimeoutMs?: number;
}

function browserIndexedDb(): IDBFactory | null {
  try {
    return globalThis.indexedDB ?? null;
  } catch {
    return null;
  }
}

function openDatabase(factory: IDBFactory, name: string, timeoutMs: number): Promise<Database> {
  const request = factory.open(name, storageKeys.database.version);
  request.addEventListener('upgradeneeded', () => {
    const db = request.result;
    if (!db.objectStoreNames.contains(conversationStore))
      db.createObjectStore(conversationStore, { keyPath: 'id' });
    if (!db.objectStoreNames.contains(summaryStore)) db.createObjectStore(summaryStore, { keyPath: 'id' });
    if (!db.objectStoreNames.contains(attachmentStore))
      db.createObjectStore(attachmentStore, { keyPath: 'id' }).createIndex(
        attachmentsByConversation,
        attachmentsByConversation,
      );
    if (!db.objectStoreNames.contains(projectStore)) db.createObjectStore(projectStore, { keyPath: 'id' });
  });
  // A newer version opening in another tab must not wait on this one: give way, later writes
  // then fail as 'unavailable' and the tab asks for a reload.
  request.addEventListener('success', () => {
    const db = request.result;
    db.onversionchange = () => db.close();
  });
  const opened = wrap(request) as unknown as Promise<Database>;
  return new Promise<Database>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`Opening the database took longer than ${timeoutMs} ms`));
      opened.then(
        (db) => db.close(),
        () => undefined,
      );
    }, timeoutMs);
    opened.then(
      (db) => {
        clearTimeout(timer);
        resolve(db);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Runs writes to the stores in one transaction. Any failure, including a synchronous one such as
 * a value that cannot be cloned, aborts the transaction, so nothing of it is kept. `signal` aborts
 * it too, unless it has already committed.
 */
export async function writeAll(
  db: Database,
  work: (tx: WriteTransaction, pending: Promise<unknown>[]) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<StorageResult> {
  const pending: Promise<unknown>[] = [];
  let tx: WriteTransaction | undefined;
  let committing = false;
  const end = () => {
    if (committing) return;
    try {
      tx?.abort();
    } catch {
      // Already finished or aborted.
    }
  };
  signal?.addEventListener('abort', end, { once: true });
  try {
    tx = db.transaction([...writeStores], 'readwrite');
    pending.push(tx.done);
    if (signal?.aborted) end();
    // Work that reads first awaits only IndexedDB requests, so the transaction stays active.
    const reading = work(tx, pending);
    if (reading) await reading;
    // Commit now rather than when this task ends and the requests report back: a write made as
    // the tab closes (page hide) then still lands.
    tx.commit();
    committing = true;
    await Promise.all(pending);
    return storageOk();
  } catch (error) {
    // Requests failed by the abort must not surface as unhandled rejections.
    for (const request of pending) request.catch(() => undefined);
    try {
      tx?.abort();
    } catch {
      // Already finished or aborted.
    }
    return storageFailure(error);
  } finally {
    signal?.removeEventListener('abort', end);
  }
}

/** Files staged for writing, by id, until the write that stores them has committed. */
export type Staged = Map<string, Blob>;

/**
 * Writes a conversation's record and summary with the staged files it refers to. `prune` (a
 * read-modify-write, whose copy is the merged truth) also deletes the stored files no message
 * refers to any more; a plain write only adds, issuing everything at once (no read first), so a
 * write made as the tab closes still lands and never drops a file another tab has just saved.
 * Returns the staged ids it stored.
 */
async function putConversation(
  tx: WriteTransaction,
  pending: Promise<unknown>[],
  conversation: Conversation,
  staged: Staged,
  prune: boolean,
): Promise<string[]> {
  const files = tx.objectStore(attachmentStore);
  const wanted = attachmentIds(conversation);
  if (prune) {
    const stored = await files.index(attachmentsByConversation).getAllKeys(conversation.id);
    for (const id of stored) if (!wanted.has(id)) pending.push(files.delete(id));
  }
  const written = [...wanted].filter((id) => staged.has(id));
  for (const id of written)
    pending.push(files.put({ id, conversationId: conversation.id, blob: staged.get(id) as Blob }));
  pending.push(tx.objectStore(conversationStore).put(conversationRecord(conversation)));
  pending.push(tx.objectStore(summaryStore).put(summarizeConversation(conversation)));
  return written;
}

function readAll(values: unknown[]): Listing<Conversation> {
  const items: Conversation[] = [];
  for (const value of values) {
    const conversation = readStoredConversation(value);
    if (conversation) items.push(conversation);
  }
  return { items: items.sort(compareByOrder), skipped: values.length - items.length };
}

function createIndexedDbStore(db: Database): ConversationStore {
  const staged: Staged = new Map();

  /** Writes conversations (and their files); staged files stop being held once they are stored. */
  async function writeConversations(
    conversations: readonly Conversation[],
    before?: (tx: WriteTransaction, pending: Promise<unknown>[]) => void,
  ): Promise<StorageResult> {
    const added: string[] = [];
    const result = await writeAll(db, async (tx, pending) => {
      before?.(tx, pending);
      for (const conversation of conversations)
        added.push(...(await putConversation(tx, pending, conversation, staged, false)));
    });
    if (result.ok) for (const id of added) staged.delete(id);
    return result;
  }

  return {
    persistent: true,

    async listSummaries() {
      const tx = db.transaction([conversationStore, summaryStore], 'readonly');
      const [rawSummaries, recordIds] = await Promise.all([
        tx.objectStore(summaryStore).getAll(),
        tx.objectStore(conversationStore).getAllKeys(),
        tx.done,
      ]);
      const ids = new Set(recordIds);
      const items: ConversationSummary[] = [];
      const listed = new Set<string>();
      for (const raw of rawSummaries) {
        const summary = readSummary(raw);
        if (summary && ids.has(summary.id)) {
          items.push(summary);
          listed.add(summary.id);
        }
      }
      // A record whose summary is missing or broken is summarized from the full record instead.
      let skipped = 0;
      for (const id of ids) {
        if (listed.has(id)) continue;
        const conversation = readStoredConversation(await db.get(conversationStore, id));
        if (conversation) items.push(summarizeConversation(conversation));
        else skipped++;
      }
      return { items: items.sort(compareByOrder), skipped };
    },

    async get(id) {
      return readStoredConversation(await db.get(conversationStore, id)) ?? undefined;
    },

    async read(id) {
      const raw: unknown = await db.get(conversationStore, id);
      if (raw === undefined) return { status: 'missing' };
      const conversation = readStoredConversation(raw);
      return conversation ? { status: 'ok', conversation } : { status: 'unreadable' };
    },

    async getAll() {
      return readAll(await db.getAll(conversationStore));
    },

    put: (conversation) => writeConversations([conversation]),

    async update(id, change, { signal } = {}) {
      let value: Conversation | undefined;
      let changed = false;
      const added: string[] = [];
      const result = await writeAll(
        db,
        async (tx, pending) => {
          const stored = readStoredConversation(await tx.objectStore(conversationStore).get(id)) ?? undefined;
          const next = change(stored);
          value = next ?? stored;
          if (next !== undefined && next !== stored) {
            changed = true;
            added.push(...(await putConversation(tx, pending, next, staged, true)));
          }
        },
        signal,
      );
      if (result.ok) for (const fileId of added) staged.delete(fileId);
      return { result, value, changed };
    },

    putMany: (conversations) => writeConversations(conversations),

    delete: (id) =>
      writeAll(db, async (tx, pending) => {
        pending.push(tx.objectStore(conversationStore).delete(id));
        pending.push(tx.objectStore(summaryStore).delete(id));
        const files = tx.objectStore(attachmentStore);
        for (const fileId of await files.index(attachmentsByConversation).getAllKeys(id))
          pending.push(files.delete(fileId));
      }),

    dropSummary: (id) =>
      writeAll(db, (tx, pending) => {
        pending.push(tx.objectStore(summaryStore).delete(id));
      }),

    replaceAll: async (conversations, projects = []) => {
      // Loaded only when there are projects to write: an import of conversations alone waits on nothing more.
      const putProject = projects.length > 0 ? (await projectWrites()).putProject : null;
      const added: string[] = [];
      const result = await writeAll(db, async (tx, pending) => {
        for (const store of writeStores) pending.push(tx.objectStore(store).clear());
        if (putProject)
          for (const project of projects) added.push(...(await putProject(tx, pending, project, staged)));
        for (const conversation of conversations)
          added.push(...(await putConversation(tx, pending, conversation, staged, false)));
      });
      if (result.ok) for (const id of added) staged.delete(id);
      return result;
    },

    async listProjects() {
      const [readProject, values] = await Promise.all([projectReader(), db.getAll(projectStore)]);
      const items = values.flatMap((value) => readProject(value) ?? []);
      return { items, skipped: values.length - items.length };
    },

    updateProject: async (id, change) => (await projectWrites()).updateProject(db, staged, id, change),
    deleteProject: async (id) => (await projectWrites()).deleteProject(db, id),

    stageAttachment: (id, blob) => void staged.set(id, blob),
    dropStagedAttachment: (id) => void staged.delete(id),

    async readAttachment(id) {
      return staged.get(id) ?? (await db.get(attachmentStore, id))?.blob;
    },

    close: () => db.close(),
  };
}

/**
 * The conversation database as it is stored, at whatever version, without changing it: opened
 * without a version, and a database that does not exist yet is not created (null).
 */
export async function openAsStored(
  factory: IDBFactory,
  name: string = storageKeys.database.name,
): Promise<IDBPDatabase<ChatSchema> | null> {
  const request = factory.open(name);
  let created = false;
  request.addEventListener('upgradeneeded', () => {
    created = true;
    request.transaction?.abort();
  });
  try {
    const db = (await wrap(request)) as unknown as IDBPDatabase<ChatSchema>;
    db.onversionchange = () => db.close();
    return db;
  } catch (error) {
    if (created) return null;
    throw error;
  }
}

/**
 * The stored version of the conversation database when opening it will upgrade it (an earlier
 * release made it), else null: a backup is taken first.
 */
export async function pendingUpgrade(
  factory: IDBFactory | null = browserIndexedDb(),
  name: string = storageKeys.database.name,
): Promise<number | null> {
  if (!factory) return null;
  try {
    const db = await openAsStored(factory, name);
    if (!db) return null;
    db.close();
    return db.version < storageKeys.database.version ? db.version : null;
  } catch {
    // Not openable: the open that follows says why, and falls back.
    return null;
  }
}

/**
 * Opens the conversation database. Never rejects: when IndexedDB is missing, blocked or fails to
 * open, the result is the in-memory store (`persistent: false`) and a console warning says why.
 */
export async function openConversationDb(
  options: OpenConversationDbOptions = {},
): Promise<ConversationStore> {
  const factory = 'indexedDB' in options ? (options.indexedDB ?? null) : browserIndexedDb();
  if (!factory) {
    console.warn('IndexedDB is not available: conversations are kept in memory only');
    return memoryStore();
  }
  try {
    const db = await openDatabase(
      factory,
      options.name ?? storageKeys.database.name,
      options.openTimeoutMs ?? 5000,
    );
    // A database of this name made by something else (or damaged) may lack our stores.
    const missing = writeStores.filter((store) => !db.objectStoreNames.contains(store));
    if (missing.length > 0) {
      db.close();
      throw new Error(`The database has no ${missing.join(' or ')} store`);
    }
    return createIndexedDbStore(db);
  } catch (error) {
    console.warn('Could not open IndexedDB: conversations are kept in memory only', error);
    return memoryStore();
  }
}

export type { ConversationStore, Listing } from './conversation-store.ts';
