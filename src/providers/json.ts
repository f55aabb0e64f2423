/**
 * Readers for untrusted JSON from providers: no schema library, to keep the layer small. Like the
 * guards they build on, they read own properties only.
 */

import { isRecord, ownField, type JsonRecord } from '../domain/json-guards.ts';

/** Parsed JSON, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The own field `key` of a JSON object, or undefined when `record` is not one. */
export function fieldAt(record: unknown, key: string): unknown {
  return isRecord(record) ? ownField(record, key) : undefined;
}

export function stringAt(record: unknown, key: string): string | undefined {
  const value = fieldAt(record, key);
  return typeof value === 'string' ? value : undefined;
}

export function numberAt(record: unknown, key: string): number | undefined {
  const value = fieldAt(record, key);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function recordAt(record: unknown, key: string): JsonRecord | undefined {
  const value = fieldAt(record, key);
  return isRecord(value) ? value : undefined;
}

export function arrayAt(record: unknown, key: string): unknown[] {
  const value = fieldAt(record, key);
  return Array.isArray(value) ? value : [];
}

/** A positive number at `key`, or undefined (lists report null for unknown limits). */
export function countAt(record: unknown, key: string): number | undefined {
  const value = numberAt(record, key);
  return value !== undefined && value > 0 ? value : undefined;
}

/** Only the fields that have a value: a listed model claims nothing it did not report. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
