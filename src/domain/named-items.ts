/**
 * What lists of things the user names (projects, prompts) share: how a name is kept, and the order
 * they are listed in.
 */

/** A name as kept: one line, spaces collapsed, trimmed, at most `max` characters. */
export function oneLineName(name: string, max: number): string {
  return name.replace(/\s+/g, ' ').trim().slice(0, max).trim();
}

/** By name as the user reads it (case and accents aside, numbers by value), then creation, then id. */
export function byName<T extends { createdAt: string; id: string }>(
  items: readonly T[],
  nameOf: (item: T) => string,
): T[] {
  return [...items].sort(
    (a, b) =>
      nameOf(a).localeCompare(nameOf(b), undefined, { sensitivity: 'base', numeric: true }) ||
      a.createdAt.localeCompare(b.createdAt) ||
      (a.id < b.id ? -1 : 1),
  );
}
