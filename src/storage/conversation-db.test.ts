import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  attachment,
  legacyRecord,
  linearConversation,
  message,
  withFiles,
  normalized,
  treeConversation,
  toolReply,
} from '../domain/__fixtures__/conversations.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import type { Conversation, Message } from '../domain/conversation.ts';
import type { Project } from '../domain/projects.ts';
import * as summaryModule from '../domain/conversation-summary.ts';
import { summarizeConversation } from '../domain/conversation-summary.ts';
import { appendMessage, deleteSubtree } from '../domain/message-tree.ts';
import { openConversationDb, type ConversationStore } from './conversation-db.ts';
import { storageKeys } from './keys.ts';

let dbCount = 0;
const opened: ConversationStore[] = [];

function uniqueName(): string {
  dbCount += 1;
  return `conversation-db-test-${dbCount}-${Date.now()}`;
}

async function open(name = uniqueName()): Promise<ConversationStore> {
  const store = await openConversationDb({ name });
  opened.push(store);
  return store;
}

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  vi.restoreAllMocks();
});

/** A conversation of `messages` messages (the system one included) at list position `order`. */
function conversation(id: string, order: number, messages = 1) {
  const turns = Array.from({ length: messages - 1 }, (_, index) => `message ${index}`);
  // Created in the opposite order to their positions: the list follows `order`, not the time.
  const createdAt = new Date(Date.UTC(2024, 0, 10 - order)).toISOString();
  return linearConversation(id, turns, { name: `Name ${id}`, createdAt, order });
}

const first = conversation('b', 1, 3);
const second = conversation('a', 2, 5);
const third = conversation('c', 3);
/** root -> u1 -> {a1, a2 -> u2 -> a3}, showing a1; one earlier branch deleted, renamed once. */
const branched = treeConversation(
  't',
  [
    ['root', null, 'system', 'Be brief.'],
    ['u1', 'root', 'user', 'hi'],
    ['a1', 'u1', 'assistant', 'hello', { provider: 'openai', model: 'gpt-4o' }],
    ['a2', 'u1', 'assistant', 'hey', { status: 'stopped' }],
    ['u2', 'a2', 'user', 'more'],
    ['a3', 'u2', 'assistant', 'partial', { status: 'interrupted', error: 'network' }],
  ],
  {
    name: 'Branches',
    renamedAt: '2024-01-01T00:30:00.000Z',
    deletedIds: ['old'],
    order: 4,
    activeLeafId: 'a1',
  },
);

describe('openConversationDb with IndexedDB', () => {
  it('is persistent and round-trips a conversation', async () => {
    const store = await open();
    expect(store.persistent).toBe(true);
    expect(await store.put(first)).toEqual({ ok: true });
    expect(await store.get('b')).toEqual(first);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('keeps data across connections', async () => {
    const name = uniqueName();
    const writer = await open(name);
    await writer.put(first);
    writer.close();
    const reader = await open(name);
    expect(await reader.get('b')).toEqual(first);
  });

  it('stores the written form and reads back every branch', async () => {
    const name = uniqueName();
    const store = await open(name);
    expect(await store.put(branched)).toEqual({ ok: true });
    const raw = await openDB(name);
    expect(await raw.get('conversations', 't')).toEqual(conversationRecord(branched));
    raw.close();
    const read = await store.read('t');
    expect(read.status).toBe('ok');
    if (read.status !== 'ok') return;
    expect(normalized(read.conversation)).toEqual(normalized(branched));
    const pruned = deleteSubtree(read.conversation, 'a2');
    await store.put(pruned);
    expect(normalized((await store.get('t')) ?? branched)).toEqual(normalized(pruned));
    expect((await store.get('t'))?.deletedIds).toEqual(['old', 'a2']);
  });

  it('reads a record without ids (the first release) as a chain, the same ids each time', async () => {
    const name = uniqueName();
    const store = await open(name);
    const raw = await openDB(name);
    await raw.put('conversations', legacyRecord(first));
    raw.close();
    const once = await store.get('b');
    expect(once).toEqual({ ...first, order: Date.parse(first.createdAt) });
    expect(await store.get('b')).toEqual(once);
  });

  it('lists summaries that match the records, in list order', async () => {
    const store = await open();
    await store.put(third);
    await store.put(branched);
    await store.put(first);
    await store.put(second);
    const listing = await store.listSummaries();
    expect(listing).toEqual({
      items: [first, second, third, branched].map(summarizeConversation),
      skipped: 0,
    });
    expect(listing.items.map((summary) => summary.messageCount)).toEqual([3, 5, 1, 6]);
    const all = await store.getAll();
    expect(all.items.map(normalized)).toEqual([first, second, third, branched].map(normalized));
    expect(all.skipped).toBe(0);
  });

  it('updates the summary with the record', async () => {
    const store = await open();
    await store.put(first);
    await store.put({ ...first, name: 'Renamed', updatedAt: '2024-02-01T00:00:00.000Z' });
    const [summary] = (await store.listSummaries()).items;
    expect(summary).toMatchObject({ id: 'b', name: 'Renamed', updatedAt: '2024-02-01T00:00:00.000Z' });
  });

  it('deletes record and summary together', async () => {
    const store = await open();
    await store.putMany([first, second]);
    expect(await store.delete('b')).toEqual({ ok: true });
    expect(await store.get('b')).toBeUndefined();
    expect((await store.listSummaries()).items.map((summary) => summary.id)).toEqual(['a']);
  });

  it('replaces everything atomically', async () => {
    const store = await open();
    await store.putMany([first, second]);
    expect(await store.replaceAll([third])).toEqual({ ok: true });
    expect((await store.getAll()).items).toEqual([third]);
    expect((await store.listSummaries()).items.map((summary) => summary.id)).toEqual(['c']);
  });

  it('keeps everything when a replaceAll fails midway', async () => {
    const store = await open();
    await store.putMany([first, second]);
    const uncloneable = { ...third, name: (() => 'x') as unknown as string };
    const result = await store.replaceAll([third, uncloneable]);
    expect(result).toMatchObject({ ok: false, reason: 'unknown' });
    expect((await store.getAll()).items).toEqual([first, second]);
    expect((await store.listSummaries()).items.map((summary) => summary.id)).toEqual(['b', 'a']);
  });

  it('skips and counts corrupted records', async () => {
    const name = uniqueName();
    const store = await open(name);
    await store.putMany([first, second]);
    const raw = await openDB(name);
    await raw.put('conversations', { id: 'broken', name: 5, messages: 'no' });
    await raw.put('summaries', { id: 'broken', name: 5 });
    await raw.put('conversations', { ...third, messages: [{ role: 'robot', content: 1 }] });
    raw.close();
    expect(await store.getAll()).toEqual({ items: [first, second], skipped: 2 });
    expect(await store.listSummaries()).toEqual({
      items: [first, second].map(summarizeConversation),
      skipped: 2,
    });
    expect(await store.get('broken')).toBeUndefined();
  });

  it('rebuilds a missing or broken summary from its record', async () => {
    const name = uniqueName();
    const store = await open(name);
    await store.putMany([first, second]);
    const raw = await openDB(name);
    await raw.delete('summaries', 'b');
    await raw.put('summaries', { id: 'a', messageCount: 'many' });
    await raw.put('summaries', summarizeConversation(third));
    raw.close();
    expect(await store.listSummaries()).toEqual({
      items: [first, second].map(summarizeConversation),
      skipped: 0,
    });
  });

  it('maps a quota failure to reason quota', async () => {
    const store = await open();
    const quota = new DOMException('full', 'QuotaExceededError');
    const { IDBObjectStore: Store } = globalThis;
    vi.spyOn(Store.prototype, 'put').mockImplementation(() => {
      throw quota;
    });
    expect(await store.put(first)).toMatchObject({ ok: false, reason: 'quota' });
    vi.restoreAllMocks();
    expect(await store.get('b')).toBeUndefined();
  });

  it('reports writes on a closed database as unavailable', async () => {
    const store = await open();
    store.close();
    expect(await store.put(first)).toMatchObject({ ok: false, reason: 'unavailable' });
  });
});

describe('update, read and dropSummary', () => {
  it('update changes the stored copy in one transaction; concurrent updates lose nothing', async () => {
    const name = uniqueName();
    const tabA = await open(name);
    const tabB = await open(name);
    await tabA.put(first);
    const question = message('b:3', 'b:2', 'user', 'next', { createdAt: first.createdAt });
    const withQuestion = appendMessage(first, question);
    // One tab renames while the other writes a message, both at once.
    const [rename, reply] = await Promise.all([
      tabB.update('b', (stored) => stored && { ...stored, name: 'Renamed' }),
      tabA.update('b', (stored) => stored && { ...appendMessage(first, question), name: stored.name }),
    ]);
    expect(rename).toMatchObject({ result: { ok: true }, changed: true });
    expect(reply).toMatchObject({ result: { ok: true }, changed: true });
    const stored = await tabA.get('b');
    expect(stored?.name).toBe('Renamed');
    expect(stored?.messages).toEqual(withQuestion.messages);
    expect(stored?.activeLeafId).toBe('b:3');
    const { items } = await tabB.listSummaries();
    expect(items).toEqual([summarizeConversation({ ...withQuestion, name: 'Renamed' })]);
  });

  it('update writes nothing when the change returns what it got', async () => {
    const store = await open();
    await store.put(first);
    const result = await store.update('b', (stored) => stored);
    expect(result).toEqual({ result: { ok: true }, value: first, changed: false });
    expect(await store.update('missing', () => undefined)).toEqual({
      result: { ok: true },
      value: undefined,
      changed: false,
    });
  });

  it('update ended by its signal before it commits writes nothing and holds up no later write', async () => {
    const store = await open();
    await store.put(first);
    const ending = new AbortController();
    const change = vi.fn((stored?: Conversation) => stored && { ...stored, name: 'From the update' });
    const updating = store.update('b', change, { signal: ending.signal });
    // The page goes: the update still waits on its read, and a plain write is issued after it.
    ending.abort();
    const writing = store.put({ ...first, name: 'From the put' });
    expect(await writing).toEqual({ ok: true });
    expect(await updating).toMatchObject({ result: { ok: false }, changed: false });
    expect(change).not.toHaveBeenCalled();
    expect((await store.get('b'))?.name).toBe('From the put');
    // Once committed, an update is not undone by its signal.
    const later = new AbortController();
    expect(await store.update('b', (stored) => stored && { ...stored, name: 'Kept' }, later)).toMatchObject({
      result: { ok: true },
      changed: true,
    });
    later.abort();
    expect((await store.get('b'))?.name).toBe('Kept');
  });

  it('update reports a failed write and still returns the new value', async () => {
    const store = await open();
    await store.put(first);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const renamed = { ...first, name: 'New' };
    const result = await store.update('b', () => renamed);
    expect(result).toEqual({
      result: { ok: false, reason: 'quota', message: 'Browser storage for this site is full' },
      value: renamed,
      changed: true,
    });
    vi.restoreAllMocks();
    expect((await store.get('b'))?.name).toBe(first.name);
  });

  it('read tells a missing record from an unreadable one; dropSummary unlists it', async () => {
    const name = uniqueName();
    const store = await open(name);
    await store.put(first);
    const raw = await openDB(name);
    await raw.put('conversations', { ...first, id: 'bad', messages: 'nope' });
    await raw.put('summaries', summarizeConversation({ ...first, id: 'bad' }));
    raw.close();
    expect(await store.read('b')).toEqual({ status: 'ok', conversation: first });
    expect(await store.read('bad')).toEqual({ status: 'unreadable' });
    expect(await store.read('none')).toEqual({ status: 'missing' });
    expect((await store.listSummaries()).items.map((item) => item.id)).toEqual(['b', 'bad']);
    expect(await store.dropSummary('bad')).toEqual({ ok: true });
    expect(await store.listSummaries()).toEqual({ items: [summarizeConversation(first)], skipped: 1 });
  });

  it('leaves a record of a later format alone as unreadable', async () => {
    const name = uniqueName();
    const store = await open(name);
    const raw = await openDB(name);
    const future = { ...conversationRecord(first), id: 'future', formatVersion: 3 };
    await raw.put('conversations', future);
    raw.close();
    expect(await store.read('future')).toEqual({ status: 'unreadable' });
    expect(await store.getAll()).toEqual({ items: [], skipped: 1 });
    expect(await store.listSummaries()).toEqual({ items: [], skipped: 1 });
  });

  it('falls back to memory when a database of the same name lacks our stores', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    const foreign = await openDB(name, storageKeys.database.version, {
      upgrade: (db) => db.createObjectStore('other'),
    });
    foreign.close();
    const store = await open(name);
    expect(store.persistent).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('Could not open IndexedDB'),
      expect.objectContaining({
        message: 'The database has no conversations or summaries or attachments or projects store',
      }),
    );
  });
});

describe('openConversationDb without IndexedDB', () => {
  it('falls back to memory with the same behaviour', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = await openConversationDb({ indexedDB: undefined });
    expect(store.persistent).toBe(false);
    expect(warn).toHaveBeenCalled();
    await store.putMany([third, first]);
    await store.put(second);
    expect((await store.listSummaries()).items.map((summary) => summary.id)).toEqual(['b', 'a', 'c']);
    const copy = await store.get('b');
    if (copy) copy.name = 'mutated outside';
    expect((await store.get('b'))?.name).toBe('Name b');
    await store.delete('a');
    expect(await store.replaceAll([second])).toEqual({ ok: true });
    expect(await store.getAll()).toEqual({ items: [second], skipped: 0 });
    expect(await store.read('a')).toEqual({ status: 'ok', conversation: second });
    expect(await store.read('b')).toEqual({ status: 'missing' });
    const renamed = await store.update('a', (stored) => stored && { ...stored, name: 'Renamed' });
    expect(renamed).toMatchObject({ result: { ok: true }, changed: true, value: { name: 'Renamed' } });
    expect((await store.get('a'))?.name).toBe('Renamed');
    expect(await store.update('a', (stored) => stored)).toMatchObject({ changed: false });
    expect(await store.dropSummary('a')).toEqual({ ok: true });
    await store.put(branched);
    expect(await store.get('t')).toEqual(branched);
    expect((await store.listSummaries()).items.map((summary) => [summary.id, summary.order])).toEqual([
      ['a', 2],
      ['t', 4],
    ]);
  });

  it('falls back to memory when opening fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing = {
      open: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    } as unknown as IDBFactory;
    const store = await openConversationDb({ indexedDB: failing });
    expect(store.persistent).toBe(false);
    expect(await store.put(first)).toEqual({ ok: true });
  });

  it('falls back to memory when opening stays blocked', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const name = uniqueName();
    // A connection that ignores versionchange blocks the deletion, and the deletion queues our open.
    const stubborn = await openDB(name, 1);
    const deletion = indexedDB.deleteDatabase(name);
    const store = await openConversationDb({ name, openTimeoutMs: 50 });
    expect(store.persistent).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('Could not open IndexedDB'),
      expect.objectContaining({ message: 'Opening the database took longer than 50 ms' }),
    );
    stubborn.close();
    await new Promise((resolve) => deletion.addEventListener('success', resolve));
  });
});

describe('attachments', () => {
  const file = (text: string) => new Blob([text], { type: 'image/png' });
  /** A conversation whose first user message carries files `f1` and `f2`, then a reply. */
  function withTwoFiles(id = 'files') {
    const base = linearConversation(id, ['look', 'seen']);
    const [root, user, reply] = base.messages as [Message, Message, Message];
    return {
      ...base,
      messages: [root, withFiles(user, attachment(`${id}-f1`), attachment(`${id}-f2`)), reply],
    };
  }

  async function memory(): Promise<ConversationStore> {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    return openConversationDb({ indexedDB: null });
  }

  describe.each([
    ['IndexedDB', () => open()],
    ['memory', memory],
  ])('%s', (_, make) => {
    it('stores staged files with the record that refers to them, and reads them back', async () => {
      const store = await make();
      const conversation = withTwoFiles();
      store.stageAttachment('files-f1', file('one'));
      store.stageAttachment('files-f2', file('two'));
      expect(await store.put(conversation)).toEqual({ ok: true });
      expect(await store.get('files')).toEqual(conversation);
      expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
      expect(await (await store.readAttachment('files-f2'))?.text()).toBe('two');
    });

    it('deletes the files of a deleted message, and of a deleted conversation', async () => {
      const store = await make();
      const conversation = withTwoFiles();
      store.stageAttachment('files-f1', file('one'));
      store.stageAttachment('files-f2', file('two'));
      await store.put(conversation);
      const other = withTwoFiles('other');
      store.stageAttachment('other-f1', file('three'));
      await store.put(other);

      const pruned = deleteSubtree(conversation, 'files:1');
      await store.update('files', () => pruned);
      expect(await store.readAttachment('files-f1')).toBeUndefined();
      expect(await store.readAttachment('files-f2')).toBeUndefined();

      await store.delete('other');
      expect(await store.readAttachment('other-f1')).toBeUndefined();
    });

    it('a plain put of an older copy (a tab closing) deletes no file', async () => {
      const store = await make();
      const older = linearConversation('files', ['look', 'seen']);
      store.stageAttachment('files-f1', file('one'));
      store.stageAttachment('files-f2', file('two'));
      await store.put(withTwoFiles());
      expect(await store.put(older)).toEqual({ ok: true });
      expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
    });

    it('a write that fails stores no file and keeps it staged: nothing is lost', async () => {
      const store = await make();
      store.stageAttachment('files-f1', file('one'));
      const uncloneable = { ...withTwoFiles(), name: (() => 'x') as unknown as string };
      expect(await store.put(uncloneable)).toMatchObject({ ok: false });
      expect(await store.get('files')).toBeUndefined();
      // Still there to show and to write again.
      expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
      expect(await store.put(withTwoFiles())).toEqual({ ok: true });
      expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
    });

    it("keeps a tool's images with the reply that holds them, and deletes them with it", async () => {
      const store = await make();
      const base = withTwoFiles();
      const asked = appendMessage(base, toolReply('files:r', 'files:1'));
      store.stageAttachment('files-f1', file('one'));
      store.stageAttachment('tool-img-1', file('map'));
      await store.put(asked);
      // A read-modify-write prunes what no message refers to: the tool's image is referred to.
      await store.update('files', (stored) => stored && { ...stored, name: 'Renamed' });
      expect(normalized((await store.get('files')) as Conversation)).toEqual(
        normalized({ ...asked, name: 'Renamed' }),
      );
      expect(await (await store.readAttachment('tool-img-1'))?.text()).toBe('map');

      await store.update('files', (stored) => stored && deleteSubtree(stored, 'files:r'));
      expect(await store.readAttachment('tool-img-1')).toBeUndefined();
      expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
    });

    it('replaceAll keeps only the files of what it writes', async () => {
      const store = await make();
      store.stageAttachment('files-f1', file('one'));
      await store.put(withTwoFiles());
      store.stageAttachment('new-f1', file('new'));
      expect(await store.replaceAll([withTwoFiles('new')])).toEqual({ ok: true });
      expect(await store.readAttachment('files-f1')).toBeUndefined();
      expect(await (await store.readAttachment('new-f1'))?.text()).toBe('new');
    });
  });

  it('a crash between the file and the record leaves neither: they are one transaction', async () => {
    const name = uniqueName();
    const store = await open(name);
    store.stageAttachment('files-f1', file('one'));
    // The summary, written last, cannot be cloned: the transaction aborts after the file's put.
    vi.spyOn(summaryModule, 'summarizeConversation').mockImplementationOnce(
      () => ({ id: 'files', broken: () => undefined }) as unknown as ReturnType<typeof summarizeConversation>,
    );
    expect(await store.put(withTwoFiles())).toMatchObject({ ok: false });
    store.close();
    const raw = await openDB(name);
    expect(await raw.getAllKeys('attachments')).toEqual([]);
    expect(await raw.getAllKeys('conversations')).toEqual([]);
    raw.close();
  });

  it('opens a database of the first version with its records, adding the file store', async () => {
    const name = uniqueName();
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('conversations', { keyPath: 'id' });
        db.createObjectStore('summaries', { keyPath: 'id' });
      },
    });
    await old.put('conversations', conversationRecord(first));
    await old.put('summaries', summarizeConversation(first));
    old.close();
    const store = await open(name);
    expect(store.persistent).toBe(true);
    expect((await store.getAll()).items).toEqual([first]);
    store.stageAttachment('files-f1', file('one'));
    expect(await store.put(withTwoFiles())).toEqual({ ok: true });
    expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
  });

  it('opens a database of the second version with its records and files, adding the project store', async () => {
    const name = uniqueName();
    const old = await openDB(name, 2, {
      upgrade(db) {
        db.createObjectStore('conversations', { keyPath: 'id' });
        db.createObjectStore('summaries', { keyPath: 'id' });
        db.createObjectStore('attachments', { keyPath: 'id' }).createIndex(
          'conversationId',
          'conversationId',
        );
      },
    });
    const two = withTwoFiles();
    await old.put('conversations', conversationRecord(two));
    await old.put('summaries', summarizeConversation(two));
    await old.put('attachments', { id: 'files-f1', conversationId: two.id, blob: file('one') });
    old.close();
    const store = await open(name);
    expect(store.persistent).toBe(true);
    expect((await store.getAll()).items).toEqual([two]);
    expect(await (await store.readAttachment('files-f1'))?.text()).toBe('one');
    expect(await store.listProjects()).toEqual({ items: [], skipped: 0 });
  });
});

describe('projects in the database', () => {
  const file = (text: string) => new Blob([text], { type: 'text/plain' });
  const project = (files: string[] = [], updatedAt = '2026-11-26T10:00:00.000Z'): Project => ({
    id: 'p1',
    name: 'Thesis',
    instructions: 'Cite.',
    files: files.map((id) => ({
      type: 'attachment',
      id,
      kind: 'text',
      name: `${id}.txt`,
      mimeType: 'text/plain',
      size: 3,
    })),
    createdAt: '2026-11-26T09:00:00.000Z',
    updatedAt,
  });

  it('are written with their files, which go when no longer listed or with the project', async () => {
    const store = await open(uniqueName());
    store.stageAttachment('pf1', file('one'));
    store.stageAttachment('pf2', file('two'));
    const written = await store.updateProject('p1', () => project(['pf1', 'pf2']));
    expect(written).toMatchObject({ result: { ok: true }, changed: true });
    expect((await store.listProjects()).items).toEqual([project(['pf1', 'pf2'])]);
    expect(await (await store.readAttachment('pf2'))?.text()).toBe('two');
    // A conversation's write never touches a project's files.
    await store.put(first);
    await store.update(first.id, (stored) => stored && { ...stored, name: 'renamed' });
    expect(await (await store.readAttachment('pf1'))?.text()).toBe('one');

    await store.updateProject('p1', (stored) => stored && { ...stored, files: stored.files.slice(0, 1) });
    expect(await store.readAttachment('pf2')).toBeUndefined();
    expect(await store.deleteProject('p1')).toEqual({ ok: true });
    expect((await store.listProjects()).items).toEqual([]);
    expect(await store.readAttachment('pf1')).toBeUndefined();
    expect((await store.getAll()).items.map((c) => c.name)).toEqual(['renamed']);
  });

  it('skip a damaged record, and are replaced with everything by an import', async () => {
    const name = uniqueName();
    const store = await open(name);
    await store.updateProject('p1', () => project());
    const raw = await openDB(name);
    await raw.put('projects', { id: 'broken', name: 7 });
    raw.close();
    expect(await store.listProjects()).toEqual({ items: [project()], skipped: 1 });
    expect(await store.replaceAll([second], [{ ...project(), id: 'p2' }])).toEqual({ ok: true });
    expect((await store.listProjects()).items.map((p) => p.id)).toEqual(['p2']);
    expect(await store.replaceAll([second])).toEqual({ ok: true });
    expect((await store.listProjects()).items).toEqual([]);
  });
});
