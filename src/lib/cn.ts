import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names; a later Tailwind class wins over an earlier one of the same kind (a
 * component's `w-64 p-3` under a caller's `w-52 p-1`), for the kinds the components let callers
 * override: size, spacing, font size and colours. This replaces tailwind-merge, which knows every
 * utility and cost 8.4 kB of the first load's 170 kB budget to settle these few.
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  if (!joined.includes(' ')) return joined;
  const tokens = joined.split(' ');
  const kept: (string | null)[] = [];
  const at = new Map<string, number>();
  for (const token of tokens) {
    const kinds = kindsOf(token);
    if (kinds) {
      // A class of a kind replaces the earlier one of that kind, and those it covers (p- covers px-).
      for (const kind of kinds.covers) {
        const earlier = at.get(kind);
        if (earlier !== undefined) kept[earlier] = null;
      }
      at.set(kinds.own, kept.length);
    }
    kept.push(token);
  }
  return kept.filter((token) => token !== null).join(' ');
}

const fontSizes = new Set(['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl', '4xl', '5xl']);

/** Spacing sides and what each one covers. */
const sides: Readonly<Record<string, readonly string[]>> = {
  '': ['', 'x', 'y', 't', 'r', 'b', 'l', 's', 'e'],
  x: ['x', 'l', 'r', 's', 'e'],
  y: ['y', 't', 'b'],
  t: ['t'],
  r: ['r'],
  b: ['b'],
  l: ['l'],
  s: ['s'],
  e: ['e'],
};

/**
 * The kind of a class (its variants, such as `dark:` or `hover:`, are part of it) and the kinds it
 * replaces; null for classes that are joined as they are.
 */
function kindsOf(token: string): { own: string; covers: string[] } | null {
  const split = token.lastIndexOf(':');
  const variants = token.slice(0, split + 1);
  const utility = token.slice(split + 1);
  const dash = utility.indexOf('-');
  if (dash < 0) return null;
  const name = utility.slice(0, dash);
  const value = utility.slice(dash + 1);
  const kind = (family: string) => `${variants}${family}`;
  const single = (family: string) => ({ own: kind(family), covers: [kind(family)] });
  if (name === 'w' || name === 'h' || name === 'size' || name === 'bg') return single(name);
  if (name === 'text') return single(fontSizes.has(value) ? 'text-size' : 'text-colour');
  const spacing = /^(p|m)([xytrblse]?)$/.exec(name);
  if (spacing) {
    const [, property = '', side = ''] = spacing;
    return {
      own: kind(property + side),
      covers: (sides[side] ?? [side]).map((each) => kind(property + each)),
    };
  }
  return null;
}
