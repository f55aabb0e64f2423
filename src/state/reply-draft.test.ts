import { describe, expect, it } from 'vitest';
import { messageText } from '../domain/conversation.ts';
import type { StreamPart } from '../providers/types.ts';
import { createReplyDraft } from './reply-draft.ts';

const everest = { url: 'https://a.example/everest', title: 'Everest' };
const k2 = { url: 'https://b.example/k2', title: 'K2' };

function draftOf(parts: StreamPart[], earlier = { parts: [] as never[] }) {
  const draft = createReplyDraft(0, () => undefined, earlier);
  draft.startRequest();
  for (const part of parts) draft.apply(part, 1);
  return draft;
}

describe('a reply that searched the web', () => {
  it('keeps its searches, running until they end, and each source once', () => {
    const draft = draftOf([
      { type: 'web-search', id: 's1', status: 'searching' },
      { type: 'web-search', id: 's1', status: 'searching', query: 'tallest mountain' },
    ]);
    expect(draft.web()?.searches).toEqual([{ query: 'tallest mountain', searching: true }]);
    draft.apply({ type: 'web-search', id: 's1', status: 'done' }, 2);
    draft.apply(
      { type: 'web-search', id: 's2', status: 'failed', query: 'k2', error: 'max_uses_exceeded' },
      2,
    );
    draft.apply({ type: 'web-source', source: everest }, 2);
    draft.apply({ type: 'web-source', source: { url: everest.url } }, 2);
    draft.apply({ type: 'web-source', source: { url: 'javascript:alert(1)' } }, 2);
    expect(draft.web()).toEqual({
      searches: [{ query: 'tallest mountain' }, { query: 'k2', failed: 'max_uses_exceeded' }],
      sources: [everest],
      citations: [],
    });
  });

  it('places citations in the whole answer, over steps and a continued reply', () => {
    const earlier = { parts: [{ type: 'text' as const, text: 'Before. ' }] };
    const draft = draftOf(
      [
        { type: 'text-delta', text: 'Everest is the tallest.' },
        { type: 'citation', source: everest, at: 23, citedText: 'Everest, 8,849 m' },
      ],
      earlier as never,
    );
    draft.startRequest();
    draft.apply({ type: 'text-delta', text: ' K2 is second.' }, 3);
    draft.apply({ type: 'citation', source: k2, at: 14 }, 3);
    const text = messageText({ parts: [...earlier.parts, ...draft.parts()] });
    const [first, second] = draft.web()?.citations ?? [];
    expect(text.slice(0, first?.at)).toBe('Before. Everest is the tallest.');
    expect(first).toMatchObject({ source: 0, citedText: 'Everest, 8,849 m' });
    expect(text.slice(0, second?.at)).toBe(text);
    expect(second?.source).toBe(1);
  });

  it('at the end, no search is left running, and the searches of every step are counted', () => {
    const draft = draftOf([
      { type: 'web-search', id: 's1', status: 'searching', query: 'q' },
      { type: 'finish', reason: 'stop', usage: { webSearches: 1 } },
    ]);
    draft.startRequest();
    draft.apply({ type: 'finish', reason: 'stop', usage: { webSearches: 2 } }, 4);
    expect(draft.web(true)?.searches).toEqual([{ query: 'q' }]);
    expect(draft.stats()?.usage?.webSearches).toBe(3);
  });
});
