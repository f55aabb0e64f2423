import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
import { defaultConfig } from '../domain/config.ts';
import { findMessage, mergeConversations } from '../domain/message-tree.ts';
import { readProject } from '../domain/project-validation.ts';
import { laterProject, type Project } from '../domain/projects.ts';
import { readPrompt, type Prompt } from '../domain/prompts.ts';

/**
 * What is replicated, kind by kind (docs/sync.md#what-is-replicated-and-how): each record is one
 * document, `{type}:{id}`, holding its stored form, read back with the checks storage uses (the
 * server's documents are as hostile as an imported file). Two copies meet through the rule two
 * tabs follow for that kind: conversations merge by message id, projects and prompts are won
 * whole by the later change.
 */
export interface SyncedKind<T> {
  type: string;
  idOf(value: T): string;
  /** The form the document holds (JSON). */
  encode(value: T): unknown;
  /** A document's value read back; null when it does not read as one with this id. */
  decode(value: unknown, id: string): T | null;
  /** The two copies as one; the same whichever side computes it. */
  merge(mine: T, theirs: T): T;
  /**
   * `merged` as the server's copy would hold it: what a device keeps for itself alone (which
   * branch it shows) left as the server has it, so a write that differs only in that is not made.
   */
  asServerSees(merged: T, theirs: T): T;
  /** The stored files it refers to (their bytes are documents of their own). */
  files(value: T): string[];
}

export const conversationKind: SyncedKind<Conversation> = {
  type: 'conversation',
  idOf: (conversation) => conversation.id,
  encode: conversationRecord,
  decode(value, id) {
    const result = validateConversation(value, 'record', {
      now: new Date(),
      fallbackProvider: defaultConfig.provider,
    });
    return result.ok && result.value.id === id ? result.value : null;
  },
  merge: mergeConversations,
  asServerSees(merged, theirs) {
    if (!findMessage(merged, theirs.activeLeafId)) return merged;
    const seen: Conversation = { ...merged, activeLeafId: theirs.activeLeafId };
    if (theirs.activeAt === undefined) delete seen.activeAt;
    else seen.activeAt = theirs.activeAt;
    return seen;
  },
  files: (conversation) => [...attachmentIds(conversation)],
};

export const projectKind: SyncedKind<Project> = {
  type: 'project',
  idOf: (project) => project.id,
  encode: (project) => project,
  decode(value, id) {
    const project = readProject(value);
    return project?.id === id ? project : null;
  },
  // The later change wins whole; on a tie the lesser JSON, so both sides pick the same one.
  merge: (mine, theirs) =>
    mine.updatedAt === theirs.updatedAt ? tieBreak(mine, theirs) : laterProject(mine, theirs),
  asServerSees: (merged) => merged,
  files: (project) => project.files.map((file) => file.id),
};

export const promptKind: SyncedKind<Prompt> = {
  type: 'prompt',
  idOf: (prompt) => prompt.id,
  encode: (prompt) => prompt,
  decode(value, id) {
    const prompt = readPrompt(value);
    return prompt?.id === id ? prompt : null;
  },
  merge: (mine, theirs) =>
    mine.updatedAt === theirs.updatedAt
      ? tieBreak(mine, theirs)
      : theirs.updatedAt > mine.updatedAt
        ? theirs
        : mine,
  asServerSees: (merged) => merged,
  files: () => [],
};

function tieBreak<T>(a: T, b: T): T {
  return JSON.stringify(a) <= JSON.stringify(b) ? a : b;
}

export const syncedKinds = [conversationKind, projectKind, promptKind] as const;

/** A document's id: its kind, then the record's id. */
export const documentId = (type: string, id: string) => `${type}:${id}`;

/** The kind and record id of a document id; null for a document that is not a record (a file, the encryption marker). */
export function recordOf(documentIdValue: string): { kind: SyncedKind<unknown>; id: string } | null {
  const colon = documentIdValue.indexOf(':');
  if (colon <= 0) return null;
  const type = documentIdValue.slice(0, colon);
  const kind = syncedKinds.find((known) => known.type === type) as SyncedKind<unknown> | undefined;
  return kind ? { kind, id: documentIdValue.slice(colon + 1) } : null;
}

/** A file's bytes: the attachment `data` of the document `file:{id}`. */
export const fileDocumentId = (fileId: string) => `file:${fileId}`;
export const fileAttachmentName = 'data';
