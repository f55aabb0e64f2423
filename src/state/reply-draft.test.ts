import { describe, expect, it } from 'vitest';
import { messageText } from '../domain/conversation.ts';
import type { StreamPart } from '../providers/types.ts';
import { createReplyDraft } from './reply-draft.ts';

const everest = { url: 'https://a.example/everest', title: 'Everest' };
const k2 = { url: 'https://b.example/k2', title: 'K2' };

/** A file store that counts: what is staged, by id, and what was let go. */
function stagingFiles() {
  const staged = new Map<string, Blob>();
  let next = 0;
  return {
    staged,
    stage(blob: Blob) {
      const id = `f${++next}`;
      staged.set(id, blob);
      return id;
    },
    drop: (id: string) => void staged.delete(id),
  };
}

function draftOf(parts: StreamPart[], earlier = { parts: [] as never[] }, files = stagingFiles()) {
  const draft = createReplyDraft(0, { serverOf: () => undefined, earlier, files });
  draft.startRequest();
  for (const part of parts) draft.apply(part, 1);
  return draft;
}

const png = (bytes: string) => new Blob([bytes], { type: 'image/png' });

describe('a reply that ran code or drew', () => {
  it('keeps each run where it came, its code streamed then replaced by the whole, and its files', () => {
    const files = stagingFiles();
    const draft = draftOf(
      [
        { type: 'text-delta', text: 'Let me compute. ' },
        { type: 'code-start', id: 'r1', language: 'python' },
        { type: 'code-delta', id: 'r1', delta: 'print(' },
        { type: 'code-delta', id: 'r1', delta: '55)' },
      ],
      undefined,
      files,
    );
    expect(draft.parts()[1]).toEqual({
      type: 'code-run',
      id: 'r1',
      language: 'python',
      code: 'print(55)',
      output: '',
      running: true,
      files: [],
    });
    draft.apply({ type: 'code-result', id: 'r1', code: 'print(55)\n', output: '55\n' }, 2);
    draft.apply(
      {
        type: 'file',
        id: 'p1',
        runId: 'r1',
        name: '/mnt/data/plot.png',
        mimeType: 'image/png',
        data: png('plot'),
      },
      2,
    );
    draft.apply({ type: 'text-delta', text: 'It is 55.' }, 3);
    expect(draft.parts(true)).toEqual([
      { type: 'text', text: 'Let me compute. ' },
      {
        type: 'code-run',
        id: 'r1',
        language: 'python',
        code: 'print(55)\n',
        output: '55\n',
        files: [{ id: 'f1', name: 'plot.png', mimeType: 'image/png', size: 4 }],
      },
      { type: 'text', text: 'It is 55.' },
    ]);
    expect([...files.staged.keys()]).toEqual(['f1']);
  });

  it('marks a failed run, and one the reply left running is kept without the mark', () => {
    const draft = draftOf([
      { type: 'code-start', id: 'r1', language: 'bash' },
      { type: 'code-result', id: 'r1', code: 'exit 1', output: '', stderr: 'boom', failed: 'exit code 1' },
      { type: 'code-start', id: 'r2', language: 'python' },
      { type: 'code-delta', id: 'r2', delta: 'while True: pass' },
    ]);
    const [failed, left] = draft.parts(true);
    expect(failed).toMatchObject({ failed: 'exit code 1', stderr: 'boom' });
    expect(left).toEqual({
      type: 'code-run',
      id: 'r2',
      language: 'python',
      code: 'while True: pass',
      output: '',
      files: [],
    });
  });

  it('shows the latest preview of a picture, lets the older go, and keeps the final with its provider data', () => {
    const files = stagingFiles();
    const draft = draftOf(
      [
        {
          type: 'file',
          id: 'ig_1',
          name: 'image-1.png',
          mimeType: 'image/png',
          data: png('p0'),
          partial: true,
        },
        {
          type: 'file',
          id: 'ig_1',
          name: 'image-1.png',
          mimeType: 'image/png',
          data: png('p1'),
          partial: true,
        },
      ],
      undefined,
      files,
    );
    expect(draft.parts()[0]).toMatchObject({ type: 'attachment', id: 'f2', drawing: true });
    expect([...files.staged.keys()]).toEqual(['f2']);
    const providerData = { provider: 'openai' as const, model: 'gpt-5', data: { imageCallId: 'ig_1' } };
    draft.apply(
      {
        type: 'file',
        id: 'ig_1',
        name: 'image-1.png',
        mimeType: 'image/png',
        data: png('final'),
        providerData,
      },
      2,
    );
    expect(draft.parts(true)).toEqual([
      {
        type: 'attachment',
        id: 'f3',
        kind: 'image',
        name: 'image-1.png',
        mimeType: 'image/png',
        size: 5,
        providerData,
      },
      { type: 'text', text: '' },
    ]);
    expect([...files.staged.keys()]).toEqual(['f3']);
  });

  it('keeps nothing hostile: no SVG as a picture, no file past the bounds, no run files without a run', () => {
    const files = stagingFiles();
    const draft = draftOf(
      [
        {
          type: 'file',
          id: 'x',
          name: 'evil.svg',
          mimeType: 'image/svg+xml',
          data: new Blob(['<svg onload=alert(1)>']),
        },
        {
          type: 'file',
          id: 'y',
          name: 'big.png',
          mimeType: 'image/png',
          data: new Blob([new Uint8Array(21 * 1024 * 1024)]),
        },
        ...Array.from({ length: 25 }, (_, index): StreamPart => ({
          type: 'file',
          id: `z${index}`,
          name: 'a.png',
          mimeType: 'image/png',
          data: png('a'),
        })),
      ],
      undefined,
      files,
    );
    expect(draft.parts().filter((part) => part.type === 'attachment')).toHaveLength(20);
    expect(files.staged.size).toBe(20);
  });
});

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
