import type { Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
import { defaultConfig } from '../domain/config.ts';
import { findMessage, mergeConversations } from '../domain/message-tree.ts';
import { CouchError, type CouchClient, type CouchDocument } from './couch-client.ts';

/**
 * Two-way replication of conversations with a CouchDB database (docs/sync.md). The app's own
 * storage stays the only copy on the device; each conversation is one document on the server,
 * written with its revision, so the server refuses a write that did not see the latest one (409)
 * and the write is merged and tried again. Every copy meets every other through the one merge two
 * tabs use (`mergeConversations`: a union by message id, less what was deleted), and conflicts a
 * server holds (from another replicating client) are resolved with it, deterministically, and the
 * losing revisions removed.
 */

/** The device's side: its stored conversations, and what the replicator may do to them. */
export interface LocalSide {
  read(id: string): Promise<Conversation | undefined>;
  /** Merges a copy from the server into the stored one (and the screen); false when declined (deleted here). */
  absorb(remote: Conversation): Promise<boolean>;
  /** Another device deleted it: deletion is final here too. */
  remove(id: string): Promise<void>;
  /** A reply streams in it here: it is neither sent nor rewritten until the reply ends. */
  streaming(id: string): boolean;
}

/** What the replicator remembers between runs (the caller stores it). */
export interface ReplicationMemory {
  /** The changes feed's position: the changes before it have been applied here. */
  since: string;
}

const prefix = 'conversation:';
export const documentIdOf = (conversationId: string) => `${prefix}${conversationId}`;
const conversationIdOf = (documentId: string) =>
  documentId.startsWith(prefix) ? documentId.slice(prefix.length) : null;

/** A conversation as the server's document holds it: its stored form, checked as storage checks. */
export function conversationOfDocument(document: CouchDocument): Conversation | null {
  const result = validateConversation(document['conversation'], 'record', {
    now: new Date(),
    fallbackProvider: defaultConfig.provider,
  });
  const id = conversationIdOf(document._id);
  return result.ok && result.value.id === id ? result.value : null;
}

function documentOf(conversation: Conversation, rev: string | undefined): CouchDocument {
  return {
    _id: documentIdOf(conversation.id),
    ...(rev && { _rev: rev }),
    type: 'conversation',
    conversation: conversationRecord(conversation),
  };
}

/**
 * Whether the server's copy already holds everything of `merged`. Each device keeps its own view
 * (its active branch), so the two are compared as seen from the server's branch: writing a copy
 * that differs only in view would have two devices answer each other's writes without end.
 */
function holdsAll(document: CouchDocument, copy: Conversation, merged: Conversation): boolean {
  if (!findMessage(merged, copy.activeLeafId)) return false;
  const asServerSees: Conversation = { ...merged, activeLeafId: copy.activeLeafId };
  if (copy.activeAt === undefined) delete asServerSees.activeAt;
  else asServerSees.activeAt = copy.activeAt;
  return JSON.stringify(conversationRecord(asServerSees)) === JSON.stringify(document['conversation']);
}

/** The copies in a fixed order (by revision), so every device folds them alike. */
function mergeAll(copies: readonly { rev: string; conversation: Conversation }[]): Conversation | undefined {
  const ordered = [...copies].sort((a, b) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0));
  return ordered.reduce<Conversation | undefined>(
    (merged, { conversation }) => (merged ? mergeConversations(merged, conversation) : conversation),
    undefined,
  );
}

export interface Replicator {
  /** Sends a conversation's stored copy (merged with the server's); false when it waits (streaming). */
  push(conversationId: string): Promise<boolean>;
  /**
   * Sends many conversations in a few requests (the first sync of a long history): the server's
   * copies read at once, merged, written in batches. What comes back refused (another device wrote
   * meanwhile) or waits (streaming) is returned, for `push` one by one.
   */
  pushMany(conversationIds: string[]): Promise<string[]>;
  /** Deletes a conversation on the server (a tombstone the other devices replicate). */
  pushDeletion(conversationId: string): Promise<void>;
  /** Applies the server's changes since the last pull; `waitMs` waits that long for one. How many were applied. */
  pull(options?: { waitMs?: number; signal?: AbortSignal }): Promise<number>;
}

/** How many times a write that lost a race (409) is merged and tried again. */
const attempts = 5;
/**
 * Documents read and written per request in a bulk send: 25 of the bench's conversations are
 * about 1.4 MB, whose JSON and request the page builds in well under a long task (100 were
 * 5.7 MB, one 40 to 90 ms task each).
 */
const batchSize = 25;

export function createReplicator({
  client,
  local,
  memory,
  remember,
}: {
  client: CouchClient;
  local: LocalSide;
  memory: ReplicationMemory;
  remember(memory: ReplicationMemory): void;
}): Replicator {
  /** The revision this device last wrote of each document: its echo in the feed is not applied again. */
  const written = new Map<string, string>();

  /** The server's copy with any conflicts resolved: the merge of every revision, the losers removed. */
  async function resolved(document: CouchDocument): Promise<CouchDocument> {
    const losing = document._conflicts ?? [];
    if (losing.length === 0 || !document._rev) return document;
    const copies = [{ rev: document._rev, document }];
    for (const rev of losing) {
      const copy = await client.get(document._id, { rev });
      if (copy) copies.push({ rev, document: copy });
    }
    const merged = mergeAll(
      copies.flatMap(({ rev, document: copy }) => {
        const conversation = conversationOfDocument(copy);
        return conversation ? [{ rev, conversation }] : [];
      }),
    );
    if (!merged) return document;
    const winner = documentOf(merged, document._rev);
    const results = await client.bulkDocs([
      winner,
      ...losing.map((rev) => ({ _id: document._id, _rev: rev, _deleted: true })),
    ]);
    const written = results.find((result) => result.id === document._id && 'rev' in result);
    return written && 'rev' in written ? { ...winner, _rev: written.rev } : document;
  }

  async function push(conversationId: string): Promise<boolean> {
    if (local.streaming(conversationId)) return false;
    const id = documentIdOf(conversationId);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const mine = await local.read(conversationId);
      if (!mine) return true;
      const remote = await client.get(id, { conflicts: true });
      // Deleted on another device: deletion is final, here too (it is not sent back to life).
      if (remote?._deleted) {
        await local.remove(conversationId);
        return true;
      }
      const current = remote && (await resolved(remote));
      const theirs = current ? conversationOfDocument(current) : null;
      const merged = theirs ? mergeConversations(mine, theirs) : mine;
      // What only the server had (another device's messages) is kept here too.
      if (theirs && !(await local.absorb(merged))) return true;
      if (current && theirs && holdsAll(current, theirs, merged)) return true;
      try {
        const rev = await client.put(documentOf(merged, remote?._rev));
        written.set(id, rev);
        return true;
      } catch (error) {
        if (!(error instanceof CouchError && error.reason === 'conflict')) throw error;
      }
    }
    throw new CouchError(
      'The server kept changing this conversation: it will be sent again.',
      409,
      'conflict',
    );
  }

  async function pushMany(conversationIds: string[]): Promise<string[]> {
    const left: string[] = [];
    for (let start = 0; start < conversationIds.length; start += batchSize) {
      const batch = conversationIds.slice(start, start + batchSize);
      const remote = await client.getMany(batch.map(documentIdOf));
      const documents: CouchDocument[] = [];
      for (const conversationId of batch) {
        if (local.streaming(conversationId)) {
          left.push(conversationId);
          continue;
        }
        const mine = await local.read(conversationId);
        if (!mine) continue;
        const theirs = remote.get(documentIdOf(conversationId));
        if (theirs?._deleted) {
          await local.remove(conversationId);
          continue;
        }
        // A conflict the server holds is resolved one by one.
        if (theirs?._conflicts?.length) {
          left.push(conversationId);
          continue;
        }
        const copy = theirs ? conversationOfDocument(theirs) : null;
        const merged = copy ? mergeConversations(mine, copy) : mine;
        if (copy && !(await local.absorb(merged))) continue;
        if (theirs && copy && holdsAll(theirs, copy, merged)) continue;
        documents.push(documentOf(merged, theirs?._rev));
      }
      if (documents.length === 0) continue;
      for (const result of await client.bulkDocs(documents)) {
        const conversationId = conversationIdOf(result.id);
        if ('rev' in result) written.set(result.id, result.rev);
        else if (conversationId !== null) left.push(conversationId);
      }
    }
    return left;
  }

  async function pushDeletion(conversationId: string): Promise<void> {
    const id = documentIdOf(conversationId);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const remote = await client.get(id);
      if (!remote?._rev || remote._deleted) return;
      try {
        written.set(id, await client.put({ _id: id, _rev: remote._rev, _deleted: true }));
        return;
      } catch (error) {
        if (!(error instanceof CouchError && error.reason === 'conflict')) throw error;
      }
    }
  }

  async function pull({
    waitMs = 0,
    signal,
  }: { waitMs?: number; signal?: AbortSignal } = {}): Promise<number> {
    const { results, lastSeq } = await client.changes(memory.since, { waitMs, signal });
    let applied = 0;
    for (const change of results) {
      const conversationId = conversationIdOf(change.id);
      if (conversationId === null) continue;
      if (change.deleted) {
        await local.remove(conversationId);
        applied++;
        continue;
      }
      if (!change.doc || written.get(change.id) === change.doc._rev) continue;
      // Streaming here: the reply's end sends it, merged with this copy then.
      if (local.streaming(conversationId)) continue;
      const conversation = conversationOfDocument(await resolved(change.doc));
      if (conversation && (await local.absorb(conversation))) applied++;
    }
    memory = { since: lastSeq };
    remember(memory);
    return applied;
  }

  return { push, pushMany, pushDeletion, pull };
}
