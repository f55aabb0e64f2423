/** Narrowing helpers for untrusted JSON from providers: no schema library, to keep the layer small. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parsed JSON, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function stringAt(record: unknown, key: string): string | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export function numberAt(record: unknown, key: string): number | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function recordAt(record: unknown, key: string): JsonRecord | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return isRecord(value) ? value : undefined;
}

export function arrayAt(record: unknown, key: string): unknown[] {
  const value = isRecord(record) ? record[key] : undefined;
  return Array.isArray(value) ? value : [];
}

/** The `id` of each entry of `data`: the list-models shape of OpenAI, Azure, Groq and Anthropic. */
/** A positive number at `key`, or undefined (lists report null for unknown limits). */
export function countAt(record: unknown, key: string): number | undefined {
  const value = numberAt(record, key);
  return value !== undefined && value > 0 ? value : undefined;
}

/** Only the fields that have a value: a listed model claims nothing it did not report. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
