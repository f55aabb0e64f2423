import { describe, expect, it } from 'vitest';
import {
  attachment,
  linearConversation,
  toolCall,
  toolReply,
  toolResult,
  treeConversation,
} from './__fixtures__/conversations.ts';
import { textParts, type Conversation, type Message } from './conversation.ts';
import {
  compareByOrder,
  conversationBytes,
  readOrder,
  readSummary,
  summarizeConversation,
  summaryTextKey,
  textKey,
} from './conversation-summary.ts';

describe('conversation summaries', () => {
  const conversation = linearConversation('x', [], {
    name: 'Conversation 1',
    provider: 'gemini',
    order: 7,
  });

  it('summarizes without messages', () => {
    expect(summarizeConversation(conversation)).toEqual({
      id: 'x',
      name: 'Conversation 1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      provider: 'gemini',
      messageCount: 1,
      order: 7,
      textKey: '1:28::Conversation 1',
      bytes: 56,
    });
  });

  it('counts the bytes a conversation takes: two per character, and its files', () => {
    const withFile = treeConversation('f', [
      ['root', null, 'system', 'abc'],
      ['u1', 'root', 'user', 'hi'],
    ]);
    const user = withFile.messages[1] as Message;
    withFile.messages[1] = { ...user, parts: [...user.parts, attachment('p', { size: 1000 })] };
    expect(conversationBytes(withFile)).toBe(1010);
    expect(readSummary({ ...summarizeConversation(withFile), bytes: -1 })?.bytes).toBeUndefined();
  });

  it("counts a tool's calls and results, and keys their searched text", () => {
    const base = treeConversation('t', [
      ['root', null, 'system', ''],
      ['u1', 'root', 'user', 'hi'],
    ]);
    const asked = { ...base, messages: [...base.messages, toolReply('r', 'u1')], activeLeafId: 'r' };
    const reply = asked.messages[2] as Message;
    // 'hi', then the reply: its texts and reasoning, each call's name and arguments, each result's name and text.
    const chars = [
      'hi',
      'I need the weather.',
      'Let me look that up.',
      'get_weather{"city":"Lisbon"}',
      'get_map{"city":"Lisbon", oops',
      'get_weather18 °C and sunny',
      'get_mapArguments were not JSON',
      'Now answer.',
      'It is 18 °C and sunny in Lisbon.',
    ].join('').length;
    expect(conversationBytes(asked)).toBe(chars * 2);
    const grown = {
      ...asked,
      messages: [
        ...asked.messages.slice(0, 2),
        { ...reply, parts: [...reply.parts, toolCall('c3', 'more')] },
      ],
    };
    const answered = {
      ...grown,
      messages: [
        ...asked.messages.slice(0, 2),
        { ...reply, parts: [...reply.parts, toolCall('c3', 'more'), toolResult('c3', 'more', 'done')] },
      ],
    };
    const keys = [asked, grown, answered].map(textKey);
    expect(new Set(keys).size).toBe(3);
  });

  it('keys the searchable text: a grown reply, a new message, an edited prompt or a rename change it', () => {
    const base = treeConversation('t', [
      ['root', null, 'system', 'Be brief.'],
      ['u1', 'root', 'user', 'hi'],
      ['a1', 'u1', 'assistant', 'hello'],
    ]);
    const key = textKey(base);
    const [root, user, reply] = base.messages as [Message, Message, Message];
    const variants: Conversation[] = [
      { ...base, messages: [root, user, { ...reply, parts: textParts('hello there') }] },
      { ...base, messages: [...base.messages, { ...reply, id: 'a2', parts: textParts('hello') }] },
      {
        ...base,
        messages: [
          { ...root, parts: textParts('Be long.!'), editedAt: '2024-02-01T00:00:00.000Z' },
          user,
          reply,
        ],
      },
      { ...base, name: 'Greetings' },
    ];
    for (const variant of variants) expect(textKey(variant)).not.toBe(key);
    expect(textKey({ ...base, place: 'pinned' })).toBe(key);
    const olderSummary = { ...summarizeConversation(base), textKey: undefined };
    expect(summaryTextKey(olderSummary)).toBe(`3:?:${base.updatedAt}:${base.name}`);
  });

  it('counts the messages of every branch, the system message included', () => {
    const branched = treeConversation(
      't',
      [
        ['root', null, 'system', ''],
        ['u1', 'root', 'user', 'hi'],
        ['a1', 'u1', 'assistant', 'hello'],
        ['a2', 'u1', 'assistant', 'hey'],
      ],
      { activeLeafId: 'a1' },
    );
    expect(summarizeConversation(branched).messageCount).toBe(4);
  });

  it('reads back a stored summary and rejects a broken one', () => {
    const summary = summarizeConversation(conversation);
    expect(readSummary(summary)).toEqual(summary);
    expect(readSummary({ ...summary, messageCount: -1 })).toBeNull();
    expect(readSummary({ ...summary, provider: 'x' })).toBeNull();
    expect(readSummary('x')).toBeNull();
  });

  it('keeps the last activity, and reads a summary of an earlier release without one', () => {
    const summary = summarizeConversation({ ...conversation, activeAt: '2024-02-01T00:00:00.000Z' });
    expect(readSummary(summary)?.activeAt).toBe('2024-02-01T00:00:00.000Z');
    const older: Record<string, unknown> = { ...summary };
    delete older.activeAt;
    expect(readSummary(older)).toEqual(older);
  });

  it('places a summary written before positions were stored by its creation time', () => {
    const unordered: Record<string, unknown> = { ...summarizeConversation(conversation) };
    delete unordered.order;
    expect(readSummary(unordered)?.order).toBe(Date.parse('2024-01-01T00:00:00.000Z'));
    expect(readSummary({ ...unordered, order: 'first' })?.order).toBe(Date.parse(conversation.createdAt));
    expect(readSummary({ ...unordered, order: Number.NaN })?.order).toBe(Date.parse(conversation.createdAt));
  });
});

describe('readOrder', () => {
  it('takes a finite number, else the creation time', () => {
    expect(readOrder(3, '2024-01-01T00:00:00.000Z')).toBe(3);
    expect(readOrder(-1.5, '2024-01-01T00:00:00.000Z')).toBe(-1.5);
    expect(readOrder(undefined, '2024-01-01T00:00:00.000Z')).toBe(1704067200000);
    expect(readOrder(Number.POSITIVE_INFINITY, '2024-01-01T00:00:00.000Z')).toBe(1704067200000);
    expect(readOrder('2', '2024-01-01T00:00:00.000Z')).toBe(1704067200000);
  });
});

describe('compareByOrder', () => {
  it('orders by position, then id', () => {
    const items = [
      { id: 'b', order: 2 },
      { id: 'c', order: 1 },
      { id: 'a', order: 2 },
    ];
    expect([...items].sort(compareByOrder).map((item) => item.id)).toEqual(['c', 'a', 'b']);
  });

  it('puts an old record placed by its creation time before conversations created later', () => {
    const old = { id: 'old', order: readOrder(undefined, '2024-01-01T00:00:00.000Z') };
    const created = { id: 'new', order: Date.parse('2024-02-01T00:00:00.000Z') };
    expect([created, old].sort(compareByOrder).map((item) => item.id)).toEqual(['old', 'new']);
  });
});
