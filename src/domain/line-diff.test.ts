import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.ts';

describe('a line diff', () => {
  it('marks what was removed and added, keeping the common lines', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nc\nx\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'd' },
    ]);
  });

  it('of equal texts is all the same, and of an empty one all added', () => {
    expect(lineDiff('a\nb', 'a\nb')?.every((line) => line.kind === 'same')).toBe(true);
    expect(lineDiff('', 'a')).toEqual([
      { kind: 'removed', text: '' },
      { kind: 'added', text: 'a' },
    ]);
  });

  it('compares a small change in a long text cheaply, and refuses two long different texts', () => {
    const long = Array.from({ length: 50_000 }, (_, index) => `line ${index}`);
    const changed = [...long];
    changed[25_000] = 'changed';
    const diff = lineDiff(long.join('\n'), changed.join('\n'));
    expect(diff?.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'line 25000' },
      { kind: 'added', text: 'changed' },
    ]);
    const other = long.map((line) => `${line}!`);
    expect(lineDiff(long.join('\n'), other.join('\n'))).toBeNull();
  });
});
