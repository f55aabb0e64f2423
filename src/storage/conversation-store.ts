import type { Conversation } from '../domain/conversation.ts';
import type { ConversationSummary } from '../domain/conversation-summary.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
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
 * creation order (createdAt ascending, then id), the spec's list order. Writes report failures as
 * a StorageResult and never throw; reads reject only if the database itself fails.
 */
export interface ConversationStore {
  /** False for the in-memory fallback: nothing survives a reload. */
  readonly persistent: boolean;
  /** Sidebar rows without loading message bodies. */
  listSummaries(): Promise<Listing<ConversationSummary>>;
  /** Undefined when missing or corrupted. */
  get(id: string): Promise<Conversation | undefined>;
  /** Every conversation with its messages: for export. */
  getAll(): Promise<Listing<Conversation>>;
  /** Inserts or replaces one conversation (and its summary, in the same transaction). */
  put(conversation: Conversation): Promise<StorageResult>;
  /** Inserts or replaces several in one transaction: all or none. */
  putMany(conversations: readonly Conversation[]): Promise<StorageResult>;
  delete(id: string): Promise<StorageResult>;
  /** Import: clears everything and writes the list in one transaction: all or nothing. */
  replaceAll(conversations: readonly Conversation[]): Promise<StorageResult>;
  close(): void;
}

/** A stored record as a conversation, or null when it fails the shape check. */
export function readStoredConversation(value: unknown): Conversation | null {
  const result = validateConversation(value, 'record', { now: new Date(), fallbackProvider: 'openai' });
  return result.ok ? result.value : null;
}
