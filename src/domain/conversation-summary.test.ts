import { describe, expect, it } from 'vitest';
import { createConversation } from './conversation-rules.ts';
import { compareByCreation, readSummary, summarizeConversation } from './conversation-summary.ts';

describe('conversation summaries', () => {
  const conversation = createConversation({
    existingCount: 0,
    provider: 'gemini',
    now: new Date('2024-01-01T00:00:00.000Z'),
    id: 'x',
  });

  it('summarizes without messages', () => {
    expect(summarizeConversation(conversation)).toEqual({
      id: 'x',
      name: 'Conversation 1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      provider: 'gemini',
      messageCount: 1,
    });
  });

  it('reads back a stored summary and rejects a broken one', () => {
    const summary = summarizeConversation(conversation);
    expect(readSummary(summary)).toEqual(summary);
    expect(readSummary({ ...summary, messageCount: -1 })).toBeNull();
    expect(readSummary({ ...summary, provider: 'x' })).toBeNull();
    expect(readSummary('x')).toBeNull();
  });

  it('orders by creation time, then id', () => {
    const items = [
      { id: 'b', createdAt: '2024-01-02T00:00:00.000Z' },
      { id: 'c', createdAt: '2024-01-01T00:00:00.000Z' },
      { id: 'a', createdAt: '2024-01-02T00:00:00.000Z' },
    ];
    expect([...items].sort(compareByCreation).map((item) => item.id)).toEqual(['c', 'a', 'b']);
  });
});
