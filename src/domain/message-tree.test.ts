import { describe, expect, it } from 'vitest';
import {
  byIdOrder,
  idCounter,
  ids,
  message,
  minute,
  texts,
  toolCall,
  toolResult,
  treeConversation,
} from './__fixtures__/conversations.ts';
import { messageText, type Conversation, type Message } from './conversation.ts';
import { newMessage, setModelPin } from './conversation-rules.ts';
import {
  activePath,
  appendMessage,
  childrenOf,
  deleteSubtree,
  findMessage,
  forkPath,
  mergeConversations,
  newestLeafUnder,
  pathTo,
  replaceMessage,
  restoreSubtree,
  rootMessage,
  siblingsOf,
  subtreeOf,
  switchToMessage,
} from './message-tree.ts';

/**
 * root
 * └ u1 "Hi"
 *   ├ a1 "Hello"            (first reply)
 *   │ └ u2 "How are you?"
 *   │   └ a3 "Fine"
 *   └ a2 "Hey there"        (regenerated)
 *     └ u3 "A joke?"
 *       └ a4 "Knock knock"  (active leaf, the newest)
 */
const chat = treeConversation('c', [
  ['root', null, 'system', 'Be brief.'],
  ['u1', 'root', 'user', 'Hi'],
  ['a1', 'u1', 'assistant', 'Hello'],
  ['u2', 'a1', 'user', 'How are you?'],
  ['a3', 'u2', 'assistant', 'Fine'],
  ['a2', 'u1', 'assistant', 'Hey there'],
  ['u3', 'a2', 'user', 'A joke?'],
  ['a4', 'u3', 'assistant', 'Knock knock'],
]);

const later = new Date('2024-02-01T00:00:00.000Z');

/** What two copies agree on, whatever the order: each message as id and text. */
function idsAndTexts(conversation: Conversation): string[] {
  return conversation.messages.map((item) => `${item.id}=${messageText(item)}`).sort();
}

function reply(id: string, parentId: string, text: string, at: string, extra: Partial<Message> = {}) {
  return message(id, parentId, 'assistant', text, { createdAt: at, ...extra });
}

describe('paths', () => {
  it('pathTo gives the path from the root to a message, root first', () => {
    expect(ids(pathTo(chat, 'a3'))).toEqual(['root', 'u1', 'a1', 'u2', 'a3']);
    expect(ids(pathTo(chat, 'u1'))).toEqual(['root', 'u1']);
    expect(ids(pathTo(chat, 'root'))).toEqual(['root']);
    expect(pathTo(chat, 'nope')).toEqual([]);
  });

  it('pathTo defaults to the active leaf, and activePath is that path, computed once', () => {
    expect(ids(pathTo(chat))).toEqual(['root', 'u1', 'a2', 'u3', 'a4']);
    expect(activePath(chat)).toEqual(pathTo(chat));
    expect(activePath(chat)).toBe(activePath(chat));
    expect(ids(activePath({ ...chat, activeLeafId: 'a3' }))).toEqual(['root', 'u1', 'a1', 'u2', 'a3']);
  });

  it('stops at a cycle instead of looping', () => {
    const looped = treeConversation('l', [
      ['x', 'y', 'user', 'x'],
      ['y', 'x', 'assistant', 'y'],
    ]);
    expect(ids(pathTo(looped, 'y'))).toEqual(['x', 'y']);
  });

  it('finds messages and the root, whatever order the messages are listed in', () => {
    const shuffled = { ...chat, messages: [...chat.messages].reverse() };
    expect(rootMessage(shuffled)?.id).toBe('root');
    expect(findMessage(shuffled, 'u3')?.parentId).toBe('a2');
    expect(findMessage(shuffled, 'nope')).toBeUndefined();
    expect(ids(childrenOf(shuffled, 'u1'))).toEqual(['a1', 'a2']);
    expect(ids(childrenOf(shuffled, null))).toEqual(['root']);
    expect(childrenOf(shuffled, 'a4')).toEqual([]);
    expect(ids(activePath(shuffled))).toEqual(ids(activePath(chat)));
  });
});

describe('siblingsOf', () => {
  it('gives the versions of a message oldest first and its position', () => {
    const { siblings, index } = siblingsOf(chat, 'a2');
    expect(ids(siblings)).toEqual(['a1', 'a2']);
    expect(index).toBe(1);
    expect(siblingsOf(chat, 'a1').index).toBe(0);
  });

  it('gives a single version for a message without siblings, and none for an unknown id', () => {
    expect(siblingsOf(chat, 'u3')).toEqual({ siblings: [findMessage(chat, 'u3')], index: 0 });
    expect(siblingsOf(chat, 'root')).toEqual({ siblings: [rootMessage(chat)], index: 0 });
    expect(siblingsOf(chat, 'nope')).toEqual({ siblings: [], index: -1 });
  });

  it('orders versions created at the same time by id', () => {
    const tied = treeConversation('t', [
      ['root', null, 'system', ''],
      ['u1', 'root', 'user', 'Hi'],
      ['b', 'u1', 'assistant', 'B', { createdAt: minute(9) }],
      ['a', 'u1', 'assistant', 'A', { createdAt: minute(9) }],
    ]);
    expect(ids(siblingsOf(tied, 'b').siblings)).toEqual(['a', 'b']);
  });
});

describe('newestLeafUnder', () => {
  it('finds the most recently created leaf at or below a message', () => {
    expect(newestLeafUnder(chat, 'u1')).toBe('a4');
    expect(newestLeafUnder(chat, 'root')).toBe('a4');
    expect(newestLeafUnder(chat, 'a1')).toBe('a3');
    expect(newestLeafUnder(chat, 'a4')).toBe('a4');
    expect(newestLeafUnder(chat, 'nope')).toBe('nope');
  });

  it('goes by creation time, not by the order of the branches', () => {
    const followUp = reply('a5', 'u2', 'Still fine', minute(20));
    expect(newestLeafUnder(appendMessage(chat, followUp), 'u1')).toBe('a5');
  });
});

describe('appendMessage', () => {
  it('adds a child under the active leaf and makes it active, leaving the input untouched', () => {
    const question = newMessage('user', 'Another?', { id: 'u4', parentId: 'a4', now: later });
    const next = appendMessage(chat, question);
    expect(next.activeLeafId).toBe('u4');
    expect(ids(activePath(next))).toEqual(['root', 'u1', 'a2', 'u3', 'a4', 'u4']);
    expect(next.messages.slice(0, -1)).toEqual(chat.messages);
    next.messages.slice(0, -1).forEach((item, index) => expect(item).toBe(chat.messages[index]));
    expect(chat.activeLeafId).toBe('a4');
    expect(chat.messages).toHaveLength(8);
  });

  it('adds a sibling by appending under the same parent (regenerate)', () => {
    const regenerated = newMessage('assistant', 'Yo', { id: 'a9', parentId: 'u1', now: later });
    const next = appendMessage(chat, regenerated);
    expect(siblingsOf(next, 'a9')).toEqual({
      siblings: [...siblingsOf(chat, 'a1').siblings, regenerated],
      index: 2,
    });
    expect(ids(activePath(next))).toEqual(['root', 'u1', 'a9']);
    expect(newestLeafUnder(next, 'u1')).toBe('a9');
  });
});

describe('replaceMessage', () => {
  it('replaces the message with the same id, keeping the others and the active leaf', () => {
    const streaming = reply('a9', 'u1', 'Y', minute(30), { status: 'interrupted' });
    const started = appendMessage(chat, streaming);
    const grown = replaceMessage(started, { ...streaming, parts: [{ type: 'text', text: 'Yo there' }] });
    expect(grown.messages).toHaveLength(started.messages.length);
    expect(texts(activePath(grown))).toEqual(['Be brief.', 'Hi', 'Yo there']);
    expect(grown.activeLeafId).toBe('a9');
    expect(grown.messages.slice(0, -1)).toEqual(started.messages.slice(0, -1));
    expect(messageText(findMessage(started, 'a9') as Message)).toBe('Y');
  });

  it('returns the same conversation for an unknown id', () => {
    expect(replaceMessage(chat, reply('nope', 'u1', 'x', minute(1)))).toBe(chat);
  });
});

describe('switchToMessage', () => {
  it('shows another version: the active leaf becomes the newest leaf under it', () => {
    const switched = switchToMessage(chat, 'a1');
    expect(switched.activeLeafId).toBe('a3');
    expect(ids(activePath(switched))).toEqual(['root', 'u1', 'a1', 'u2', 'a3']);
    expect(switched.messages).toBe(chat.messages);
    expect(switchToMessage(switched, 'a2').activeLeafId).toBe('a4');
  });

  it('returns the same conversation when nothing changes or the id is unknown', () => {
    expect(switchToMessage(chat, 'a2')).toBe(chat);
    expect(switchToMessage(chat, 'a4')).toBe(chat);
    expect(switchToMessage(chat, 'nope')).toBe(chat);
  });
});

describe('subtreeOf', () => {
  it('gives the message first, then everything below it', () => {
    const subtree = subtreeOf(chat, 'a2');
    expect(subtree[0]?.id).toBe('a2');
    expect(ids(subtree).sort()).toEqual(['a2', 'a4', 'u3']);
    expect(ids(subtreeOf(chat, 'u1')).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'u1', 'u2', 'u3']);
    expect(ids(subtreeOf(chat, 'a4'))).toEqual(['a4']);
    expect(subtreeOf(chat, 'nope')).toEqual([]);
  });
});

describe('deleteSubtree', () => {
  it('removes the message and everything below it, and records it as deleted', () => {
    const pruned = deleteSubtree(chat, 'a2');
    expect(ids(pruned.messages)).toEqual(['root', 'u1', 'a1', 'u2', 'a3']);
    expect(pruned.deletedIds).toEqual(['a2']);
    expect(chat.messages).toHaveLength(8);
    expect(chat.deletedIds).toBeUndefined();
  });

  it('moves the active leaf to the newest remaining version when the shown one is deleted', () => {
    expect(deleteSubtree(chat, 'a2').activeLeafId).toBe('a3');
    const three = appendMessage(chat, reply('a5', 'u1', 'Hiya', minute(20)));
    const pruned = deleteSubtree(switchToMessage(three, 'a2'), 'a2');
    expect(pruned.activeLeafId).toBe('a5');
  });

  it('moves the active leaf to the parent when no version is left', () => {
    const pruned = deleteSubtree(chat, 'u3');
    expect(pruned.activeLeafId).toBe('a2');
    expect(pruned.deletedIds).toEqual(['u3']);
  });

  it('keeps the active leaf when another branch is deleted', () => {
    const pruned = deleteSubtree(chat, 'a1');
    expect(pruned.activeLeafId).toBe('a4');
    expect(ids(pruned.messages)).toEqual(['root', 'u1', 'a2', 'u3', 'a4']);
  });

  it('deletes the active leaf itself', () => {
    const pruned = deleteSubtree(chat, 'a4');
    expect(pruned.activeLeafId).toBe('u3');
    expect(ids(activePath(pruned))).toEqual(['root', 'u1', 'a2', 'u3']);
  });

  it('adds to earlier deletions', () => {
    expect(deleteSubtree(deleteSubtree(chat, 'a4'), 'a3').deletedIds).toEqual(['a4', 'a3']);
  });

  it('cannot delete the root, and ignores an unknown id', () => {
    expect(deleteSubtree(chat, 'root')).toBe(chat);
    expect(deleteSubtree(chat, 'nope')).toBe(chat);
  });
});

describe('restoreSubtree', () => {
  const removed = subtreeOf(chat, 'a2');
  const pruned = deleteSubtree(chat, 'a2');

  it('puts the subtree back under fresh ids, its old ids staying deleted, and shows what was shown', () => {
    const restored = restoreSubtree(pruned, removed, chat.activeLeafId, idCounter('r'));
    const back = restored.messages.slice(pruned.messages.length);
    expect(back).toHaveLength(3);
    expect(ids(back).sort()).toEqual(['r1', 'r2', 'r3']);
    expect(restored.deletedIds).toEqual(['a2']);
    expect(restored.messages.some((item) => ['a2', 'u3', 'a4'].includes(item.id))).toBe(false);
    expect(texts(activePath(restored))).toEqual(texts(activePath(chat)));
    expect(activePath(restored)[2]?.parentId).toBe('u1');
    expect(ids(siblingsOf(restored, activePath(restored)[2]?.id ?? '').siblings)[0]).toBe('a1');
    const restoredLeaf = activePath(restored).at(-1);
    expect(restored.activeLeafId).toBe(restoredLeaf?.id);
    expect(restoredLeaf).toMatchObject({ role: 'assistant', createdAt: findMessage(chat, 'a4')?.createdAt });
  });

  it('is not undone by a merge with the copy that saw the deletion', () => {
    const restored = restoreSubtree(pruned, removed, 'a4', idCounter('r'));
    const merged = mergeConversations(restored, pruned);
    expect(idsAndTexts(merged)).toEqual(idsAndTexts(restored));
    expect(mergeConversations(pruned, restored).messages).toHaveLength(restored.messages.length);
  });

  it('shows the newest leaf of the restored branch when the shown leaf was not in it', () => {
    const restored = restoreSubtree(pruned, removed, 'a3', idCounter('r'));
    expect(messageText(findMessage(restored, restored.activeLeafId) as Message)).toBe('Knock knock');
  });

  it('does nothing when the parent is gone, or for the root', () => {
    const orphaned = deleteSubtree(pruned, 'u1');
    expect(restoreSubtree(orphaned, removed, 'a4', idCounter())).toBe(orphaned);
    expect(restoreSubtree(chat, [rootMessage(chat) as Message], 'root', idCounter())).toBe(chat);
    expect(restoreSubtree(chat, [], 'root', idCounter())).toBe(chat);
  });
});

describe('forkPath', () => {
  it('makes a new conversation of the path from the root to the message, ending there', () => {
    const at = new Date('2024-06-01T00:00:00.000Z');
    const fork = forkPath({ ...chat, deletedIds: ['x'], renamedAt: minute(1) }, 'a1', {
      id: 'f',
      name: 'Fork',
      now: at,
      order: 9,
    });
    expect(fork).toEqual({
      id: 'f',
      name: 'Fork',
      messages: pathTo(chat, 'a1'),
      activeLeafId: 'a1',
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      provider: chat.provider,
      order: 9,
    });
    expect(ids(fork?.messages ?? [])).toEqual(['root', 'u1', 'a1']);
  });

  it('is undefined for an unknown message', () => {
    expect(forkPath(chat, 'nope', { id: 'f', name: 'F', now: later, order: 0 })).toBeUndefined();
  });
});

describe('mergeConversations', () => {
  it('keeps the later pin change, a removal included, and returns the same object when nothing changed', () => {
    const pinned = setModelPin(
      chat,
      { provider: 'claude', model: 'claude-opus-4-8' },
      new Date('2026-02-01T00:00:00.000Z'),
    );
    const unpinnedLater = setModelPin(pinned, null, new Date('2026-02-02T00:00:00.000Z'));
    expect(mergeConversations(pinned, unpinnedLater).pin).toBeUndefined();
    expect(mergeConversations(unpinnedLater, pinned).pin).toBeUndefined();
    const repinned = setModelPin(
      unpinnedLater,
      { provider: 'gemini', model: 'gemini-2.5-pro' },
      new Date('2026-02-03T00:00:00.000Z'),
    );
    expect(mergeConversations(pinned, repinned).pin).toEqual({ provider: 'gemini', model: 'gemini-2.5-pro' });
    expect(mergeConversations(chat, pinned).pin).toEqual({ provider: 'claude', model: 'claude-opus-4-8' });
    expect(mergeConversations(pinned, chat)).toBe(pinned);
  });

  it('takes the union of the messages of both copies', () => {
    const mine = appendMessage(chat, newMessage('user', 'Mine', { id: 'm', parentId: 'a4', now: later }));
    const theirs = appendMessage(
      switchToMessage(chat, 'a1'),
      newMessage('user', 'Theirs', { id: 't', parentId: 'a3', now: later }),
    );
    const merged = mergeConversations(mine, theirs);
    expect(ids(merged.messages).sort()).toEqual([...ids(chat.messages), 'm', 't'].sort());
    expect(merged.activeLeafId).toBe('m');
    expect(merged.messages[0]?.id).toBe('root');
  });

  describe('of two copies of one message', () => {
    const root = rootMessage(chat) as Message;

    it('keeps the later in-place edit, even if shorter', () => {
      const edited = { ...root, parts: [{ type: 'text' as const, text: 'Hi.' }], editedAt: minute(50) };
      const longer = {
        ...root,
        parts: [{ type: 'text' as const, text: 'A much longer prompt' }],
        editedAt: minute(40),
      };
      const a = replaceMessage(chat, edited);
      const b = replaceMessage(chat, longer);
      expect(messageText(rootMessage(mergeConversations(a, b)) as Message)).toBe('Hi.');
      expect(messageText(rootMessage(mergeConversations(b, a)) as Message)).toBe('Hi.');
      expect(messageText(rootMessage(mergeConversations(chat, a)) as Message)).toBe('Hi.');
    });

    it('keeps the longer text when neither was edited later (a reply grows as it streams)', () => {
      const a4 = findMessage(chat, 'a4') as Message;
      const grown = replaceMessage(chat, {
        ...a4,
        parts: [{ type: 'text', text: 'Knock knock. Who is there?' }],
      });
      expect(messageText(findMessage(mergeConversations(chat, grown), 'a4') as Message)).toBe(
        'Knock knock. Who is there?',
      );
      expect(messageText(findMessage(mergeConversations(grown, chat), 'a4') as Message)).toBe(
        'Knock knock. Who is there?',
      );
    });

    it('keeps the copy whose tools went further: arguments streamed, a result added (a reply growing)', () => {
      const a4 = findMessage(chat, 'a4') as Message;
      const steps: Message[] = [
        { ...a4, status: 'interrupted', parts: [...a4.parts, toolCall('c1', 'search', '{"q":')] },
        { ...a4, status: 'interrupted', parts: [...a4.parts, toolCall('c1', 'search', '{"q":"x"}')] },
        {
          ...a4,
          status: 'interrupted',
          parts: [...a4.parts, toolCall('c1', 'search', '{"q":"x"}'), toolResult('c1', 'search', '')],
        },
        {
          ...a4,
          status: 'interrupted',
          parts: [...a4.parts, toolCall('c1', 'search', '{"q":"x"}'), toolResult('c1', 'search', 'found')],
        },
        {
          ...a4,
          status: 'interrupted',
          parts: [
            ...a4.parts,
            toolCall('c1', 'search', '{"q":"x"}'),
            toolResult('c1', 'search', 'found'),
            { type: 'reasoning', text: 'So.' },
          ],
        },
      ];
      const copies = [chat, ...steps.map((step) => replaceMessage(chat, step))];
      copies.forEach((earlier, index) => {
        for (const later of copies.slice(index + 1)) {
          const newest = findMessage(later, 'a4');
          expect(findMessage(mergeConversations(earlier, later), 'a4')).toBe(newest);
          expect(findMessage(mergeConversations(later, earlier), 'a4')).toBe(newest);
        }
      });
    });

    it('keeps the finished one when the texts are as long', () => {
      const a4 = findMessage(chat, 'a4') as Message;
      const streaming = replaceMessage(chat, { ...a4, status: 'interrupted' });
      expect(findMessage(mergeConversations(streaming, chat), 'a4')).toBe(a4);
      expect(findMessage(mergeConversations(chat, streaming), 'a4')).toBe(a4);
      const stopped = replaceMessage(chat, { ...a4, status: 'stopped' });
      expect(findMessage(mergeConversations(streaming, stopped), 'a4')?.status).toBe('stopped');
    });
  });

  describe('deletions', () => {
    it('keeps a message deleted in either copy deleted, with its descendants', () => {
      const deleted = deleteSubtree(chat, 'a1');
      // The other copy has not seen the deletion and went on under the deleted branch.
      const stale = appendMessage(
        switchToMessage(chat, 'a1'),
        newMessage('user', 'More', { id: 'u9', parentId: 'a3', now: later }),
      );
      for (const merged of [mergeConversations(deleted, stale), mergeConversations(stale, deleted)]) {
        expect(ids(merged.messages).sort()).toEqual(['a2', 'a4', 'root', 'u1', 'u3']);
        expect(merged.deletedIds).toEqual(['a1']);
      }
    });

    it('unites the deletions of both copies', () => {
      const a = deleteSubtree(chat, 'a3');
      const b = deleteSubtree(chat, 'a4');
      const merged = mergeConversations(a, b);
      expect(merged.deletedIds?.sort()).toEqual(['a3', 'a4']);
      expect(ids(merged.messages).sort()).toEqual(['a1', 'a2', 'root', 'u1', 'u2', 'u3']);
    });
  });

  describe('the place in the list', () => {
    it('is the later change’s: pinned, archived, or put back', () => {
      const pinned = { ...chat, place: 'pinned' as const, placedAt: minute(10) };
      const archived = { ...chat, place: 'archived' as const, placedAt: minute(20) };
      const putBack = { ...chat, placedAt: minute(30) };
      expect(mergeConversations(pinned, archived)).toMatchObject({ place: 'archived', placedAt: minute(20) });
      expect(mergeConversations(archived, pinned)).toMatchObject({ place: 'archived', placedAt: minute(20) });
      expect(mergeConversations(archived, putBack).place).toBeUndefined();
      expect(mergeConversations(chat, pinned)).toMatchObject({ place: 'pinned' });
    });
  });

  describe('the name', () => {
    it('is the later rename’s', () => {
      const early = { ...chat, name: 'Early', renamedAt: minute(10) };
      const late = { ...chat, name: 'Late', renamedAt: minute(20) };
      expect(mergeConversations(early, late)).toMatchObject({ name: 'Late', renamedAt: minute(20) });
      expect(mergeConversations(late, early)).toMatchObject({ name: 'Late', renamedAt: minute(20) });
    });

    it('is a renamed copy’s over one never renamed', () => {
      const renamed = { ...chat, name: 'Renamed', renamedAt: minute(10) };
      expect(mergeConversations(chat, renamed)).toMatchObject({ name: 'Renamed', renamedAt: minute(10) });
      expect(mergeConversations(renamed, chat)).toMatchObject({ name: 'Renamed', renamedAt: minute(10) });
    });
  });

  describe('the last activity (the list order)', () => {
    it('is the later of the two copies’, an older copy telling its updatedAt', () => {
      const early = { ...chat, activeAt: minute(10) };
      const late = { ...chat, activeAt: minute(20) };
      expect(mergeConversations(early, late).activeAt).toBe(minute(20));
      expect(mergeConversations(late, early).activeAt).toBe(minute(20));
      const older = { ...chat, updatedAt: minute(30) };
      expect(mergeConversations(late, older).activeAt).toBe(minute(30));
      expect(mergeConversations(chat, chat).activeAt).toBeUndefined();
    });
  });

  describe('the active leaf', () => {
    it('is the primary’s, whatever the other copy shows', () => {
      const other = switchToMessage(chat, 'a1');
      expect(mergeConversations(chat, other).activeLeafId).toBe('a4');
      expect(mergeConversations(other, chat).activeLeafId).toBe('a3');
    });

    it('is the other’s when it went further down the same path', () => {
      const further = appendMessage(
        chat,
        newMessage('user', 'Go on', { id: 'u9', parentId: 'a4', now: later }),
      );
      expect(mergeConversations(chat, further).activeLeafId).toBe('u9');
      const above = switchToMessage(chat, 'a2');
      expect(mergeConversations({ ...chat, activeLeafId: 'u1' }, above).activeLeafId).toBe('a4');
    });

    it('when the primary’s is gone, is the newest leaf under its nearest surviving ancestor', () => {
      // The other copy added a second follow-up under a2, then deleted the one the primary shows.
      const other = deleteSubtree(
        appendMessage(chat, newMessage('user', 'Other', { id: 'u5', parentId: 'a2', now: later })),
        'u3',
      );
      const merged = mergeConversations(chat, other);
      expect(merged.activeLeafId).toBe('u5');
      const leafOnly = deleteSubtree(switchToMessage(chat, 'a1'), 'a3');
      expect(mergeConversations(switchToMessage(chat, 'a1'), leafOnly).activeLeafId).toBe('u2');
    });
  });

  describe('when nothing changes', () => {
    it('returns the very same primary object', () => {
      expect(mergeConversations(chat, chat)).toBe(chat);
      expect(mergeConversations(chat, structuredClone(chat))).toBe(chat);
      expect(mergeConversations(chat, switchToMessage(chat, 'a1'))).toBe(chat);
    });

    it('returns the primary for an older copy holding less', () => {
      const older = { ...deleteSubtree(chat, 'a2'), deletedIds: [] as string[], updatedAt: minute(-1) };
      expect(mergeConversations(chat, older)).toBe(chat);
    });

    it('returns the primary for an older copy that still holds a branch the primary deleted', () => {
      const deleted = deleteSubtree(chat, 'a2');
      const stale = { ...chat, updatedAt: minute(-1) };
      expect(mergeConversations(deleted, stale)).toBe(deleted);
    });

    it('returns equal content for an older copy that still holds a branch the primary deleted', () => {
      const deleted = deleteSubtree(chat, 'a2');
      const stale = { ...chat, updatedAt: minute(-1) };
      const merged = mergeConversations(deleted, stale);
      expect(byIdOrder(merged.messages)).toEqual(byIdOrder(deleted.messages));
      expect({ ...merged, messages: [] }).toEqual({ ...deleted, messages: [] });
    });
  });

  describe('two tabs at once', () => {
    // Both tabs show a2's branch; a1's branch is an older version.
    const base = { ...chat, updatedAt: minute(10) };

    // Tab A regenerates a2: a new version streams in under u1, saved as 'interrupted' meanwhile.
    const streamingFrame = reply('n', 'u1', 'Why did', minute(30), { status: 'interrupted' });
    const tabA = { ...appendMessage(base, streamingFrame), updatedAt: minute(30) };
    // Tab B, meanwhile, deletes the other branch, a1's.
    const tabB = { ...deleteSubtree(base, 'a1'), updatedAt: minute(31) };

    it('keeps A’s reply and drops only B’s deletion, in either order', () => {
      const intoA = mergeConversations(tabA, tabB);
      const intoB = mergeConversations(tabB, tabA);
      for (const merged of [intoA, intoB]) {
        expect(ids(merged.messages).sort()).toEqual(['a2', 'a4', 'n', 'root', 'u1', 'u3']);
        expect(messageText(findMessage(merged, 'n') as Message)).toBe('Why did');
        expect(merged.deletedIds).toEqual(['a1']);
        expect(ids(siblingsOf(merged, 'n').siblings)).toEqual(['a2', 'n']);
      }
      expect(intoA.activeLeafId).toBe('n');
      expect(intoB.activeLeafId).toBe('a4');
    });

    it('lets the reply go on growing, and ends with the finished one', () => {
      const seenByB = mergeConversations(tabB, tabA);
      const finished = replaceMessage(tabA, reply('n', 'u1', 'Why did the chicken', minute(30)));
      expect(messageText(findMessage(mergeConversations(seenByB, finished), 'n') as Message)).toBe(
        'Why did the chicken',
      );
      const done = mergeConversations(mergeConversations(finished, tabB), seenByB);
      expect(findMessage(done, 'n')).toEqual(reply('n', 'u1', 'Why did the chicken', minute(30)));
      expect(findMessage(done, 'a1')).toBeUndefined();
    });

    it('is commutative in the messages', () => {
      const finished = replaceMessage(tabA, reply('n', 'u1', 'Why did the chicken', minute(30)));
      const sameLength = replaceMessage(tabA, { ...streamingFrame, status: undefined });
      const pairs: [Conversation, Conversation][] = [
        [tabA, tabB],
        [finished, tabB],
        [tabA, finished],
        [tabA, sameLength],
        [chat, deleteSubtree(chat, 'u1')],
        [deleteSubtree(chat, 'a3'), deleteSubtree(chat, 'a2')],
        // Same length, same status, different text: a fixed choice either way.
        [
          replaceMessage(chat, {
            ...(findMessage(chat, 'a3') as Message),
            parts: [{ type: 'text', text: 'Good' }],
          }),
          chat,
        ],
      ];
      for (const [a, b] of pairs) {
        expect(idsAndTexts(mergeConversations(a, b))).toEqual(idsAndTexts(mergeConversations(b, a)));
        const statuses = (conversation: Conversation) =>
          byIdOrder(conversation.messages).map((item) => item.status);
        expect(statuses(mergeConversations(a, b))).toEqual(statuses(mergeConversations(b, a)));
      }
    });
  });
});
