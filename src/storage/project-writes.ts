import type { Project } from '../domain/projects.ts';
import { readProject } from '../domain/project-validation.ts';
import { writeAll, type Database, type Staged, type WriteTransaction } from './conversation-db.ts';
import { storageKeys } from './keys.ts';
import type { StorageResult } from './result.ts';

const { attachmentStore, attachmentsByConversation, projectStore } = storageKeys.database;

// The writes of projects (conversation-db.ts loads them with the first one): the first screen
// only lists projects.

/** Writes a project with its staged files, and deletes the stored files it no longer lists. */
export async function putProject(
  tx: WriteTransaction,
  pending: Promise<unknown>[],
  project: Project,
  staged: Staged,
): Promise<string[]> {
  const files = tx.objectStore(attachmentStore);
  const wanted = new Set(project.files.map((file) => file.id));
  const stored = await files.index(attachmentsByConversation).getAllKeys(project.id);
  for (const id of stored) if (!wanted.has(id)) pending.push(files.delete(id));
  const written = [...wanted].filter((id) => staged.has(id));
  for (const id of written)
    pending.push(files.put({ id, conversationId: project.id, blob: staged.get(id) as Blob }));
  pending.push(tx.objectStore(projectStore).put(structuredClone(project)));
  return written;
}

/** Read-modify-write of a project in one transaction (ConversationStore.updateProject). */
export async function updateProject(
  db: Database,
  staged: Staged,
  id: string,
  change: (stored: Project | undefined) => Project | undefined,
) {
  let value: Project | undefined;
  let changed = false;
  const added: string[] = [];
  const result = await writeAll(db, async (tx, pending) => {
    const stored = readProject(await tx.objectStore(projectStore).get(id)) ?? undefined;
    const next = change(stored);
    value = next ?? stored;
    if (next !== undefined && next !== stored) {
      changed = true;
      added.push(...(await putProject(tx, pending, next, staged)));
    }
  });
  if (result.ok) for (const fileId of added) staged.delete(fileId);
  return { result, value, changed };
}

/** A project and its files (ConversationStore.deleteProject). */
export function deleteProject(db: Database, id: string): Promise<StorageResult> {
  return writeAll(db, async (tx, pending) => {
    pending.push(tx.objectStore(projectStore).delete(id));
    const files = tx.objectStore(attachmentStore);
    for (const fileId of await files.index(attachmentsByConversation).getAllKeys(id))
      pending.push(files.delete(fileId));
  });
}
