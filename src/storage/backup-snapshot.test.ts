import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  attachment,
  legacyRecord,
  linearConversation,
  withFiles,
} from '../domain/__fixtures__/conversations.ts';
import { defaultConfig, type Config } from '../domain/config.ts';
import type { Conversation, Message } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { summarizeConversation } from '../domain/conversation-summary.ts';
import { parseImport } from '../domain/export-format.ts';
import type { Project } from '../domain/projects.ts';
import { backupPolicy, backupsToDrop, openBackupDb, type BackupInfo } from './backup-db.ts';
import { backUp, type BackupRequest } from './backup-snapshot.ts';
import { openConversationDb, pendingUpgrade, type ConversationStore } from './conversation-db.ts';
import { storageKeys } from './keys.ts';

const config: Config = { ...defaultConfig, provider: 'openai', apiKey: 'sk-secret' };
const day = (date: number, hour = 10) => new Date(2026, 10, date, hour);
let count = 0;
const opened: ConversationStore[] = [];

afterEach(async () => {
  for (const store of opened.splice(0)) store.close();
  // Backups live in one database of a fixed name: each test starts without any.
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(storageKeys.backupDatabase.name);
    request.onsuccess = request.onerror = request.onblocked = resolve;
  });
});

async function conversationDb(...conversations: Conversation[]) {
  const name = `backup-test-${++count}`;
  const store = await openConversationDb({ name });
  opened.push(store);
  if (conversations.length > 0) await store.putMany(conversations);
  return { name, store };
}

function request(
  reason: BackupRequest['reason'],
  now: Date,
  extra: Partial<BackupRequest> = {},
): BackupRequest {
  return { reason, config, activeConversationId: 'b', now, ...extra };
}

/** The backup's export text, as Restore reads it. */
async function textOf(info: BackupInfo): Promise<string> {
  const db = await openBackupDb();
  const blob = await db?.read(info.id);
  db?.close();
  if (!blob) throw new Error('no backup data');
  return new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

async function listed(): Promise<BackupInfo[]> {
  const db = await openBackupDb();
  const list = (await db?.list()) ?? [];
  db?.close();
  return list;
}

const a = linearConversation('a', ['hello', 'hi there'], { name: 'First', order: 1 });
const b = linearConversation('b', ['question'], { name: 'Second', order: 0 });

describe('backUp', () => {
  it('writes everything but the key as the export, in list order, with the files’ bytes', async () => {
    const withFile: Conversation = {
      ...a,
      messages: a.messages.map((message, index) =>
        index === 1 ? withFiles(message, attachment('f1', { size: 5 })) : message,
      ) as Message[],
    };
    const { name, store } = await conversationDb();
    store.stageAttachment('f1', new Blob(['bytes'], { type: 'image/png' }));
    await store.putMany([withFile, b]);

    const outcome = await backUp(request('daily', day(24)), { databaseName: name });
    expect(outcome).toMatchObject({ status: 'taken', info: { reason: 'daily', conversations: 2 } });
    const [info] = await listed();
    const text = await textOf(info as BackupInfo);
    expect(text).not.toContain('sk-secret');
    const parsed = parseImport(text, { now: day(25) });
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.data.conversations?.map((conversation) => conversation.name)).toEqual(['Second', 'First']);
    expect(parsed.data.activeConversationId).toBe('b');
    expect(parsed.data.configHasKey).toBe(false);
    expect(atob(parsed.data.files?.get('f1')?.data ?? '')).toBe('bytes');
    expect(info?.bytes).toBeLessThan(text.length);
  });

  it('takes one a day, and none when nothing changed since the newest', async () => {
    const { name, store } = await conversationDb(a, b);
    const options = { databaseName: name };
    expect((await backUp(request('daily', day(24, 9)), options)).status).toBe('taken');
    expect((await backUp(request('daily', day(24, 23)), options)).status).toBe('not-due');
    expect((await backUp(request('daily', day(25)), options)).status).toBe('unchanged');
    // The time it was taken is not part of the fingerprint; the configuration is.
    expect(
      (await backUp(request('daily', day(25), { config: { ...config, model: 'gpt-x' } }), options)).status,
    ).toBe('taken');
    await store.put({ ...b, name: 'Renamed' });
    expect((await backUp(request('daily', day(26)), options)).status).toBe('taken');
    expect((await listed()).map((info) => info.takenAt)).toEqual(
      [day(26), day(25), day(24, 9)].map((date) => date.toISOString()),
    );
  });

  it('takes none without conversations', async () => {
    const { name } = await conversationDb();
    expect((await backUp(request('manual', day(24)), { databaseName: name })).status).toBe('empty');
    expect(await listed()).toEqual([]);
  });

  it('holds the projects with their files’ bytes, and a change to one makes the next backup', async () => {
    const file = attachment('pf1', { kind: 'text', name: 'notes.md', mimeType: 'text/markdown', size: 5 });
    const project: Project = {
      id: 'p1',
      name: 'Research',
      instructions: 'Answer in French.',
      files: [file],
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    const { name, store } = await conversationDb();
    store.stageAttachment('pf1', new Blob(['notes'], { type: 'text/markdown' }));
    await store.updateProject('p1', () => project);
    await store.putMany([{ ...a, projectId: 'p1', projectAt: '2026-11-02T00:00:00.000Z' }]);
    const options = { databaseName: name };
    expect((await backUp(request('daily', day(24)), options)).status).toBe('taken');
    const [info] = await listed();
    const parsed = parseImport(await textOf(info as BackupInfo), { now: day(25) });
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.data.projects).toEqual([project]);
    expect(atob(parsed.data.files?.get('pf1')?.data ?? '')).toBe('notes');
    expect(parsed.data.conversations?.[0]?.projectId).toBe('p1');

    expect((await backUp(request('daily', day(25)), options)).status).toBe('unchanged');
    await store.updateProject('p1', (stored) => stored && { ...stored, instructions: 'In English.' });
    expect((await backUp(request('daily', day(26)), options)).status).toBe('taken');
  });

  it('takes one of projects without conversations', async () => {
    const { name, store } = await conversationDb();
    await store.updateProject('p1', () => ({
      id: 'p1',
      name: 'Empty',
      instructions: '',
      files: [],
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    }));
    expect(await backUp(request('daily', day(24)), { databaseName: name })).toMatchObject({
      status: 'taken',
      info: { conversations: 0 },
    });
  });

  it('keeps the newest within the count and size, and refuses one larger than the cap alone', async () => {
    const { name, store } = await conversationDb(a);
    const options = { databaseName: name, policy: { ...backupPolicy, keep: 2 } };
    for (const date of [20, 21, 22]) {
      await store.put({ ...a, name: `Day ${date}` });
      expect((await backUp(request('daily', day(date)), options)).status).toBe('taken');
    }
    expect((await listed()).map((info) => new Date(info.takenAt).getDate())).toEqual([22, 21]);
    await store.put({ ...a, name: 'Bigger' });
    expect(
      await backUp(request('manual', day(23)), { databaseName: name, policy: { keep: 5, maxBytes: 100 } }),
    ).toEqual({
      status: 'too-large',
      bytes: expect.any(Number),
    });
    expect(await listed()).toHaveLength(2);
  });

  it('backs up a database of an earlier version, and release 1’s list, without upgrading or creating anything', async () => {
    const name = `backup-test-${++count}`;
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('conversations', { keyPath: 'id' });
        db.createObjectStore('summaries', { keyPath: 'id' });
      },
    });
    await old.put('conversations', conversationRecord(a));
    await old.put('summaries', summarizeConversation(a));
    old.close();
    expect(await pendingUpgrade(indexedDB, name)).toBe(1);

    const legacy = [legacyRecord(b), legacyRecord(a), { not: 'a conversation' }];
    const outcome = await backUp(request('upgrade', day(24), { legacy }), { databaseName: name });
    expect(outcome).toMatchObject({ status: 'taken', info: { reason: 'upgrade', conversations: 2 } });
    const parsed = parseImport(await textOf((await listed())[0] as BackupInfo), { now: day(24) });
    expect(parsed.ok && parsed.data.conversations?.map((conversation) => conversation.name)).toEqual([
      'First',
      'Second',
    ]);
    expect(await pendingUpgrade(indexedDB, name)).toBe(1);

    const missing = `backup-test-${++count}`;
    expect(await pendingUpgrade(indexedDB, missing)).toBeNull();
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(missing);
    const current = await conversationDb(a);
    expect(await pendingUpgrade(indexedDB, current.name)).toBeNull();
  });
});

describe('backupsToDrop', () => {
  const info = (id: string, date: number, bytes: number): BackupInfo => ({
    id,
    takenAt: day(date).toISOString(),
    reason: 'daily',
    conversations: 1,
    bytes,
    fingerprint: id,
  });

  it('drops beyond the count, then the oldest while over the size', () => {
    const existing = [info('d1', 1, 10), info('d3', 3, 10), info('d2', 2, 10)];
    expect(backupsToDrop(existing, info('d4', 4, 10), { keep: 3, maxBytes: 100 })).toEqual(['d1']);
    expect(backupsToDrop(existing, info('d4', 4, 75), { keep: 5, maxBytes: 100 })).toEqual(['d1']);
    expect(backupsToDrop(existing, info('d4', 4, 95), { keep: 5, maxBytes: 100 })).toEqual([
      'd3',
      'd2',
      'd1',
    ]);
  });
});
