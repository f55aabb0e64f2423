import { describe, expect, it } from 'vitest';
import { matchesIdentifier, matchScore } from './fuzzy-match.ts';

describe('matchScore', () => {
  it('matches everything when nothing is typed', () => {
    expect(matchScore('  ', 'New conversation')).toBeGreaterThan(0);
  });

  it('ranks the start of a word over the middle, and the middle over letters in order', () => {
    const wordStart = matchScore('conv', 'New conversation');
    const middle = matchScore('vers', 'New conversation');
    const letters = matchScore('nwcv', 'New conversation');
    expect(wordStart).toBeGreaterThan(middle);
    expect(middle).toBeGreaterThan(letters);
    expect(letters).toBeGreaterThan(0);
  });

  it('ranks a title that starts with what was typed first', () => {
    expect(matchScore('theme', 'Theme: Dark')).toBeGreaterThan(matchScore('theme', 'Toggle theme'));
  });

  it('ranks words found in the title over words found only among the keywords', () => {
    expect(matchScore('theme dark', 'Theme: Dark', 'mode')).toBeGreaterThan(
      matchScore('theme dark', 'Toggle theme', 'dark light mode'),
    );
    expect(matchScore('mode', 'Toggle theme', 'dark light mode')).toBeGreaterThan(0);
  });

  it('needs every word, in any case', () => {
    expect(matchScore('COPY code', 'Copy last code block')).toBeGreaterThan(0);
    expect(matchScore('copy image', 'Copy last code block')).toBe(0);
  });

  it('finds no letters out of order', () => {
    expect(matchScore('zyx', 'New conversation')).toBe(0);
  });
});

describe('matchesIdentifier', () => {
  it('ignores separators and case', () => {
    expect(matchesIdentifier('sonnet 4.5', 'claude-sonnet-4-5')).toBe(true);
    expect(matchesIdentifier('Sonnet-4_5', 'claude-sonnet-4-5-20250929')).toBe(true);
    expect(matchesIdentifier('GPT 4o', 'gpt-4o-mini')).toBe(true);
  });

  it('needs every word', () => {
    expect(matchesIdentifier('sonnet 4.6', 'claude-sonnet-4-5')).toBe(false);
    expect(matchesIdentifier('opus 4.5', 'claude-sonnet-4-5')).toBe(false);
  });

  it('matches everything when nothing is typed', () => {
    expect(matchesIdentifier('', 'gpt-4o')).toBe(true);
  });
});
