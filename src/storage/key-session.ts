import { wrap, type IDBPDatabase } from 'idb';
import { bytesOfBase64 } from '../lib/base64.ts';
import { importRawKey } from '../lib/passphrase-crypto.ts';
import { storageKeys } from './keys.ts';
import { loadKeySessionToken, saveKeySessionToken, takeLegacySessionKey } from './local-settings.ts';

const { name, version, store } = storageKeys.keySessionDatabase;

type Database = IDBPDatabase<{ keys: { key: string; value: unknown } }>;

/**
 * The unlocked vault's key, kept for this browser session so a reload does not ask again. The key
 * is a non-extractable CryptoKey, kept as one in IndexedDB (Web Storage holds only strings, which
 * script could read out), filed under a random token of this tab in sessionStorage, which a new
 * browser session does not have: the token alone unlocks nothing. Every tab holding the key holds
 * a shared Web Lock; when none does, no open tab is unlocked and every record is stale (a closed
 * tab's, an ended session's), so a locked tab clears them (sweep). Without Web Locks a record
 * could never be known stale, so nothing is kept: a reload asks again.
 */
export interface KeySession {
  /** This tab's key from its session (or an earlier release's, converted once), or null. */
  restore(): Promise<CryptoKey | null>;
  /** Keeps the key for this tab's reloads, and holds the lock until dropped. */
  keep(key: CryptoKey): Promise<void>;
  /** This tab no longer holds the key: its record goes. */
  drop(): Promise<void>;
  /** Keys no longer protected, or forgotten: every tab's record goes. */
  dropAll(): Promise<void>;
  /** Clears every record when no open tab holds the key. */
  sweep(): Promise<void>;
}

export interface KeySessionOptions {
  factory?: IDBFactory;
  /** Undefined where the browser has no Web Locks (then nothing is kept). */
  locks?: LockManager;
}

async function openDatabase(factory: IDBFactory): Promise<Database | null> {
  try {
    const request = factory.open(name, version);
    request.addEventListener('upgradeneeded', () => request.result.createObjectStore(store));
    const db = await (wrap(request) as unknown as Promise<Database>);
    db.onversionchange = () => db.close();
    return db;
  } catch (error) {
    console.warn('Could not open the database of the unlocked key', error);
    return null;
  }
}

/** The shared lock, once granted: a function that releases it, resolving once it is released. */
function takeSharedLock(locks: LockManager): Promise<() => Promise<unknown>> {
  return new Promise((granted, refused) => {
    const held: Promise<unknown> = locks.request(
      storageKeys.keySessionLock,
      { mode: 'shared' },
      () =>
        new Promise<void>((release) =>
          granted(() => {
            release();
            return held;
          }),
        ),
    );
    held.catch(refused);
  });
}

/** A random token for this tab, kept in its sessionStorage (a duplicated tab shares it, harmlessly). */
function newToken(): string {
  const token = crypto.randomUUID();
  saveKeySessionToken(token);
  return token;
}

/** A browser-session keeper of the unlocked key; the browser's own IndexedDB and Web Locks by default. */
export function createKeySession({
  factory = globalThis.indexedDB,
  locks = globalThis.navigator?.locks,
}: KeySessionOptions = {}): KeySession {
  let database: Promise<Database | null> | null = null;
  const db = () => (database ??= factory && locks ? openDatabase(factory) : Promise.resolve(null));
  let lock: Promise<() => Promise<unknown>> | null = null;
  // Keeping and dropping run in the order called: a copy dropped while it was being kept still goes.
  let queue: Promise<unknown> = Promise.resolve();
  function inTurn(step: () => Promise<void>): Promise<void> {
    const run = queue.then(step);
    queue = run.catch(() => undefined);
    return run;
  }

  /** Runs a storage step; a failure only means a later reload asks for the passphrase. */
  async function attempt<T>(step: (db: Database) => Promise<T>): Promise<T | undefined> {
    const opened = await db();
    try {
      return opened ? await step(opened) : undefined;
    } catch (error) {
      console.warn('Could not store the unlocked key for this session', error);
      return undefined;
    }
  }

  async function letGo(): Promise<void> {
    const held = lock;
    lock = null;
    await held?.then((release) => release()).catch(() => undefined);
  }

  return {
    async restore() {
      const legacy = takeLegacySessionKey();
      if (legacy !== null) {
        try {
          return await importRawKey(bytesOfBase64(legacy));
        } catch {
          // Not a key: the passphrase is asked.
        }
      }
      const token = loadKeySessionToken();
      const key = token === null ? undefined : await attempt((db) => db.get(store, token));
      return key instanceof CryptoKey ? key : null;
    },

    keep: (key) =>
      inTurn(async () => {
        if (!locks || !(await db())) return;
        // Held before the record is written, so a sweep never clears a record a live tab holds.
        lock ??= takeSharedLock(locks);
        try {
          await lock;
        } catch (error) {
          lock = null;
          console.warn('Could not keep the unlocked key for this session', error);
          return;
        }
        const token = loadKeySessionToken() ?? newToken();
        await attempt((db) => db.put(store, key, token));
      }),

    drop: () =>
      inTurn(async () => {
        const token = loadKeySessionToken();
        if (token !== null) await attempt((db) => db.delete(store, token));
        await letGo();
      }),

    dropAll: () =>
      inTurn(async () => {
        await attempt((db) => db.clear(store));
        await letGo();
      }),

    async sweep() {
      if (!locks || !(await db())) return;
      await locks
        .request(storageKeys.keySessionLock, { mode: 'exclusive', ifAvailable: true }, async (free) => {
          if (free) await attempt((db) => db.clear(store));
        })
        .catch((error: unknown) => console.warn('Could not clear the stale unlocked keys', error));
    },
  };
}
