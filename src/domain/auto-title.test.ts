import { describe, expect, it } from 'vitest';
import { linearConversation } from './__fixtures__/conversations.ts';
import { cleanTitle, firstExchange, titlePrompt } from './auto-title.ts';
import { activePath } from './message-tree.ts';

describe('auto-title', () => {
  it('takes the first exchange of a conversation that was never renamed, once its reply is complete', () => {
    const fresh = linearConversation('c', ['What is a zebra crossing?', 'A striped pedestrian crossing.']);
    expect(firstExchange(fresh)).toEqual({
      question: 'What is a zebra crossing?',
      answer: 'A striped pedestrian crossing.',
    });
    expect(firstExchange({ ...fresh, renamedAt: '2025-01-01T00:00:00.000Z' })).toBeNull();
    expect(firstExchange(linearConversation('c', ['one', 'uno', 'two', 'dos']))).toBeNull();
    expect(firstExchange(linearConversation('c', ['only a question']))).toBeNull();
    const stopped = linearConversation('c', ['q', { text: 'partial', status: 'stopped' }]);
    expect(firstExchange(stopped)).toBeNull();
    expect(activePath(stopped)).toHaveLength(3);
  });

  it('asks with the question and the reply, each cut to a readable length', () => {
    const [system, user] = titlePrompt({ question: 'Q'.repeat(2000), answer: 'short answer' });
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/title of two to six words/);
    expect(user?.content).toBe(`User: ${'Q'.repeat(1500)}…\n\nAssistant: short answer`);
  });

  it('keeps the first line of the answer, without markdown, quotes, a label or a final stop', () => {
    expect(cleanTitle('Zebra crossings explained')).toBe('Zebra crossings explained');
    expect(cleanTitle('"Zebra Crossings."')).toBe('Zebra Crossings');
    expect(cleanTitle('**Title:** “Pedestrian safety”\n\nAnything else')).toBe('Pedestrian safety');
    expect(cleanTitle('\n\n# Rust lifetimes\n')).toBe('Rust lifetimes');
    expect(cleanTitle('<think>the user asks about trains</think>\nTrains to Turin')).toBe('Trains to Turin');
    expect(cleanTitle('  \n ')).toBeNull();
    expect(cleanTitle('«Voyage à Lisbonne»')).toBe('Voyage à Lisbonne');
  });

  it('drops closed thinking only, in one pass over any number of tags', () => {
    expect(cleanTitle('<think>a</think>Trains<think>b')).toBe('Trains<think>b');
    // A regex looking for the closing tag from each opening one took 13 s here: the time is
    // measured by `npm run bench` (case 9), and every regex here by regex-linearity.test.ts.
    expect(cleanTitle(`${'<think>'.repeat(50_000)}x`)).toMatch(/^<think>/);
  });

  it('cuts a long answer at a word, at most 60 characters', () => {
    const title = cleanTitle(
      'A very long title that keeps going well past the point where a sidebar row could show it',
    );
    expect(title).toBe('A very long title that keeps going well past the point where');
    expect(title?.length).toBeLessThanOrEqual(60);
  });
});
