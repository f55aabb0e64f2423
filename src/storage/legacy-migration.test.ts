import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { legacyRecord, linearConversation } from '../domain/__fixtures__/conversations.ts';
import { openConversationDb, type ConversationStore } from './conversation-db.ts';
import { migrateLegacyConversations } from './legacy-migration.ts';
import { createMemoryConversationStore } from './memory-conversation-store.ts';
import { createMemoryStorage } from './test-storage.ts';

/** A copy without the given keys, to build files that lack fields. */
function without(value: object, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

const legacyKey = 'ai-chat-conversations';
const now = new Date('2024-06-01T12:00:00.000Z');
let count = 0;
const opened: ConversationStore[] = [];

async function openStore(): Promise<ConversationStore> {
  count += 1;
  const store = await openConversationDb({ name: `legacy-migration-test-${count}-${Date.now()}` });
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  vi.restoreAllMocks();
});

/** A conversation as it reads once migrated: a chain at list position `order`. */
function conversation(id: string, updatedAt: string, content = 'hi', order = 0) {
  return linearConversation(id, [content], { updatedAt, order });
}

const one = conversation('one', '2024-01-02T00:00:00.000Z');
const two = conversation('two', '2024-01-03T00:00:00.000Z', 'hi', 1);
/** The legacy localStorage value: the first release's written form, without ids or positions. */
function legacyList(...conversations: ReturnType<typeof conversation>[]): string {
  return JSON.stringify(conversations.map(legacyRecord));
}

describe('migrateLegacyConversations', () => {
  it('moves legacy conversations into the store and removes the key after verifying', async () => {
    const store = await openStore();
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one, two) });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({ migrated: 2 });
    expect((await store.getAll()).items).toEqual([one, two]);
    expect(storage.values.has(legacyKey)).toBe(false);
  });

  it('keeps the legacy list order, whatever the creation times, and gives the same ids each run', async () => {
    const late = linearConversation('late', ['first in the list'], { createdAt: '2024-03-01T00:00:00.000Z' });
    const early = linearConversation('early', ['second', 'reply'], { createdAt: '2024-02-01T00:00:00.000Z' });
    const raw = legacyList(late, early);
    const store = await openStore();
    expect(await migrateLegacyConversations(store, createMemoryStorage({ [legacyKey]: raw }), now)).toEqual({
      migrated: 2,
    });
    const { items } = await store.listSummaries();
    expect(items.map((item) => [item.id, item.order])).toEqual([
      ['late', 0],
      ['early', 1],
    ]);
    expect(await store.get('early')).toEqual({ ...early, order: 1 });
    const again = await openStore();
    await migrateLegacyConversations(again, createMemoryStorage({ [legacyKey]: raw }), now);
    expect(await again.get('early')).toEqual(await store.get('early'));
  });

  it('of duplicates keeps the newest content at the first one’s position', async () => {
    const store = await openStore();
    const newer = conversation('one', '2024-05-01T00:00:00.000Z', 'newer text');
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one, two, newer) });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({ migrated: 2 });
    expect(await store.get('one')).toEqual(newer);
    expect((await store.getAll()).items.map((item) => item.id)).toEqual(['one', 'two']);
  });

  it('is idempotent', async () => {
    const store = await openStore();
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one) });
    await migrateLegacyConversations(store, storage, now);
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({ migrated: 0 });
    expect((await store.getAll()).items).toEqual([one]);
  });

  it('does nothing without legacy data', async () => {
    const store = await openStore();
    expect(await migrateLegacyConversations(store, createMemoryStorage(), now)).toEqual({ migrated: 0 });
  });

  it('fills legacy gaps: provider from the saved config, missing timestamps with now', async () => {
    const store = await openStore();
    const bare = without(legacyRecord(one), 'provider', 'createdAt', 'updatedAt');
    const storage = createMemoryStorage({
      [legacyKey]: JSON.stringify([bare]),
      'ai-chat-config': JSON.stringify({ apiKey: 'k', endpoint: 'https://e', deploymentName: 'd' }),
    });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({ migrated: 1 });
    expect(await store.get('one')).toMatchObject({
      provider: 'azure',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
  });

  it('does not overwrite a newer record with the same id', async () => {
    const store = await openStore();
    const newer = conversation('one', '2024-05-01T00:00:00.000Z', 'newer text');
    await store.put(newer);
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one, two) });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({ migrated: 1 });
    expect(await store.get('one')).toEqual(newer);
    expect(await store.get('two')).toEqual(two);
    expect(storage.values.has(legacyKey)).toBe(false);
  });

  it('leaves the key in place for invalid JSON', async () => {
    const store = await openStore();
    const storage = createMemoryStorage({ [legacyKey]: '[{"id":' });
    const result = await migrateLegacyConversations(store, storage, now);
    expect(result).toMatchObject({ migrated: 0, problem: expect.stringContaining('is not valid JSON') });
    expect(storage.values.get(legacyKey)).toBe('[{"id":');
  });

  it('leaves the key in place when the data is not a list', async () => {
    const store = await openStore();
    const storage = createMemoryStorage({ [legacyKey]: '{"id":"x"}' });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({
      migrated: 0,
      problem: 'ai-chat-conversations must be a list; the saved conversations were left in place',
    });
    expect(storage.values.has(legacyKey)).toBe(true);
  });

  it('moves the readable conversations but keeps the key when one is invalid', async () => {
    const store = await openStore();
    const raw = JSON.stringify([
      legacyRecord(one),
      { ...legacyRecord(two), messages: [{ role: 'robot', content: 'x' }] },
    ]);
    const storage = createMemoryStorage({ [legacyKey]: raw });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({
      migrated: 1,
      problem:
        'ai-chat-conversations[1].messages[0].role must be system, user or assistant; the saved conversations were left in place',
    });
    expect(storage.values.get(legacyKey)).toBe(raw);
    expect((await store.getAll()).items).toEqual([one]);
  });

  it('keeps the key when the write fails', async () => {
    const store = await openStore();
    vi.spyOn(store, 'putMany').mockResolvedValue({ ok: false, reason: 'quota', message: 'full' });
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one) });
    expect(await migrateLegacyConversations(store, storage, now)).toEqual({
      migrated: 0,
      problem: 'Could not move conversations: full',
    });
    expect(storage.values.has(legacyKey)).toBe(true);
  });

  it('keeps the key when a record does not read back as written', async () => {
    const store = await openStore();
    vi.spyOn(store, 'get')
      .mockResolvedValueOnce(undefined)
      .mockResolvedValue({ ...one, name: 'different' });
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one) });
    const result = await migrateLegacyConversations(store, storage, now);
    expect(result).toMatchObject({ problem: 'Conversation one did not read back as written' });
    expect(storage.values.has(legacyKey)).toBe(true);
  });

  it('keeps the key when the store is not persistent, but still shows the conversations', async () => {
    const store = createMemoryConversationStore();
    const storage = createMemoryStorage({ [legacyKey]: legacyList(one) });
    const result = await migrateLegacyConversations(store, storage, now);
    expect(result).toMatchObject({
      migrated: 1,
      problem: expect.stringContaining('IndexedDB is not available'),
    });
    expect(storage.values.has(legacyKey)).toBe(true);
    expect(await store.get('one')).toEqual(one);
  });
});
