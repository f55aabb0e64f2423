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
