import { describe, expect, it } from 'vitest';
import {
  linearConversation,
  toolCall,
  toolReply,
  toolResult,
  treeConversation,
} from '../domain/__fixtures__/conversations.ts';
import { textParts, type Message } from '../domain/conversation.ts';
import {
  bestMessage,
  markTerms,
  searchDocument,
  searchedResultLength,
  searchedText,
  termMatcher,
  tokenize,
} from './search-text.ts';

const plain = (segments: { text: string }[]) => segments.map((segment) => segment.text).join('');
const marked = (segments: { text: string; mark?: true }[]) =>
  segments.filter((segment) => segment.mark).map((segment) => segment.text);

describe('search text', () => {
  it('splits words on spaces, punctuation and markdown symbols, keeping letters of any script', () => {
    expect(tokenize('## Ranking | by `score` (stable), naïve café 東京 x2')).toEqual([
      'Ranking',
      'by',
      'score',
      'stable',
      'naïve',
      'café',
      '東京',
      'x2',
    ]);
  });

  it('indexes the name and every branch, but not the system prompt or reasoning', () => {
    const conversation = treeConversation('c', [
      ['root', null, 'system', 'Be terse.'],
      ['u', 'root', 'user', 'Question'],
      ['a1', 'u', 'assistant', 'First version'],
      ['a2', 'u', 'assistant', 'Second version'],
    ]);
    conversation.messages[3] = {
      ...(conversation.messages[3] as Message),
      parts: [{ type: 'reasoning', text: 'secret thoughts' }, ...textParts('Second version')],
    };
    const document = searchDocument({ ...conversation, name: 'Named' });
    expect(document).toEqual({ id: 'c', name: 'Named', text: 'Question\nFirst version\nSecond version' });
  });

  it('indexes the tools a reply used and what they returned, not their arguments', () => {
    const base = linearConversation('t', ['Weather in Lisbon?']);
    const conversation = { ...base, messages: [...base.messages, toolReply('r', 't:1')], activeLeafId: 'r' };
    expect(searchDocument(conversation).text).toBe(
      [
        'Weather in Lisbon?',
        'Let me look that up.\n\nget_weather\n\nget_map\n\n18 °C and sunny\n\nArguments were not JSON\n\nIt is 18 °C and sunny in Lisbon.',
      ].join('\n'),
    );
    const match = bestMessage(conversation, termMatcher(new Set(['get_map'])));
    expect(match?.messageId).toBe('r');
    expect(marked(match?.snippet ?? [])).toEqual(['get_map']);
  });

  it("searches at most searchedResultLength characters of a message's tool results", () => {
    const reply = {
      ...(linearConversation('t', ['q', 'a']).messages[2] as Message),
      parts: [
        toolCall('a', 'fetch'),
        toolResult('a', 'fetch', 'x'.repeat(searchedResultLength - 2)),
        toolCall('b', 'fetch'),
        toolResult('b', 'fetch', [
          { type: 'text', text: 'abcdef' },
          { type: 'text', text: 'beyond' },
        ]),
      ],
    };
    const text = searchedText(reply);
    expect(text.endsWith('\n\nfetch\n\nab')).toBe(true);
    expect(text).not.toContain('beyond');
  });

  it('finds the message holding most of the matched words, on any branch, with a marked snippet', () => {
    const conversation = treeConversation('c', [
      ['root', null, 'system', 'You are a helpful assistant.'],
      ['u', 'root', 'user', 'How do I sort records?'],
      ['a1', 'u', 'assistant', 'Sort them by score.'],
      ['a2', 'u', 'assistant', 'Sort the records by score, then by name, for a stable order.'],
      ['u2', 'a1', 'user', 'Thanks'],
    ]);
    const match = bestMessage(conversation, termMatcher(new Set(['records', 'stable'])));
    expect(match?.messageId).toBe('a2');
    expect(match?.createdAt).toBe(conversation.messages[3]?.createdAt);
    expect(plain(match?.snippet ?? [])).toBe('Sort the records by score, then by name, for a stable order.');
    expect(marked(match?.snippet ?? [])).toEqual(['records', 'stable']);
    expect(bestMessage(conversation, termMatcher(new Set(['absent'])))).toBeUndefined();
  });

  it('cuts a long message around its matches, at word starts, and collapses line breaks', () => {
    const long = `${'lorem ipsum '.repeat(40)}the needle\n\nsits here ${'dolor sit '.repeat(40)}`;
    const conversation = linearConversation('c', ['question', long]);
    const match = bestMessage(conversation, termMatcher(new Set(['needle'])));
    const text = plain(match?.snippet ?? []);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text).toContain('the needle sits here');
    expect(text.length).toBeLessThanOrEqual(165);
    expect(text).toMatch(/^…(lorem|ipsum) /);
    expect(marked(match?.snippet ?? [])).toEqual(['needle']);
  });

  it('marks matched words in a name, whatever their case', () => {
    expect(markTerms('Rust borrow checker', termMatcher(new Set(['borrow'])))).toEqual([
      { text: 'Rust ' },
      { text: 'borrow', mark: true },
      { text: ' checker' },
    ]);
    expect(marked(markTerms('SQL and sql', termMatcher(new Set(['sql']))))).toEqual(['SQL', 'sql']);
  });

  it('stays plain text: markup in a message is never interpreted', () => {
    const conversation = linearConversation('c', ['<img src=x onerror=alert(1)> payload']);
    const match = bestMessage(conversation, termMatcher(new Set(['payload'])));
    expect(plain(match?.snippet ?? [])).toBe('<img src=x onerror=alert(1)> payload');
  });
});
