import { describe, expect, it } from 'vitest';
import type { Conversation } from './conversation.ts';
import {
  clearConversation,
  conversationAsText,
  createConversation,
  isMarkdownLike,
  pickActiveId,
  removeConversation,
  renameConversation,
  upsertConversation,
  visibleMessages,
} from './conversation-rules.ts';

const created = new Date('2024-03-01T10:00:00.000Z');
const later = new Date('2024-03-02T11:30:00.000Z');

function conversation(id: string, overrides: Partial<Conversation> = {}): Conversation {
  return { ...createConversation({ existingCount: 0, provider: 'openai', now: created, id }), ...overrides };
}

describe('createConversation', () => {
  it('names it after the count, starts with the system message and stamps both times', () => {
    expect(createConversation({ existingCount: 2, provider: 'claude', now: created, id: 'c3' })).toEqual({
      id: 'c3',
      name: 'Conversation 3',
      messages: [{ role: 'system', content: 'You are a helpful assistant.' }],
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-03-01T10:00:00.000Z',
      provider: 'claude',
    });
  });

  it('names the first one Conversation 1', () => {
    expect(conversation('a').name).toBe('Conversation 1');
  });
});

describe('renameConversation', () => {
  it('trims the name and bumps updatedAt', () => {
    const renamed = renameConversation(conversation('a'), '  Trip plans ', later);
    expect(renamed.name).toBe('Trip plans');
    expect(renamed.updatedAt).toBe(later.toISOString());
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
});

describe('clearConversation', () => {
  it('resets to the single default system message and bumps updatedAt', () => {
    const chatty = conversation('a', {
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
    });
    const cleared = clearConversation(chatty, later);
    expect(cleared.messages).toEqual([{ role: 'system', content: 'You are a helpful assistant.' }]);
    expect(cleared.updatedAt).toBe(later.toISOString());
    expect(chatty.messages).toHaveLength(3);
  });

  it('adds the default system message when there was none', () => {
    const noSystem = conversation('a', { messages: [{ role: 'user', content: 'hi' }] });
    expect(clearConversation(noSystem, later).messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
    ]);
  });

  it('keeps a custom system prompt', () => {
    const custom = conversation('a', {
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(clearConversation(custom, later).messages).toEqual([
      { role: 'system', content: 'Answer in French.' },
    ]);
  });
});

describe('upsertConversation', () => {
  it('replaces the one with the same id in place', () => {
    const list = [conversation('a'), conversation('b'), conversation('c')];
    const updated = conversation('b', { name: 'B' });
    const next = upsertConversation(list, updated);
    expect(next.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(next[1]).toBe(updated);
    expect(list[1]?.name).toBe('Conversation 1');
  });

  it('appends a new one', () => {
    const next = upsertConversation([conversation('a')], conversation('z'));
    expect(next.map((c) => c.id)).toEqual(['a', 'z']);
  });
});

describe('removeConversation', () => {
  const list = [conversation('a'), conversation('b'), conversation('c')];

  it('makes the first remaining one active when the active one is deleted', () => {
    const result = removeConversation(list, 'b', 'b');
    expect(result.conversations.map((c) => c.id)).toEqual(['a', 'c']);
    expect(result.activeId).toBe('a');
  });

  it('picks the new first one when the first (active) one is deleted', () => {
    expect(removeConversation(list, 'a', 'a').activeId).toBe('b');
  });

  it('keeps the active id when another one is deleted', () => {
    expect(removeConversation(list, 'c', 'b').activeId).toBe('b');
  });

  it('leaves none active when the last one is deleted', () => {
    expect(removeConversation([conversation('a')], 'a', 'a')).toEqual({ conversations: [], activeId: null });
  });
});

describe('pickActiveId', () => {
  const list = [{ id: 'a' }, { id: 'b' }];
  it('keeps a saved id that exists', () => expect(pickActiveId(list, 'b')).toBe('b'));
  it('falls back to the first when the saved id is gone', () => expect(pickActiveId(list, 'zz')).toBe('a'));
  it('falls back to the first when nothing is saved', () => expect(pickActiveId(list, null)).toBe('a'));
  it('is null for an empty list', () => expect(pickActiveId([], 'a')).toBeNull());
});

describe('conversationAsText and visibleMessages', () => {
  const chat = conversation('a', {
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: 'It is 4.\nAnything else?' },
      { role: 'user', content: 'No' },
    ],
  });

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
});

describe('isMarkdownLike', () => {
  it.each([
    'Here:\n```js\nx()\n```',
    '# Title',
    'This is **bold**',
    'Items:\n- one',
    'Steps:\n1. first',
    'issue #12',
  ])('is true for %j', (text) => expect(isMarkdownLike(text)).toBe(true));

  it.each(['Plain answer.', 'a-b', '1.5 kg', '*single star*', ''])('is false for %j', (text) =>
    expect(isMarkdownLike(text)).toBe(false),
  );
});
