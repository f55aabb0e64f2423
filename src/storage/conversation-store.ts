import { defaultConfig } from '../domain/config.ts';
import type { Conversation } from '../domain/conversation.ts';
import type { ConversationSummary } from '../domain/conversation-summary.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
import type { Project } from '../domain/projects.ts';
import type { StorageResult } from './result.ts';

/**
 * A read of many records. Records that fail the shape check (a corrupted or foreign record) are
 * left out and counted in `skipped`, so one bad record never hides the rest; the caller decides
 * whether to tell the user.
 */
export interface Listing<T> {
  items: T[];
  skipped: number;
}

/**
 * Where conversations live: IndexedDB, or memory when IndexedDB is unavailable. Lists come in
 * creation order (createdAt ascending, then id), the stored list order. Writes report failures as
 * a StorageResult and never throw; reads reject only if the database itself fails.
 */
export interface ConversationStore {
  /** False for the in-memory fallback: nothing survives a reload. */
  readonly persistent: boolean;
  /** Sidebar rows without loading message bodies. */
  listSummaries(): Promise<Listing<ConversationSummary>>;
  /** Undefined when missing or corrupted. */
  get(id: string): Promise<Conversation | undefined>;
  /** Like `get`, but tells a missing record from one that is there and cannot be read. */
  read(id: string): Promise<StoredRead>;
  /** Every conversation with its messages: for export. */
  getAll(): Promise<Listing<Conversation>>;
  /** Inserts or replaces one conversation (and its summary, in the same transaction). */
  put(conversation: Conversation): Promise<StorageResult>;
  /**
   * Read-modify-write in one transaction, so a change made in another tab meanwhile is never
   * overwritten: `change` gets the stored copy (undefined when missing or unreadable) and returns
   * the new one, or the copy it got (or undefined) to write nothing. `value` is what `change`
   * returned even when the write failed, so the caller can keep it in memory. `signal` ends it
   * unwritten (a failure) unless it has committed: a page going away ends a transaction still
   * waiting on its reads, and the writes issued after it, held behind it, with it.
   */
  update(
    id: string,
    change: (stored: Conversation | undefined) => Conversation | undefined,
    options?: { signal?: AbortSignal },
  ): Promise<UpdateResult>;
  /** Inserts or replaces several in one transaction: all or none. */
  putMany(conversations: readonly Conversation[]): Promise<StorageResult>;
  delete(id: string): Promise<StorageResult>;
  /**
   * Removes only the sidebar summary of a record found unreadable: the record itself stays (it may
   * yet be recovered), and later listings count it as skipped instead of listing it.
   */
  dropSummary(id: string): Promise<StorageResult>;
  /** Import: clears everything and writes the lists in one transaction: all or nothing. */
  replaceAll(conversations: readonly Conversation[], projects?: readonly Project[]): Promise<StorageResult>;
  /** Every stored project (domain/projects.ts); unreadable records are skipped. */
  listProjects(): Promise<Listing<Project>>;
  /**
   * Read-modify-write of a project in one transaction, as `update` is for a conversation: its
   * staged files are stored with it (owned by the project's id) and stored ones it no longer
   * lists are deleted.
   */
  updateProject(
    id: string,
    change: (stored: Project | undefined) => Project | undefined,
  ): Promise<{ result: StorageResult; value: Project | undefined; changed: boolean }>;
  /** A project and its files; its conversations are the caller's to delete. */
  deleteProject(id: string): Promise<StorageResult>;
  /**
   * Holds a file's bytes until a write of a conversation that refers to it (by an attachment
   * part) stores them, in that write's transaction. `update` (whose copy is read in the same
   * transaction) also deletes the stored files the conversation no longer refers to; `put` and
   * `putMany` only add (a plain write may be an older copy, written as a tab closes). Deleting a
   * conversation deletes its files. So a crash at any point leaves neither a file without its
   * message nor a message without its file.
   */
  stageAttachment(id: string, blob: Blob): void;
  /** Lets go of staged bytes no write will refer to (a preview a newer one replaced); stored files stay. */
  dropStagedAttachment(id: string): void;
  /** A file's bytes, stored or staged; undefined when there are none. */
  readAttachment(id: string): Promise<Blob | undefined>;
  close(): void;
}

export interface UpdateResult {
  result: StorageResult;
  /** The conversation as `change` left it (the stored copy when nothing changed). */
  value: Conversation | undefined;
  changed: boolean;
}

export type StoredRead =
  { status: 'ok'; conversation: Conversation } | { status: 'missing' } | { status: 'unreadable' };

/** A stored record as a conversation, or null when it fails the shape check. */
export function readStoredConversation(value: unknown): Conversation | null {
  const result = validateConversation(value, 'record', {
    now: new Date(),
    fallbackProvider: defaultConfig.provider,
  });
  return result.ok ? result.value : null;
}
