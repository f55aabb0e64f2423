import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { base64OfBytes } from '../lib/base64.ts';
import { decryptText, deriveKey, encryptText, randomBytes } from '../lib/passphrase-crypto.ts';
import { createKeySession } from './key-session.ts';
import { createSessionLocks } from './test-locks.ts';
import { createMemoryStorage } from './test-storage.ts';

/** A tab: its own sessionStorage, made the current one. */
function tab(storage = createMemoryStorage()) {
  vi.stubGlobal('sessionStorage', storage);
  return storage;
}

describe('key session', () => {
  let factory: IDBFactory;
  let locks: LockManager;
  let key: CryptoKey;
  let sealed: { iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer> };

  beforeEach(async () => {
    factory = new IDBFactory();
    locks = createSessionLocks();
    key = await deriveKey('passphrase', randomBytes(16), 1000);
    sealed = await encryptText(key, 'the keys');
  });
  afterEach(() => vi.unstubAllGlobals());

  /** The key restored in the current tab opens what `key` sealed; it cannot be read out. */
  async function expectRestored(session = createKeySession({ factory, locks })) {
    const restored = await session.restore();
    if (!restored) throw new Error('no key restored');
    await expect(crypto.subtle.exportKey('raw', restored)).rejects.toThrow();
    expect(await decryptText(restored, sealed.iv, sealed.data)).toBe('the keys');
  }

  it('keeps the key for this tab’s reloads under a random token: sessionStorage holds only the token', async () => {
    const storage = tab();
    await createKeySession({ factory, locks }).keep(key);
    expect([...storage.values.keys()]).toEqual(['ai-chat-key-token']);
    expect(storage.values.get('ai-chat-key-token')).toMatch(/^[0-9a-f-]{36}$/);
    await expectRestored();

    // Another tab has no token: nothing is restored.
    tab();
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
    // A new browser session (no lock held) clears what the last one kept: the token restores nothing.
    tab(storage);
    await createKeySession({ factory, locks: createSessionLocks() }).sweep();
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
  });

  it('clears the records only once no open tab holds the key', async () => {
    const first = tab();
    const kept = createKeySession({ factory, locks });
    await kept.keep(key);
    tab();
    await createKeySession({ factory, locks }).sweep();
    tab(first);
    await expectRestored();

    await kept.drop();
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
    await kept.keep(key);
    tab();
    await createKeySession({ factory, locks }).keep(key);
    // Protection off or the keys forgotten in one tab: every tab's copy goes.
    await kept.dropAll();
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
    tab(first);
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
  });

  it('drops a copy that was still being kept when it was dropped', async () => {
    tab();
    const session = createKeySession({ factory, locks });
    const keeping = session.keep(key);
    await session.dropAll();
    await keeping;
    expect(await createKeySession({ factory, locks }).restore()).toBeNull();
  });

  it('converts an earlier release’s raw key once, and keeps nothing without Web Locks', async () => {
    const raw = randomBytes(32);
    key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    sealed = await encryptText(key, 'the keys');
    const storage = tab(createMemoryStorage({ 'ai-chat-key-session': base64OfBytes(raw) }));
    vi.stubGlobal('navigator', {});
    const session = createKeySession({ factory });
    await expectRestored(session);
    expect(storage.values.size).toBe(0);
    await session.keep(key);
    expect(storage.values.size).toBe(0);
    expect(await session.restore()).toBeNull();
  });
});
