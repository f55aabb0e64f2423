import { defaultConfig } from '../domain/config.ts';
import type { Conversation } from '../domain/conversation.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { openAsStored } from './conversation-db.ts';
import type { ConversationStore } from './conversation-store.ts';
import { storageKeys } from './keys.ts';
import { browserStorage, loadConfig, readLegacyList, type StorageLike } from './local-settings.ts';

/**
 * `migrated`: how many legacy conversations were written to the store. A `problem` means the
 * legacy key was kept, so nothing is lost and the next start tries again; the conversations that
 * could be read are in the store all the same.
 */
export type MigrationResult = { migrated: number } | { migrated: number; problem: string };

const legacyKey = storageKeys.conversations;

function isNewer(candidate: Conversation, than: Conversation): boolean {
  return Date.parse(candidate.updatedAt) > Date.parse(than.updatedAt);
}

/** Structural equality of JSON-like values: what was written must read back the same. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** The readable legacy conversations (the newest of any duplicates) and the first problem found. */
function readLegacy(parsed: unknown, now: Date, storage: StorageLike | undefined) {
  const valid = new Map<string, Conversation>();
  let problem: string | null = null;
  if (!Array.isArray(parsed)) return { valid, problem: `${legacyKey} must be a list` };
  const fallbackProvider = loadConfig(storage)?.provider ?? defaultConfig.provider;
  parsed.forEach((item: unknown, index) => {
    const result = validateConversation(item, `${legacyKey}[${index}]`, { now, fallbackProvider });
    if (!result.ok) {
      problem ??= result.problem;
      return;
    }
    const earlier = valid.get(result.value.id);
    // The list keeps the legacy order (the first release's "first one" is the first stored).
    const order = earlier?.order ?? index;
    if (!earlier || isNewer(result.value, earlier)) valid.set(result.value.id, { ...result.value, order });
  });
  return { valid, problem };
}

/**
 * Whether release 1's list holds a conversation the database does not have yet, which the start
 * is about to move (a backup is taken first). A list kept because some entry cannot be read does
 * not count again once the readable ones have moved.
 */
export async function legacyAwaitingMove(
  factory: IDBFactory | undefined = globalThis.indexedDB,
  storage: StorageLike | null = browserStorage(),
): Promise<boolean> {
  const list = readLegacyList(storage);
  if (!Array.isArray(list)) return false;
  const stored = new Set<IDBValidKey>();
  const db = factory ? await openAsStored(factory).catch(() => null) : null;
  if (db?.objectStoreNames.contains(storageKeys.database.conversationStore))
    for (const key of await db.getAllKeys(storageKeys.database.conversationStore)) stored.add(key);
  db?.close();
  return list.some((item) => {
    const id = isRecord(item) ? ownField(item, 'id') : undefined;
    return typeof id === 'string' && !stored.has(id);
  });
}

/**
 * Moves conversations from the legacy localStorage key into the store, once. The key is removed
 * only after every conversation reads back from a persistent store exactly as written; a record
 * already in the store that is newer than its legacy copy is left alone. Safe to run on every start.
 */
export async function migrateLegacyConversations(
  store: ConversationStore,
  storage: StorageLike | undefined = browserStorage() ?? undefined,
  now: Date = new Date(),
): Promise<MigrationResult> {
  let raw: string | null;
  try {
    raw = storage?.getItem(legacyKey) ?? null;
  } catch {
    return { migrated: 0 };
  }
  if (raw === null) return { migrated: 0 };

  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { migrated: 0, problem: `${legacyKey} is not valid JSON (${reason}); it was left in place` };
  }

  const { valid, problem } = readLegacy(parsed, now, storage);
  const toWrite: Conversation[] = [];
  const alreadyNewer: string[] = [];
  for (const conversation of valid.values()) {
    const existing = await store.get(conversation.id);
    if (existing && !isNewer(conversation, existing)) alreadyNewer.push(conversation.id);
    else toWrite.push(conversation);
  }

  const written = await store.putMany(toWrite);
  if (!written.ok) return { migrated: 0, problem: `Could not move conversations: ${written.message}` };

  for (const conversation of toWrite) {
    if (!sameJson(await store.get(conversation.id), conversation)) {
      return {
        migrated: toWrite.length,
        problem: `Conversation ${conversation.id} did not read back as written`,
      };
    }
  }
  for (const id of alreadyNewer) {
    if (!(await store.get(id))) return { migrated: toWrite.length, problem: `Conversation ${id} is missing` };
  }

  if (problem)
    return { migrated: toWrite.length, problem: `${problem}; the saved conversations were left in place` };
  if (!store.persistent) {
    return {
      migrated: toWrite.length,
      problem: 'IndexedDB is not available; the saved conversations were left in place',
    };
  }
  try {
    storage?.removeItem(legacyKey);
  } catch {
    // Removing failed: the next start migrates again, which changes nothing.
  }
  return { migrated: toWrite.length };
}
