/**
 * Web Locks as one browser session has them, for tests (Node has none): exclusive and shared
 * modes and `ifAvailable`. A new one plays a new browser session: the earlier tabs' locks are gone.
 */
export function createSessionLocks(): LockManager {
  const held = new Map<string, { mode: LockMode; count: number }>();
  const free = (name: string, mode: LockMode) => {
    const current = held.get(name);
    return !current || (mode === 'shared' && current.mode === 'shared');
  };
  async function request(
    name: string,
    options: LockOptions,
    callback: (lock: Lock | null) => unknown,
  ): Promise<unknown> {
    const mode = options.mode ?? 'exclusive';
    while (!free(name, mode)) {
      if (options.ifAvailable) return callback(null);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    held.set(name, { mode, count: (held.get(name)?.count ?? 0) + 1 });
    try {
      return await callback({ name, mode });
    } finally {
      const current = held.get(name);
      if (current && current.count > 1) current.count -= 1;
      else held.delete(name);
    }
  }
  return { request } as unknown as LockManager;
}
