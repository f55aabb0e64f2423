import { CouchError, type CouchClient, type CouchDocument } from './couch-client.ts';
import { plainSealer, type Sealer } from './sealing.ts';
import { documentId, fileAttachmentName, fileDocumentId, recordOf, type SyncedKind } from './synced-kinds.ts';

/**
 * Two-way replication with a CouchDB database (docs/sync.md). The app's own storage stays the
 * only copy on the device; each record (a conversation, a project, a prompt) is one document on
 * the server, written with its revision, so the server refuses a write that did not see the latest
 * one (409) and the write is merged and tried again. Every copy meets every other through its
 * kind's merge (the one two tabs use), and conflicts a server holds (from another replicating
 * client) are resolved with it, deterministically, and the losing revisions removed. A record's
 * files go before it, each a document of its own with the bytes as its attachment.
 */

/** The device's side of one kind: its stored records, and what the replicator may do to them. */
export interface LocalRecords<T> {
  kind: SyncedKind<T>;
  read(id: string): Promise<T | undefined>;
  /** Merges a copy from the server into the stored one (and the screen); false when declined (deleted here). */
  absorb(remote: T): Promise<boolean>;
  /** Another device deleted it: deletion is final here too. */
  remove(id: string): Promise<void>;
  /** A reply streams in it here: it is neither sent nor rewritten until the reply ends. */
  streaming(id: string): boolean;
}

/** The device's files: their bytes, by id. */
export interface LocalFiles {
  read(id: string): Promise<Blob | undefined>;
  /** Bytes from the server, held for the write of the record that refers to them. */
  stage(id: string, blob: Blob): void;
  /** Lets go of held bytes no write will store (their record was declined). */
  unstage(id: string): void;
  /** Whether the server is known to have it (sent from here, or found there). */
  onServer(id: string): boolean;
  markOnServer(id: string): void;
  /** Larger than the server takes: left out of sync, said on its message. */
  leftOut(id: string): void;
}

/** What the replicator remembers between runs (the caller stores it). */
export interface ReplicationMemory {
  /** The changes feed's position: the changes before it have been applied here. */
  since: string;
}

export interface Replicator {
  /**
   * Sends a record's stored copy (merged with the server's); false when it waits (streaming).
   * `revive`: this device deleted it on the server and has brought it back (an Undo): the
   * server's tombstone is written over rather than obeyed.
   */
  push(documentIdValue: string, options?: { revive?: boolean }): Promise<boolean>;
  /**
   * Sends many records in a few requests (the first sync of a long history): the server's copies
   * read at once, merged, written in batches. What comes back refused (another device wrote
   * meanwhile) or waits (streaming) is returned, for `push` one by one.
   */
  pushMany(documentIds: string[]): Promise<string[]>;
  /** Deletes a record on the server (a tombstone the other devices replicate). */
  pushDeletion(documentIdValue: string): Promise<void>;
  /** Applies the server's changes since the last pull; `waitMs` waits that long for one. How many were applied. */
  pull(options?: { waitMs?: number; signal?: AbortSignal }): Promise<number>;
}

/** The most a file synced is taken as (the largest the app keeps is a 32 MB PDF, plus sealing). */
const maxFileBytes = 40 * 1024 * 1024;
/** The most conflicting revisions of one document read to resolve them (each is a request). */
const maxConflicts = 50;

/** A document's conflicting revisions as a server gives them, checked and bounded. */
function conflictsOf(document: CouchDocument): string[] {
  const conflicts: unknown = document._conflicts;
  return Array.isArray(conflicts)
    ? conflicts.filter((rev): rev is string => typeof rev === 'string').slice(0, maxConflicts)
    : [];
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
  records,
  files,
  sealer = plainSealer,
  memory,
  remember,
}: {
  client: CouchClient;
  records: readonly LocalRecords<unknown>[];
  files: LocalFiles;
  sealer?: Sealer;
  memory: ReplicationMemory;
  remember(memory: ReplicationMemory): void;
}): Replicator {
  /** The revision this device last wrote of each document: its echo in the feed is not applied again. */
  const written = new Map<string, string>();
  const sides = new Map(records.map((side) => [side.kind.type, side]));

  function located(id: string): { side: LocalRecords<unknown>; id: string } | null {
    const record = recordOf(id);
    const side = record && sides.get(record.kind.type);
    return side && record ? { side, id: record.id } : null;
  }

  /** A document's record, read back with its kind's checks; null when it holds none readable here. */
  async function valueOf(side: LocalRecords<unknown>, id: string, document: CouchDocument): Promise<unknown> {
    const value = await sealer.open(document._id, document);
    return value === undefined ? null : side.kind.decode(value, id);
  }

  async function documentOf(side: LocalRecords<unknown>, value: unknown, rev: string | undefined) {
    const { kind } = side;
    const id = documentId(kind.type, kind.idOf(value));
    const document: CouchDocument = {
      _id: id,
      ...(rev && { _rev: rev }),
      ...(await sealer.seal(id, kind.type, kind.encode(value))),
    };
    return document;
  }

  /** Whether the server's copy already holds everything of `merged` (so it is not written again). */
  function holdsAll(side: LocalRecords<unknown>, theirs: unknown, merged: unknown): boolean {
    const { kind } = side;
    return (
      JSON.stringify(kind.encode(kind.asServerSees(merged, theirs))) === JSON.stringify(kind.encode(theirs))
    );
  }

  /** The server's copy with any conflicts resolved: the merge of every revision, the losers removed. */
  async function resolved(
    side: LocalRecords<unknown>,
    id: string,
    document: CouchDocument,
  ): Promise<CouchDocument> {
    const losing = conflictsOf(document);
    if (losing.length === 0 || !document._rev) return document;
    const copies = [{ rev: document._rev, document }];
    for (const rev of losing) {
      const copy = await client.get(document._id, { rev });
      if (copy) copies.push({ rev, document: copy });
    }
    // In a fixed order (by revision), so every device folds them alike.
    copies.sort((a, b) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0));
    let merged: unknown = null;
    for (const copy of copies) {
      const value = await valueOf(side, id, copy.document);
      if (value !== null) merged = merged === null ? value : side.kind.merge(merged, value);
    }
    if (merged === null) return document;
    const winner = await documentOf(side, merged, document._rev);
    const results = await client.bulkDocs([
      winner,
      ...losing.map((rev) => ({ _id: document._id, _rev: rev, _deleted: true })),
    ]);
    const result = results.find((entry) => entry.id === document._id && 'rev' in entry);
    return result && 'rev' in result ? { ...winner, _rev: result.rev } : document;
  }

  /** Sends the files a record refers to that the server does not have yet, before the record. */
  async function sendFiles(side: LocalRecords<unknown>, value: unknown): Promise<void> {
    for (const fileId of side.kind.files(value)) {
      if (files.onServer(fileId)) continue;
      const blob = await files.read(fileId);
      if (!blob) continue;
      try {
        await client.putAttachment(
          fileDocumentId(fileId),
          fileAttachmentName,
          await sealer.sealBytes(fileDocumentId(fileId), blob),
        );
        files.markOnServer(fileId);
      } catch (error) {
        if (!(error instanceof CouchError)) throw error;
        // There already (another device sent it, or this one before it forgot).
        if (error.reason === 'conflict') files.markOnServer(fileId);
        // Over the server's limit: left out, and said so on both sides.
        else if (error.status === 413) {
          files.leftOut(fileId);
          // The other devices learn it from a document without the bytes (nor its size: its message has that).
          await client.put({ _id: fileDocumentId(fileId), leftOut: true }).catch(() => undefined);
          files.markOnServer(fileId);
        } else throw error;
      }
    }
  }

  /** Fetches the files a record from the server refers to that are not here, held for its write. */
  async function receiveFiles(side: LocalRecords<unknown>, value: unknown): Promise<string[]> {
    const staged: string[] = [];
    for (const fileId of side.kind.files(value)) {
      if (await files.read(fileId)) continue;
      const blob = await client.getAttachment(fileDocumentId(fileId), fileAttachmentName);
      // No file the app keeps is larger (a PDF's 32 MB): a larger answer is not taken.
      if (blob && blob.size > maxFileBytes) continue;
      if (blob) {
        const bytes = await sealer.openBytes(fileDocumentId(fileId), blob);
        if (bytes) {
          files.stage(fileId, bytes);
          files.markOnServer(fileId);
          staged.push(fileId);
        }
        continue;
      }
      if ((await client.get(fileDocumentId(fileId)))?.['leftOut'] === true) files.leftOut(fileId);
    }
    return staged;
  }

  /** Takes in a record from the server: its files first, then the merge. */
  async function absorb(side: LocalRecords<unknown>, value: unknown): Promise<boolean> {
    const staged = await receiveFiles(side, value);
    const taken = await side.absorb(value);
    if (!taken) for (const fileId of staged) files.unstage(fileId);
    return taken;
  }

  async function push(id: string, { revive = false } = {}): Promise<boolean> {
    const found = located(id);
    if (!found) return true;
    const { side } = found;
    if (side.streaming(found.id)) return false;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const mine = await side.read(found.id);
      if (mine === undefined) return true;
      const held = await client.get(id, { conflicts: true });
      // A tombstone of this device's, undone here: written over (a write without a revision).
      const remote = revive && held?._deleted ? undefined : held;
      // Deleted on another device: deletion is final, here too (it is not sent back to life).
      if (remote?._deleted) {
        await side.remove(found.id);
        return true;
      }
      const current = remote && (await resolved(side, found.id, remote));
      const theirs = current ? await valueOf(side, found.id, current) : null;
      // A copy this device cannot read (a later version's, another key's) is not written over.
      if (current && theirs === null) return true;
      const merged = theirs !== null ? side.kind.merge(mine, theirs) : mine;
      // What only the server had (another device's work) is kept here too.
      if (theirs !== null && !(await absorb(side, merged))) return true;
      if (theirs !== null && holdsAll(side, theirs, merged)) return true;
      await sendFiles(side, merged);
      try {
        const rev = await client.put(await documentOf(side, merged, current?._rev));
        written.set(id, rev);
        return true;
      } catch (error) {
        if (!(error instanceof CouchError && error.reason === 'conflict')) throw error;
      }
    }
    throw new CouchError('The server kept changing this record: it will be sent again.', 409, 'conflict');
  }

  async function pushMany(ids: string[]): Promise<string[]> {
    const left: string[] = [];
    for (let start = 0; start < ids.length; start += batchSize) {
      const batch = ids.slice(start, start + batchSize);
      const remote = await client.getMany(batch);
      const documents: CouchDocument[] = [];
      for (const id of batch) {
        const found = located(id);
        if (!found) continue;
        const { side } = found;
        const theirs = remote.get(id);
        // Streaming, and conflicts the server holds, are for `push` one by one.
        if (side.streaming(found.id) || (theirs && conflictsOf(theirs).length > 0)) {
          left.push(id);
          continue;
        }
        const mine = await side.read(found.id);
        if (mine === undefined) continue;
        if (theirs?._deleted) {
          await side.remove(found.id);
          continue;
        }
        const copy = theirs ? await valueOf(side, found.id, theirs) : null;
        if (theirs && copy === null) continue;
        const merged = copy !== null ? side.kind.merge(mine, copy) : mine;
        if (copy !== null && !(await absorb(side, merged))) continue;
        if (copy !== null && holdsAll(side, copy, merged)) continue;
        await sendFiles(side, merged);
        documents.push(await documentOf(side, merged, theirs?._rev));
      }
      if (documents.length === 0) continue;
      for (const result of await client.bulkDocs(documents)) {
        if ('rev' in result) written.set(result.id, result.rev);
        else left.push(result.id);
      }
    }
    return left;
  }

  async function pushDeletion(id: string): Promise<void> {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const remote = await client.get(id, { conflicts: true });
      if (!remote?._rev || remote._deleted) return;
      // Every leaf: a conflicting revision left alive would win and bring the record back.
      const leaves = [remote._rev, ...conflictsOf(remote)];
      const results = await client.bulkDocs(leaves.map((rev) => ({ _id: id, _rev: rev, _deleted: true })));
      for (const result of results) if ('rev' in result) written.set(id, result.rev);
      if (!results.some((result) => 'error' in result)) return;
    }
  }

  async function pull({
    waitMs = 0,
    signal,
  }: { waitMs?: number; signal?: AbortSignal } = {}): Promise<number> {
    const { results, lastSeq } = await client.changes(memory.since, { waitMs, signal });
    let applied = 0;
    const wanted: string[] = [];
    for (const change of results) {
      const found = located(change.id);
      if (!found) continue;
      if (change.deleted) {
        // This device's own deletion coming back is not applied (an Undo may have followed it).
        if (written.get(change.id) === change.rev) continue;
        await found.side.remove(found.id);
        applied++;
      }
      // Not this device's own write coming back, nor a conversation streaming here (the reply's
      // end sends it, merged with this copy then): fetched, all at once.
      else if (written.get(change.id) !== change.rev && !found.side.streaming(found.id))
        wanted.push(change.id);
    }
    for (let start = 0; start < wanted.length; start += batchSize) {
      const batch = wanted.slice(start, start + batchSize);
      const documents = await client.getMany(batch);
      for (const id of batch) {
        const found = located(id);
        const document = documents.get(id);
        if (!found || !document || document._deleted) continue;
        const value = await valueOf(found.side, found.id, await resolved(found.side, found.id, document));
        if (value !== null && (await absorb(found.side, value))) applied++;
      }
    }
    memory = { since: lastSeq };
    remember(memory);
    return applied;
  }

  return { push, pushMany, pushDeletion, pull };
}
