/** Readers for untrusted parsed JSON (imports, stored records) that never look at inherited properties. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An own property only. `JSON.parse` turns a `"__proto__"` key into an own property, and a
 * polluted `Object.prototype` must not supply missing fields, so inherited values are ignored.
 */
export function ownField(record: JsonRecord, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** 'a string', 'a list', 'null': for problem messages, without echoing a possibly huge value. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

/** A short quoted form of a string for problem messages. */
export function quote(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function isIsoTimestamp(value: unknown): value is string {
  return typeof value === 'string' && isoPattern.test(value) && !Number.isNaN(Date.parse(value));
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problem: string };

interface WalkEntry {
  value: object;
  parent: WalkEntry | null;
  step: string;
  depth: number;
}

function pathOf(entry: WalkEntry): string {
  const steps: string[] = [];
  for (let at: WalkEntry | null = entry; at; at = at.parent) steps.push(at.step);
  const path = steps.reverse().join('').replace(/^\./, '');
  return path === '' ? 'the top level' : path;
}

/** Far deeper than any export nests (about ten levels): past it, parsed JSON is refused unread. */
export const maxJsonDepth = 1000;

/** Why parsed JSON is refused before it is read, and where: a `"__proto__"` key, or its depth. */
export type JsonHazard = { protoAt: string } | { tooDeepAt: string };

/**
 * The first hazard of parsed JSON in document order: an own `"__proto__"` key, or nesting deeper
 * than `maxJsonDepth`; null when none. Iterative, so any depth is fine, and linear in the size of
 * the value (it stops at the first hazard).
 */
export function findJsonHazard(root: unknown): JsonHazard | null {
  if (typeof root !== 'object' || root === null) return null;
  const stack: WalkEntry[] = [{ value: root, parent: null, step: '', depth: 1 }];
  while (stack.length > 0) {
    const entry = stack.pop() as WalkEntry;
    const { value, depth } = entry;
    if (depth > maxJsonDepth) {
      // The start of the path is enough to find it; the whole would be a thousand steps long.
      const path = pathOf(entry);
      return { tooDeepAt: path.length > 60 ? `${path.slice(0, 60)}…` : path };
    }
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return { protoAt: pathOf(entry) };
    const children: [string, unknown][] = Array.isArray(value)
      ? value.map((item: unknown, index) => [`[${index}]`, item])
      : Object.entries(value).map(([key, item]) => [`.${key}`, item]);
    for (let index = children.length - 1; index >= 0; index--) {
      const [step, item] = children[index] as [string, unknown];
      if (typeof item === 'object' && item !== null)
        stack.push({ value: item, parent: entry, step, depth: depth + 1 });
    }
  }
  return null;
}
