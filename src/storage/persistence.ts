/**
 * Whether the browser keeps this site's data when space runs low, and how much it uses: the
 * Storage API (navigator.storage), where the browser has it.
 */

export interface StorageFigures {
  /** Bytes used by this site, and the most it may use; null when the browser does not say. */
  usage: number | null;
  quota: number | null;
  /** True when the browser will not evict the data; null when it cannot tell. */
  persisted: boolean | null;
}

const manager = (): StorageManager | undefined =>
  typeof navigator === 'undefined' ? undefined : navigator.storage;

/** Asks the browser to keep this site's data (it may grant or refuse silently); true when kept. */
export async function askToPersist(): Promise<boolean> {
  const storage = manager();
  if (!storage?.persist) return false;
  try {
    return (await storage.persisted()) || (await storage.persist());
  } catch {
    return false;
  }
}

export async function storageFigures(): Promise<StorageFigures> {
  const storage = manager();
  const [estimate, persisted] = await Promise.all([
    storage?.estimate ? storage.estimate().catch(() => null) : null,
    storage?.persisted ? storage.persisted().catch(() => null) : null,
  ]);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}
