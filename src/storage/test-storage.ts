import type { StorageLike } from './local-settings.ts';

/** A Map-backed localStorage for tests; `failWith` makes every write throw that error. */
export function createMemoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const storage: StorageLike & { values: Map<string, string>; failWith: unknown } = {
    values,
    failWith: undefined,
    getItem: (key) => values.get(key) ?? null,
    setItem(key, value) {
      if (storage.failWith !== undefined) throw storage.failWith;
      values.set(key, String(value));
    },
    removeItem(key) {
      if (storage.failWith !== undefined) throw storage.failWith;
      values.delete(key);
    },
  };
  return storage;
}
