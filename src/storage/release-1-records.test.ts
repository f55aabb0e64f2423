import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { ids, linearConversation, texts } from '../domain/__fixtures__/conversations.ts';
import { messageText, type Conversation } from '../domain/conversation.ts';
import { systemPromptOf } from '../domain/conversation-rules.ts';
import { activePath, appendMessage } from '../domain/message-tree.ts';
import release1 from './__fixtures__/release-1-database.json';
import { openConversationDb, type ConversationStore } from './conversation-db.ts';

/**
 * The previous release's own IndexedDB records (conversations and summaries, as its storage code
 * wrote them), read by this release: nothing written before may be lost or changed in meaning.
 */

let count = 0;
const opened: ConversationStore[] = [];

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A database holding the release-1 records exactly, created as conversation-db.ts creates it. */
async function release1Database(): Promise<string> {
  count += 1;
  const name = `release-1-records-${count}-${Date.now()}`;
  const db = await openDB(name, 1, {
    upgrade(database) {
      database.createObjectStore('conversations', { keyPath: 'id' });
      database.createObjectStore('summaries', { keyPath: 'id' });
    },
  });
  const tx = db.transaction(['conversations', 'summaries'], 'readwrite');
  for (const record of release1.conversations) await tx.objectStore('conversations').put(record);
  for (const record of release1.summaries) await tx.objectStore('summaries').put(record);
  await tx.done;
  db.close();
  return name;
}

async function openRelease1(): Promise<ConversationStore> {
  const store = await openConversationDb({ name: await release1Database() });
  opened.push(store);
  return store;
}

async function readOk(store: ConversationStore, id: string): Promise<Conversation> {
  const read = await store.read(id);
  if (read.status !== 'ok') throw new Error(`${id} read as ${read.status}`);
  return read.conversation;
}

describe('release-1 IndexedDB records', () => {
  it('opens the database as it is, persistent', async () => {
    const store = await openRelease1();
    expect(store.persistent).toBe(true);
  });

  it('lists all three by creation time, their summaries kept', async () => {
    const store = await openRelease1();
    const listing = await store.listSummaries();
    expect(listing.skipped).toBe(0);
    expect(listing.items.map((item) => item.id)).toEqual(['c-3', 'c-1', 'c-2']);
    expect(listing.items.map((item) => [item.name, item.messageCount, item.provider])).toEqual([
      ['No system message', 1, 'gemini'],
      ['Trip planning', 5, 'openai'],
      ['Custom prompt', 3, 'claude'],
    ]);
    for (const item of listing.items) expect(item.order).toBe(Date.parse(item.createdAt));
    expect((await store.getAll()).items.map((item) => item.id)).toEqual(['c-3', 'c-1', 'c-2']);
  });

  it('reads c-1 whole, as a chain, its interrupted reply and error kept', async () => {
    const store = await openRelease1();
    const conversation = await readOk(store, 'c-1');
    expect(conversation).toEqual(
      linearConversation(
        'c-1',
        [
          'Plan a day in Lyon',
          '## Morning\n- Fourvière\n- Vieux Lyon',
          'And the evening?',
          { text: 'Dinner in a bouchon.', status: 'interrupted', error: 'Network error' },
        ],
        {
          name: 'Trip planning',
          createdAt: '2026-03-01T09:00:00.000Z',
          updatedAt: '2026-03-01T09:05:00.000Z',
          provider: 'openai',
          order: Date.parse('2026-03-01T09:00:00.000Z'),
        },
      ),
    );
    expect(ids(activePath(conversation))).toEqual(['c-1:0', 'c-1:1', 'c-1:2', 'c-1:3', 'c-1:4']);
    expect(conversation.activeLeafId).toBe('c-1:4');
  });

  it('reads c-2 with its own system prompt and its stopped reply', async () => {
    const store = await openRelease1();
    const conversation = await readOk(store, 'c-2');
    expect(systemPromptOf(conversation)).toBe('Answer in French.');
    expect(conversation).toEqual(
      linearConversation('c-2', ['Hello', { text: 'Bonjour', status: 'stopped' }], {
        system: 'Answer in French.',
        name: 'Custom prompt',
        createdAt: '2026-03-02T09:00:00.000Z',
        provider: 'claude',
        order: Date.parse('2026-03-02T09:00:00.000Z'),
      }),
    );
  });

  it('reads c-3, which has no system message, under an empty system root', async () => {
    const store = await openRelease1();
    const conversation = await readOk(store, 'c-3');
    expect(systemPromptOf(conversation)).toBe('');
    expect(texts(activePath(conversation))).toEqual(['', 'Unanswered question']);
    expect(activePath(conversation).map((item) => [item.id, item.parentId, item.role])).toEqual([
      ['c-3:root', null, 'system'],
      ['c-3:0', 'c-3:root', 'user'],
    ]);
    expect(conversation).toEqual(
      linearConversation('c-3', ['Unanswered question'], {
        system: null,
        name: 'No system message',
        createdAt: '2026-02-01T09:00:00.000Z',
        updatedAt: '2026-03-03T09:00:00.000Z',
        provider: 'gemini',
        order: Date.parse('2026-02-01T09:00:00.000Z'),
      }),
    );
  });

  it('keeps every message text, status and error of every record', async () => {
    const store = await openRelease1();
    for (const record of release1.conversations) {
      const conversation = await readOk(store, record.id);
      const written = activePath(conversation).filter((item) => item.id !== `${record.id}:root`);
      expect(
        written.map((item) => {
          const message: Record<string, unknown> = { role: item.role, content: messageText(item) };
          if (item.status) message.status = item.status;
          if (item.error !== undefined) message.error = item.error;
          return message;
        }),
      ).toEqual(record.messages);
      expect(conversation.messages).toHaveLength(activePath(conversation).length);
    }
  });

  it('reads the same ids twice, and from a second connection', async () => {
    const name = await release1Database();
    const store = await openConversationDb({ name });
    opened.push(store);
    const other = await openConversationDb({ name });
    opened.push(other);
    for (const id of ['c-1', 'c-2', 'c-3']) {
      const first = await readOk(store, id);
      expect(await readOk(store, id)).toEqual(first);
      expect(await readOk(other, id)).toEqual(first);
    }
  });

  it('round-trips a put, in the new form, keeping the list position', async () => {
    const store = await openRelease1();
    const conversation = await readOk(store, 'c-1');
    const question = {
      id: 'new-1',
      parentId: conversation.activeLeafId,
      role: 'user' as const,
      parts: [{ type: 'text' as const, text: 'Thanks' }],
      createdAt: '2026-03-05T00:00:00.000Z',
    };
    const next = { ...appendMessage(conversation, question), updatedAt: '2026-03-05T00:00:00.000Z' };
    expect(await store.put(next)).toEqual({ ok: true });
    expect(await readOk(store, 'c-1')).toEqual(next);
    expect(await readOk(store, 'c-1')).toEqual(next);
    const listing = await store.listSummaries();
    expect(listing.items.map((item) => item.id)).toEqual(['c-3', 'c-1', 'c-2']);
    expect(listing.items.find((item) => item.id === 'c-1')?.messageCount).toBe(6);
    const unchanged = await readOk(store, 'c-2');
    expect(await store.put(unchanged)).toEqual({ ok: true });
    expect(await readOk(store, 'c-2')).toEqual(unchanged);
  });
});
