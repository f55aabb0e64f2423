import { describe, expect, it } from 'vitest';
import { textPieces } from './plain-text.tsx';

describe('textPieces', () => {
  it('keeps a short text whole', () => {
    expect(textPieces('short\ntext')).toEqual(['short\ntext']);
  });

  it('cuts a long text after a line break, at most 8192 characters a piece', () => {
    const text = Array.from({ length: 3000 }, (_, line) => `line ${line}`).join('\n');
    const pieces = textPieces(text);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces.slice(0, -1)) {
      expect(piece.length).toBeLessThanOrEqual(8192);
      expect(piece.endsWith('\n')).toBe(true);
    }
  });

  it('cuts a line without breaks at the limit, never inside a surrogate pair', () => {
    const text = `${'x'.repeat(8191)}😀${'y'.repeat(20_000)}`;
    const pieces = textPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('x'.repeat(8191));
    expect(pieces[1]?.startsWith('😀')).toBe(true);
  });

  it('takes linear time on a long text without line breaks', () => {
    const started = performance.now();
    expect(textPieces('x'.repeat(5_000_000))).toHaveLength(611);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('keeps the pieces before the last as they were when the text grows', () => {
    const text = 'word '.repeat(5000);
    const grown = `${text}more and more\nlines`;
    expect(textPieces(grown).slice(0, -1)).toEqual(textPieces(text).slice(0, -1));
  });
});
