import { describe, expect, it } from 'vitest';
import { cn } from './cn.ts';

describe('cn', () => {
  it('joins classes, dropping the empty ones', () => {
    expect(cn('a', false, null, undefined, ['b', { c: true, d: false }])).toBe('a b c');
  });

  it('lets a later class of the same kind win, as the components are overridden today', () => {
    // PopoverContent under a caller's width and padding.
    expect(cn('z-50 w-64 p-3 text-sm', 'w-52 p-1')).toBe('z-50 text-sm w-52 p-1');
    // A field's font size and padding under a textarea's or select's.
    expect(cn('px-3 py-2 text-sm text-gray-900', 'h-9 py-1')).toBe('px-3 text-sm text-gray-900 h-9 py-1');
    expect(cn('text-sm text-gray-900', 'h-64 font-mono text-xs')).toBe(
      'text-gray-900 h-64 font-mono text-xs',
    );
    // Dialog widths with arbitrary values.
    expect(cn('w-[min(42rem,calc(100vw-2rem))] p-5', 'w-[min(28rem,calc(100vw-2rem))]')).toBe(
      'p-5 w-[min(28rem,calc(100vw-2rem))]',
    );
  });

  it('keeps variants apart and lets a side win only over what it covers', () => {
    expect(cn('bg-white dark:bg-gray-900 hover:bg-gray-100', 'bg-red-50')).toBe(
      'dark:bg-gray-900 hover:bg-gray-100 bg-red-50',
    );
    expect(cn('px-3 py-2', 'p-1')).toBe('p-1');
    expect(cn('p-3', 'px-1')).toBe('p-3 px-1');
    expect(cn('mx-2 mt-1', 'my-4')).toBe('mx-2 my-4');
    expect(cn('my-4', 'mt-1')).toBe('my-4 mt-1');
    expect(cn('text-gray-600 text-sm', 'text-indigo-700')).toBe('text-sm text-indigo-700');
  });
});
