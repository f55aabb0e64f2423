import { describe, expect, it } from 'vitest';
import { boundedText } from './bounded-text.ts';

describe('boundedText', () => {
  it('keeps a short text whole', () => {
    expect(boundedText('abc', 5)).toEqual({ shown: 'abc', cut: false });
    expect(boundedText('abcde', 5)).toEqual({ shown: 'abcde', cut: false });
  });

  it('cuts at the limit, never inside a surrogate pair', () => {
    expect(boundedText('abcdef', 5)).toEqual({ shown: 'abcde', cut: true });
    expect(boundedText('abcd😀f', 5)).toEqual({ shown: 'abcd', cut: true });
  });
});
