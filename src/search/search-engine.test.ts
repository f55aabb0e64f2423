import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { linearConversation, treeConversation } from '../domain/__fixtures__/conversations.ts';
import { renameConversation } from '../domain/conversation-rules.ts';
import type { Conversation, Message } from '../domain/conversation.ts';
import { replaceMessage } from '../domain/message-tree.ts';
import { textParts } from '../domain/conversation.ts';
import { createMemoryConversationStore } from '../storage/memory-conversation-store.ts';
import { openSnapshotStore, type IndexSnapshot, type SnapshotStore } from '../storage/search-snapshots.ts';
import { createSearchEngine, type SearchAnswer } from './search-engine.ts';

function memorySnapshots(): SnapshotStore & { saved: IndexSnapshot | undefined } {
  const snapshots = {
    saved: undefined as IndexSnapshot | undefined,
    load: async () => snapshots.saved,
    save: async (snapshot: IndexSnapshot) => {
      snapshots.saved = snapshot;
    },
    close: () => undefined,
  };
  return snapshots;
}

async function storeWith(...conversations: Conversation[]) {
  const store = createMemoryConversationStore();
  for (const conversation of conversations) await store.put(conversation);
  return store;
}

const ids = (answer: SearchAnswer | null) => answer?.results.map((result) => result.conversationId);
const named = (id: string, name: string, turns: string[]) => ({ ...linearConversation(id, turns), name });

describe('search engine', () => {
  it('finds names and message bodies with prefixes and typos, best first, and tells which message', async () => {
    const source = await storeWith(
      named('a', 'Sorting records', ['How do I sort records by score?', 'Use a stable sort.']),
      named('b', 'Travel plans', ['Trains from Lyon to Turin', 'The records of the timetable say 7:05.']),
      named('c', 'Cooking', ['A recipe for bread', 'Knead the dough.']),
    );
    const engine = createSearchEngine({ source, snapshots: memorySnapshots() });
    await engine.start();
    expect(engine.status()).toEqual({ state: 'ready', done: 3, total: 3 });

    expect(ids(await engine.search('records'))).toEqual(['a', 'b']);
    expect(ids(await engine.search('timet'))).toEqual(['b']); // prefix
    expect(ids(await engine.search('receipe'))).toEqual(['c']); // a typo
    expect(ids(await engine.search('stable sort'))).toEqual(['a']); // every word must match
    expect(ids(await engine.search('cooking'))).toEqual(['c']); // the name
    // Limited to some conversations (one project's), the total counts only those.
    expect(await engine.search('records', undefined, ['b', 'c'])).toMatchObject({ total: 1 });
    expect(ids(await engine.search('records', undefined, ['b', 'c']))).toEqual(['b']);
    expect(ids(await engine.search('records', undefined, []))).toEqual([]);

    const [travel] = (await engine.search('timetable'))?.results ?? [];
    expect(travel).toMatchObject({ conversationId: 'b', messageId: 'b:2' });
    expect(travel?.snippet).toContainEqual({ text: 'timetable', mark: true });
    const [cooking] = (await engine.search('cooking'))?.results ?? [];
    expect(cooking?.messageId).toBeUndefined();
    expect(cooking?.name).toEqual([{ text: 'Cooking', mark: true }]);
    expect(await engine.search('   ')).toEqual({ query: '   ', results: [], total: 0 });
  });

  it('finds a reply on a branch that is not shown, and archived conversations', async () => {
    const branched = treeConversation('t', [
      ['root', null, 'system', 'You are a helpful assistant.'],
      ['u', 'root', 'user', 'Name a colour'],
      ['old', 'u', 'assistant', 'Vermilion'],
      ['new', 'u', 'assistant', 'Blue'],
    ]);
    const source = await storeWith(branched, { ...named('x', 'Old', ['vermilion too']), place: 'archived' });
    const engine = createSearchEngine({ source, snapshots: memorySnapshots() });
    await engine.start();
    const answer = await engine.search('vermilion');
    const found = answer?.results.map(({ conversationId, messageId, place }) => ({
      conversationId,
      messageId,
      place,
    }));
    expect(found?.sort((a, b) => a.conversationId.localeCompare(b.conversationId))).toEqual([
      { conversationId: 't', messageId: 'old', place: undefined },
      { conversationId: 'x', messageId: 'x:1', place: 'archived' },
    ]);
  });

  it('reads only what changed since the saved index, and forgets deleted conversations', async () => {
    const first = named('a', 'First', ['alpha question', 'alpha answer']);
    const second = named('b', 'Second', ['beta question']);
    const source = await storeWith(first, second);
    const snapshots = memorySnapshots();
    const engine = createSearchEngine({ source, snapshots });
    await engine.start();
    await engine.flush();
    expect(Object.keys(snapshots.saved?.keys ?? {}).sort()).toEqual(['a', 'b']);

    // Another session: one reply grew while streaming, one conversation was deleted, one is new.
    const reply = first.messages[2] as Message;
    const grown = replaceMessage(first, { ...reply, parts: textParts('alpha answer, gamma') });
    await source.put(grown);
    await source.delete('b');
    await source.put(named('c', 'Third', ['delta']));
    const read = vi.spyOn(source, 'get');
    const next = createSearchEngine({ source, snapshots });
    await next.start();
    expect(read.mock.calls.map(([id]) => id).sort()).toEqual(['a', 'c']);
    expect(ids(await next.search('gamma'))).toEqual(['a']);
    expect(ids(await next.search('beta'))).toEqual([]);
    expect(ids(await next.search('delta'))).toEqual(['c']);
  });

  it('follows saves announced while it runs, a rename too, reading them once after a pause', async () => {
    vi.useFakeTimers();
    try {
      const conversation = named('a', 'Conversation 1', ['first']);
      const source = await storeWith(conversation);
      const engine = createSearchEngine({ source, snapshots: memorySnapshots(), changeDelayMs: 1000 });
      await engine.start();
      await source.put(renameConversation(conversation, 'Holiday', new Date('2025-01-01T00:00:00Z')));
      const read = vi.spyOn(source, 'get');
      engine.changed();
      engine.changed();
      await vi.advanceTimersByTimeAsync(1000);
      expect(read).toHaveBeenCalledTimes(1);
      expect(ids(await engine.search('holiday'))).toEqual(['a']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers null to a query a newer one replaced', async () => {
    const source = await storeWith(named('a', 'A', ['words']));
    const engine = createSearchEngine({ source, snapshots: memorySnapshots() });
    await engine.start();
    expect(await engine.search('words', () => true)).toBeNull();
  });

  it('rebuilds from scratch when the saved index is of another format or unreadable', async () => {
    const source = await storeWith(named('a', 'A', ['kept words']));
    const older = memorySnapshots();
    const first = createSearchEngine({ source, snapshots: older });
    await first.start();
    await first.flush();
    // The same index saved by a release that indexed differently: its keys are not trusted.
    const saved = older.saved as IndexSnapshot;
    const otherFormat = memorySnapshots();
    otherFormat.saved = { ...saved, format: saved.format + 1 };
    const read = vi.spyOn(source, 'get');
    await createSearchEngine({ source, snapshots: otherFormat }).start();
    expect(read).toHaveBeenCalledWith('a');

    const broken = memorySnapshots();
    broken.saved = { format: saved.format, index: '{ not json', keys: { a: 'whatever' } };
    const engine = createSearchEngine({ source, snapshots: broken });
    await engine.start();
    expect(ids(await engine.search('kept'))).toEqual(['a']);
  });

  it("shows a conversation's place as listed now, and never saves a deleted one's words", async () => {
    const kept = named('a', 'Kept', ['shared words']);
    const source = await storeWith(kept, named('b', 'Gone', ['shared words and a secret']));
    const snapshots = memorySnapshots();
    const engine = createSearchEngine({ source, snapshots });
    await engine.start();
    expect(
      (await engine.search('shared'))?.results.find((result) => result.conversationId === 'a')?.place,
    ).toBeUndefined();
    await source.put({ ...kept, place: 'archived' });
    await source.delete('b');
    await engine.reconcile();
    const [result] = (await engine.search('shared'))?.results ?? [];
    expect(result).toMatchObject({ conversationId: 'a', place: 'archived' });
    await engine.flush();
    expect(snapshots.saved?.index).not.toContain('secret');
  });

  it('saves the index to IndexedDB and reads it back', async () => {
    const snapshots = await openSnapshotStore();
    expect(await snapshots.load()).toBeUndefined();
    await snapshots.save({ format: 1, index: '{}', keys: { a: 'k' } });
    expect(await snapshots.load()).toEqual({ format: 1, index: '{}', keys: { a: 'k' } });
    snapshots.close();
  });
});
