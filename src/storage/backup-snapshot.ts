import type { Config } from '../domain/config.ts';
import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { compareByOrder, readSummary } from '../domain/conversation-summary.ts';
import {
  exportEntry,
  exportHead,
  exportProjectEntry,
  exportProjectsEnd,
  exportTail,
} from '../domain/export-format.ts';
import { readProject } from '../domain/project-validation.ts';
import { orderProjects, type Project } from '../domain/projects.ts';
import { base64Of } from '../lib/base64.ts';
import { backupPolicy, openBackupDb, takenToday, type BackupInfo, type BackupReason } from './backup-db.ts';
import type { IDBPDatabase } from 'idb';
import { openAsStored, type ChatSchema } from './conversation-db.ts';
import { readStoredConversation } from './conversation-store.ts';
import { storageKeys } from './keys.ts';

const { conversationStore, summaryStore, attachmentStore, projectStore } = storageKeys.database;

export interface BackupRequest {
  reason: BackupReason;
  /** Written without its key: a backup never holds one. */
  config: Config;
  activeConversationId: string | null;
  /** Release 1's list of conversations (localStorage) while it is still there, as parsed. */
  legacy?: unknown;
  now: Date;
}

export type BackupOutcome =
  | { status: 'taken'; info: BackupInfo }
  /** A daily backup when one was taken today already. */
  | { status: 'not-due' }
  /** Nothing changed since the newest backup. */
  | { status: 'unchanged' }
  /** No conversations and no projects: nothing worth a backup. */
  | { status: 'empty' }
  | { status: 'too-large'; bytes: number }
  | { status: 'failed'; message: string };

/** How many conversations are read (and their files encoded) at a time. */
const batchSize = 50;

const hex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** A SHA-256 chain over the parts fed to it: equal parts in equal order, equal fingerprint. */
function createFingerprint() {
  let state = new Uint8Array(0);
  return {
    async add(bytes: Uint8Array): Promise<void> {
      const joined = new Uint8Array(state.length + bytes.length);
      joined.set(state);
      joined.set(bytes, state.length);
      state = new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
    },
    digest: () => hex(state.buffer),
  };
}

/**
 * The ids of the stored conversations as the list shows them (by their summaries, which are
 * small); records without a readable summary follow.
 */
async function listOrder(db: IDBPDatabase<ChatSchema>): Promise<string[]> {
  const keys = await db.getAllKeys(conversationStore);
  if (!db.objectStoreNames.contains(summaryStore)) return keys;
  const stored = new Set(keys);
  const ordered = (await db.getAll(summaryStore))
    .flatMap((value) => readSummary(value) ?? [])
    .filter((summary) => stored.has(summary.id))
    .sort(compareByOrder)
    .map((summary) => summary.id);
  const listed = new Set(ordered);
  return [...ordered, ...keys.filter((key) => !listed.has(key))];
}

/**
 * The stored projects (few, and small but for their files) in the sidebar's order, each with the
 * bytes of its files; none in a database made before projects.
 */
async function storedProjects(
  factory: IDBFactory,
  databaseName?: string,
): Promise<{ project: Project; files: Map<string, Blob> }[]> {
  const db = await openAsStored(factory, databaseName);
  if (!db) return [];
  try {
    if (!db.objectStoreNames.contains(projectStore)) return [];
    const withFiles = db.objectStoreNames.contains(attachmentStore);
    const stores: ('projects' | 'attachments')[] = withFiles
      ? [projectStore, attachmentStore]
      : [projectStore];
    const tx = db.transaction(stores, 'readonly');
    const projects = orderProjects(
      (await tx.objectStore(projectStore).getAll()).flatMap((value) => readProject(value) ?? []),
    );
    const read: { project: Project; files: Map<string, Blob> }[] = [];
    for (const project of projects) {
      const files = new Map<string, Blob>();
      if (withFiles)
        for (const file of project.files) {
          const row = await tx.objectStore(attachmentStore).get(file.id);
          if (row?.blob instanceof Blob) files.set(file.id, row.blob);
        }
      read.push({ project, files });
    }
    return read;
  } finally {
    db.close();
  }
}

/** The bytes as base64, by id, as an export carries files. */
async function encoded(files: ReadonlyMap<string, Blob>): Promise<Map<string, string>> {
  const data = new Map<string, string>();
  for (const [id, blob] of files) data.set(id, await base64Of(blob));
  return data;
}

/** The stored conversations and the bytes of their files, a batch at a time, in list order. */
async function* storedConversations(
  factory: IDBFactory,
  databaseName?: string,
): AsyncGenerator<{ conversation: Conversation; files: Map<string, Blob> }[]> {
  const db = await openAsStored(factory, databaseName);
  if (!db) return;
  try {
    if (!db.objectStoreNames.contains(conversationStore)) return;
    const withFiles = db.objectStoreNames.contains(attachmentStore);
    const keys = await listOrder(db);
    for (let start = 0; start < keys.length; start += batchSize) {
      const stores: ('conversations' | 'attachments')[] = withFiles
        ? [conversationStore, attachmentStore]
        : [conversationStore];
      const tx = db.transaction(stores, 'readonly');
      const batch: { conversation: Conversation; files: Map<string, Blob> }[] = [];
      for (const key of keys.slice(start, start + batchSize)) {
        const conversation = readStoredConversation(await tx.objectStore(conversationStore).get(key));
        if (!conversation) continue;
        const files = new Map<string, Blob>();
        if (withFiles)
          for (const id of attachmentIds(conversation)) {
            const row = await tx.objectStore(attachmentStore).get(id);
            if (row?.blob instanceof Blob) files.set(id, row.blob);
          }
        batch.push({ conversation, files });
      }
      yield batch;
    }
  } finally {
    db.close();
  }
}

/**
 * Writes everything stored (and release 1's list, when given) as the export's text, gzipped as it
 * goes, so the whole text is never held at once. The fingerprint covers all of it but the time.
 */
async function writeSnapshot(
  factory: IDBFactory,
  request: BackupRequest,
  databaseName?: string,
): Promise<{ data: Blob; conversations: number; projects: number; fingerprint: string }> {
  const gzip = new CompressionStream('gzip');
  const writer = gzip.writable.getWriter();
  const collected = new Response(gzip.readable).blob();
  const encoder = new TextEncoder();
  const fingerprint = createFingerprint();
  const write = async (text: string, fingerprinted = true) => {
    const bytes = encoder.encode(text);
    if (fingerprinted) await fingerprint.add(bytes);
    await writer.write(bytes);
  };
  try {
    const projects = await storedProjects(factory, databaseName);
    // Without projects, the text is what releases before them wrote.
    const firstList = projects.length === 0 ? 'conversations' : 'projects';
    // The time it is taken is not part of what it holds.
    await fingerprint.add(encoder.encode(exportHead(request.config, false, new Date(0), firstList)));
    await write(exportHead(request.config, false, request.now, firstList), false);
    if (projects.length > 0) {
      // One at a time: a project's files may be large.
      for (const [index, { project, files }] of projects.entries())
        await write(exportProjectEntry(project, index, await encoded(files)));
      await write(exportProjectsEnd(projects.length));
    }
    const seen = new Set<string>();
    let count = 0;
    for await (const batch of storedConversations(factory, databaseName)) {
      let text = '';
      for (const { conversation, files } of batch) {
        text += exportEntry(conversationRecord(conversation), count++, await encoded(files));
        seen.add(conversation.id);
      }
      await write(text);
    }
    // Release 1's list, for what the database does not hold yet.
    const legacy = Array.isArray(request.legacy) ? request.legacy : [];
    let text = '';
    for (const value of legacy) {
      const conversation = readStoredConversation(value);
      if (!conversation || seen.has(conversation.id)) continue;
      seen.add(conversation.id);
      text += exportEntry(conversationRecord(conversation), count++);
    }
    if (text) await write(text);
    await write(exportTail(count, request.activeConversationId));
    await writer.close();
    const gzipped = await collected;
    return {
      data: new Blob([gzipped], { type: 'application/gzip' }),
      conversations: count,
      projects: projects.length,
      fingerprint: fingerprint.digest(),
    };
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    throw error;
  }
}

export interface BackupOptions {
  factory?: IDBFactory;
  /** The conversation database's name; tests use their own. */
  databaseName?: string;
  policy?: typeof backupPolicy;
}

/**
 * Takes a backup of everything when one is due: a daily one once a day, and only when something
 * changed since the newest; kept within the policy's count and size.
 */
export async function backUp(request: BackupRequest, options: BackupOptions = {}): Promise<BackupOutcome> {
  const factory = options.factory ?? globalThis.indexedDB;
  const policy = options.policy ?? backupPolicy;
  const backups = await openBackupDb(factory);
  if (!backups) return { status: 'failed', message: 'IndexedDB is not available here' };
  try {
    const existing = await backups.list();
    if (request.reason === 'daily' && takenToday(existing, request.now)) return { status: 'not-due' };
    const snapshot = await writeSnapshot(factory, request, options.databaseName);
    if (snapshot.conversations === 0 && snapshot.projects === 0) return { status: 'empty' };
    if (existing[0]?.fingerprint === snapshot.fingerprint) return { status: 'unchanged' };
    if (snapshot.data.size > policy.maxBytes) return { status: 'too-large', bytes: snapshot.data.size };
    const info: BackupInfo = {
      id: `${request.now.toISOString()}-${crypto.randomUUID().slice(0, 8)}`,
      takenAt: request.now.toISOString(),
      reason: request.reason,
      conversations: snapshot.conversations,
      bytes: snapshot.data.size,
      fingerprint: snapshot.fingerprint,
    };
    const saved = await backups.save(info, snapshot.data, policy);
    return saved.ok ? { status: 'taken', info } : { status: 'failed', message: saved.message };
  } catch (error) {
    return { status: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    backups.close();
  }
}
