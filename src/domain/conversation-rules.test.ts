import { describe, expect, it } from 'vitest';
import { linearConversation, message, texts, treeConversation } from './__fixtures__/conversations.ts';
import { messageText, type Conversation } from './conversation.ts';
import {
  addMessage,
  lastCodeBlock,
  lastReply,
  markWritten,
  clearConversation,
  restoreCleared,
  conversationAsText,
  createConversation,
  isMarkdownLike,
  newMessage,
  pickActiveId,
  renameConversation,
  setSystemPrompt,
  systemPromptOf,
  visibleMessages,
} from './conversation-rules.ts';
import { activePath, appendMessage, mergeConversations } from './message-tree.ts';

const created = new Date('2024-03-01T10:00:00.000Z');
const later = new Date('2024-03-02T11:30:00.000Z');

function conversation(id: string, overrides: Partial<Conversation> = {}): Conversation {
  const fresh = createConversation({
    existingCount: 0,
    provider: 'openai',
    now: created,
    id,
    rootId: `${id}:0`,
  });
  return { ...fresh, ...overrides };
}

/** root -> u1 -> {a1 -> u2 -> a3, a2}: two versions of the first reply, the first one shown. */
const branched = treeConversation(
  'b',
  [
    ['root', null, 'system', 'Answer in French.'],
    ['u1', 'root', 'user', 'hi'],
    ['a1', 'u1', 'assistant', 'salut'],
    ['a2', 'u1', 'assistant', 'bonjour'],
    ['u2', 'a1', 'user', 'What is 2+2?'],
    ['a3', 'u2', 'assistant', 'Quatre'],
  ],
  { activeLeafId: 'a3' },
);

describe('createConversation', () => {
  it('names it after the count, starts with the root system message, stamps both times and the order', () => {
    expect(
      createConversation({ existingCount: 2, provider: 'claude', now: created, id: 'c3', rootId: 'r3' }),
    ).toEqual({
      id: 'c3',
      name: 'Conversation 3',
      messages: [
        {
          id: 'r3',
          parentId: null,
          role: 'system',
          parts: [{ type: 'text', text: 'You are a helpful assistant.' }],
          createdAt: '2024-03-01T10:00:00.000Z',
        },
      ],
      activeLeafId: 'r3',
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-03-01T10:00:00.000Z',
      provider: 'claude',
      order: created.getTime(),
    });
  });

  it('names the first one Conversation 1', () => {
    expect(conversation('a').name).toBe('Conversation 1');
  });

  it('orders a later one after an earlier one', () => {
    const first = createConversation({
      existingCount: 0,
      provider: 'openai',
      now: created,
      id: 'a',
      rootId: 'ra',
    });
    const second = createConversation({
      existingCount: 1,
      provider: 'openai',
      now: later,
      id: 'b',
      rootId: 'rb',
    });
    expect(second.order).toBeGreaterThan(first.order);
  });
});

describe('renameConversation', () => {
  it('trims the name, bumps updatedAt and records when it was renamed', () => {
    const renamed = renameConversation(conversation('a'), '  Trip plans ', later);
    expect(renamed.name).toBe('Trip plans');
    expect(renamed.updatedAt).toBe(later.toISOString());
    expect(renamed.renamedAt).toBe(later.toISOString());
    expect(renamed.createdAt).toBe(created.toISOString());
  });

  it.each(['', '   ', '\n\t'])('ignores the blank name %j and returns the same object', (name) => {
    const original = conversation('a');
    expect(renameConversation(original, name, later)).toBe(original);
  });

  it('returns the same object when the name does not change', () => {
    const original = conversation('a');
    expect(renameConversation(original, ' Conversation 1 ', later)).toBe(original);
  });

  it('keeps the messages and the tree untouched', () => {
    const renamed = renameConversation(branched, 'Greetings', later);
    expect(renamed.messages).toBe(branched.messages);
    expect(renamed.activeLeafId).toBe('a3');
  });
});

describe('clearConversation', () => {
  it('resets to the single root system message and bumps updatedAt', () => {
    const chatty = linearConversation('a', ['hi', 'hello']);
    const cleared = clearConversation(chatty, later);
    expect(cleared.messages).toEqual([message('a:0', null, 'system', 'You are a helpful assistant.')]);
    expect(cleared.messages[0]).toBe(chatty.messages[0]);
    expect(cleared.activeLeafId).toBe('a:0');
    expect(cleared.updatedAt).toBe(later.toISOString());
    expect(chatty.messages).toHaveLength(3);
  });

  it('remembers the root children as deleted, so an older copy cannot bring them back', () => {
    const cleared = clearConversation(branched, later);
    expect(cleared.deletedIds).toEqual(['u1']);
    expect(mergeConversations(cleared, branched).messages).toEqual(cleared.messages);
    expect(mergeConversations(branched, cleared).messages).toEqual(cleared.messages);
  });

  it('tombstones every version directly under the root, and adds to earlier deletions', () => {
    const twoFirstMessages = appendMessage(
      { ...branched, deletedIds: ['gone'] },
      newMessage('user', 'hello again', { id: 'u9', parentId: 'root', now: later }),
    );
    expect(clearConversation(twoFirstMessages, later).deletedIds).toEqual(['gone', 'u1', 'u9']);
  });

  it('records no deletion when there was nothing to clear', () => {
    const cleared = clearConversation(conversation('a'), later);
    expect(cleared).not.toHaveProperty('deletedIds');
    expect(cleared.messages).toEqual(conversation('a').messages);
  });

  it('gives a conversation read without a system message the default prompt, as a new one has', () => {
    const noSystem = linearConversation('a', ['hi'], { system: null });
    const cleared = clearConversation(noSystem, later);
    expect(cleared.messages).toEqual([
      { ...message('a:root', null, 'system', 'You are a helpful assistant.'), editedAt: later.toISOString() },
    ]);
  });

  it('resets a prompt the user set, empty or not, to the default one', () => {
    const emptied = setSystemPrompt(linearConversation('a', ['hi']), '', later);
    expect(systemPromptOf(clearConversation(emptied, later))).toBe('You are a helpful assistant.');
    const cleared = clearConversation(branched, later);
    expect(texts(cleared.messages)).toEqual(['You are a helpful assistant.']);
    expect(cleared.messages[0]).toMatchObject({ id: 'root', editedAt: later.toISOString() });
  });
});

describe('restoreCleared', () => {
  const evenLater = new Date('2024-03-02T12:00:00.000Z');
  let ids = 0;
  const newId = () => `new${(ids += 1)}`;

  it('brings back every branch under fresh ids, the prompt and the branch shown', () => {
    const cleared = clearConversation(branched, later);
    const back = restoreCleared(cleared, branched, { now: evenLater, newId, keepLeaf: false });
    expect(systemPromptOf(back)).toBe('Answer in French.');
    expect(texts(activePath(back))).toEqual(texts(activePath(branched)));
    expect(back.messages).toHaveLength(branched.messages.length);
    // The old ids stay deleted: a copy that saw the clear cannot disagree.
    expect(back.messages.some((item) => cleared.deletedIds?.includes(item.id))).toBe(false);
    expect(back.updatedAt).toBe(evenLater.toISOString());
  });

  it('keeps the branch shown when a reply streams into it', () => {
    const cleared = clearConversation(branched, later);
    const back = restoreCleared(cleared, branched, { now: evenLater, newId, keepLeaf: true });
    expect(back.activeLeafId).toBe('root');
    expect(back.messages).toHaveLength(branched.messages.length);
  });
});

describe('systemPromptOf and setSystemPrompt', () => {
  it('reads the root message text', () => {
    expect(systemPromptOf(conversation('a'))).toBe('You are a helpful assistant.');
    expect(systemPromptOf(branched)).toBe('Answer in French.');
  });

  it('replaces the root text in place, stamping editedAt and updatedAt', () => {
    const edited = setSystemPrompt(branched, 'Be brief.', later);
    const root = edited.messages.find((item) => item.parentId === null);
    expect(root).toMatchObject({ id: 'root', role: 'system', editedAt: later.toISOString() });
    expect(systemPromptOf(edited)).toBe('Be brief.');
    expect(edited.updatedAt).toBe(later.toISOString());
    expect(edited.activeLeafId).toBe('a3');
    expect(edited.messages).toHaveLength(branched.messages.length);
    expect(edited.messages.slice(1)).toEqual(branched.messages.slice(1));
    expect(systemPromptOf(branched)).toBe('Answer in French.');
  });

  it('can set an empty prompt (sends none)', () => {
    expect(systemPromptOf(setSystemPrompt(branched, '', later))).toBe('');
  });

  it('returns the same object for an unchanged prompt', () => {
    expect(setSystemPrompt(branched, 'Answer in French.', later)).toBe(branched);
  });
});

describe('newMessage', () => {
  it('makes a text message under the given parent', () => {
    expect(newMessage('assistant', 'ok', { id: 'm1', parentId: 'u1', now: later })).toEqual({
      id: 'm1',
      parentId: 'u1',
      role: 'assistant',
      parts: [{ type: 'text', text: 'ok' }],
      createdAt: later.toISOString(),
    });
  });
});

describe('pickActiveId', () => {
  // Stored a, b, c; listed b (written in last), a, then c (archived, though the latest).
  const list = [
    conversation('a'),
    conversation('b', { activeAt: later.toISOString() }),
    conversation('c', { activeAt: '2024-03-03T00:00:00.000Z', place: 'archived' }),
  ];
  it('keeps a saved id that exists', () => expect(pickActiveId(list, 'a')).toBe('a'));
  it('falls back to the first in list order when the saved id is gone', () =>
    expect(pickActiveId(list, 'zz')).toBe('b'));
  it('falls back to the first in list order when nothing is saved', () =>
    expect(pickActiveId(list, null)).toBe('b'));
  it('picks an archived one only when nothing else is left', () =>
    expect(pickActiveId(list.slice(2), null)).toBe('c'));
  it('is null for an empty list', () => expect(pickActiveId([], 'a')).toBeNull());
});

describe('activity: what moves a conversation up the list', () => {
  const start = conversation('a');
  const question = newMessage('user', 'hi', { id: 'u1', parentId: 'a:0', now: later });

  it('a message added is written in at its time', () => {
    expect(addMessage(start, question, 'openai')).toMatchObject({ activeAt: later.toISOString() });
  });
  it('a reply finished is written in at that time', () => {
    expect(markWritten(start, later)).toMatchObject({
      updatedAt: later.toISOString(),
      activeAt: later.toISOString(),
    });
  });
  it('a rename, a clear and a system prompt update it without moving it', () => {
    const asked = addMessage(start, question, 'openai');
    const after = new Date('2024-03-05T09:00:00.000Z');
    for (const changed of [
      renameConversation(asked, 'Trip', after),
      clearConversation(asked, after),
      setSystemPrompt(asked, 'Be brief.', after),
    ]) {
      expect(changed.updatedAt).toBe(after.toISOString());
      expect(changed.activeAt).toBe(later.toISOString());
    }
  });
  it('a rename of a conversation from an earlier release keeps its last update as its activity', () => {
    const old = conversation('old', { updatedAt: later.toISOString() });
    expect(renameConversation(old, 'Trip', new Date('2024-04-01T00:00:00.000Z')).activeAt).toBe(
      later.toISOString(),
    );
  });
});

describe('conversationAsText and visibleMessages', () => {
  const chat = linearConversation('a', ['What is 2+2?', 'It is 4.\nAnything else?', 'No']);

  it('hides system messages', () => {
    expect(visibleMessages(chat).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('joins User/Assistant blocks with a blank line', () => {
    expect(conversationAsText(chat)).toBe(
      'User: What is 2+2?\n\nAssistant: It is 4.\nAnything else?\n\nUser: No',
    );
  });

  it('is empty for a fresh conversation', () => {
    expect(conversationAsText(conversation('b'))).toBe('');
  });

  it('shows and copies only the active path, not the other versions', () => {
    expect(texts(visibleMessages(branched))).toEqual(['hi', 'salut', 'What is 2+2?', 'Quatre']);
    expect(conversationAsText(branched)).toBe(
      'User: hi\n\nAssistant: salut\n\nUser: What is 2+2?\n\nAssistant: Quatre',
    );
    const other = { ...branched, activeLeafId: 'a2' };
    expect(conversationAsText(other)).toBe('User: hi\n\nAssistant: bonjour');
    expect(visibleMessages(other).map(messageText)).toEqual(texts(activePath(other)).slice(1));
  });
});

describe('isMarkdownLike', () => {
  it.each([
    'Here:\n```js\nx()\n```',
    '# Title',
    'This is **bold**',
    'Items:\n- one',
    'Steps:\n1. first',
    'issue #12',
    'Energy: $E = mc^2$',
    'Display: \\[x^2\\]',
  ])('is true for %j', (text) => expect(isMarkdownLike(text)).toBe(true));

  it.each(['Plain answer.', 'a-b', '1.5 kg', '*single star*', '', 'It costs $5 and $10.', 'C:\\temp'])(
    'is false for %j',
    (text) => expect(isMarkdownLike(text)).toBe(false),
  );
});

describe('lastReply and lastCodeBlock', () => {
  it('finds the reply ending the active path, not one before a question', () => {
    expect(lastReply(linearConversation('c', ['Q', 'A']))?.id).toBe('c:2');
    expect(lastReply(linearConversation('c', ['Q', 'A', 'Q2']))).toBeUndefined();
    expect(lastReply(linearConversation('c'))).toBeUndefined();
  });

  it('takes the last closed fence, whatever its fence characters, without the fences', () => {
    expect(lastCodeBlock('a\n```js\nfirst()\n```\nb\n~~~\nsecond()\n~~~\n')).toBe('second()');
    expect(lastCodeBlock('````md\n```js\ninner()\n```\n````')).toBe('```js\ninner()\n```');
    expect(lastCodeBlock('```py\nprint(1)\n```\n```js\nstill streaming')).toBe('print(1)');
    expect(lastCodeBlock('no code here')).toBeUndefined();
  });

  it('reads fences as the renderer does, in one pass over any reply', () => {
    expect(lastCodeBlock('```\nx\n`````\n~~~\ny\n```')).toBe('x');
    expect(lastCodeBlock('``` not `a fence`\nx\n```')).toBeUndefined();
    // A regex with a backreference took 2 s on these fences that never close: the time is
    // measured by `npm run bench` (case 9), and every regex here by regex-linearity.test.ts.
    expect(lastCodeBlock('```a\n'.repeat(20_000))).toBeUndefined();
  });
});
