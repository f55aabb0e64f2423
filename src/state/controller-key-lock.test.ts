import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteDB, openDB } from 'idb';
import { base64OfBytes } from '../lib/base64.ts';
import { encryptText, randomBytes } from '../lib/passphrase-crypto.ts';
import { storageKeys } from '../storage/keys.ts';
import { createSessionLocks } from '../storage/test-locks.ts';
import { createMemoryStorage } from '../storage/test-storage.ts';
import {
  config,
  openTab,
  shown,
  idle,
  sendAndWait,
  tab,
  databaseName,
  localStorage,
  setUpTabs,
} from './controller-harness.ts';

setUpTabs();

describe('keys protected with a passphrase', () => {
  const stored = (key: string) =>
    JSON.parse(localStorage.getItem(key) ?? 'null') as Record<string, unknown> | null;
  const keySessions = storageKeys.keySessionDatabase;

  /** Every tab's key kept for its reloads, as IndexedDB holds them. */
  async function keptKeys(): Promise<unknown[]> {
    const db = await openDB(keySessions.name, keySessions.version, {
      upgrade: (created) => void created.createObjectStore(keySessions.store),
    });
    try {
      return await db.getAll(keySessions.store);
    } finally {
      db.close();
    }
  }

  async function expectUnreadable(key: unknown) {
    expect(key).toBeInstanceOf(CryptoKey);
    await expect(crypto.subtle.exportKey('raw', key as CryptoKey)).rejects.toThrow();
  }

  /** A new tab: its own sessionStorage, returned. */
  function newTab() {
    const session = createMemoryStorage();
    vi.stubGlobal('sessionStorage', session);
    return session;
  }

  /** A new browser session: a new tab, and Web Locks no earlier tab holds. */
  function newSession() {
    vi.stubGlobal('navigator', { locks: createSessionLocks() });
    return newTab();
  }

  beforeEach(async () => {
    newSession();
    await deleteDB(keySessions.name);
  });

  it('stores the keys only encrypted, asks a new session once, and refuses a wrong passphrase', async () => {
    expect(await tab.chat.protectKeys('passphrase')).toBe(true);
    expect(stored('ai-chat-config')).toEqual({ ...config, apiKey: '' });
    expect(JSON.stringify(stored('ai-chat-connections'))).not.toContain('sk-test');
    expect(stored('ai-chat-key-vault')).toMatchObject({ format: 1, iterations: 600_000 });
    expect(localStorage.getItem('ai-chat-key-vault')).not.toContain('sk-test');
    // This session goes on with its key.
    await sendAndWait(tab, 'Still', 'works');

    // A new browser session: no session key, no other tab; what the last one kept is cleared.
    const session = newSession();
    const later = await openTab(`${databaseName}-later`, 'later');
    await vi.waitFor(() => expect(later.chat.view.getState().overlay).toBe('unlock-keys'));
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'locked', config: { apiKey: '' } });
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));
    later.chat.setOverlay(null);
    await later.chat.newConversation();
    // A message asks for the passphrase; 'Not now' keeps it unsent.
    const refused = later.chat.send('Locked');
    expect(later.chat.view.getState().overlay).toBe('unlock-keys');
    later.chat.setOverlay(null);
    expect(await refused).toBe(false);
    expect(later.provider.sent).toHaveLength(0);

    // Once unlocked, the message that asked is sent.
    later.provider.next('Sent once unlocked');
    const waiting = later.chat.send('Asked while locked');
    expect(await later.chat.unlockKeys('wrong')).toBe(false);
    expect(later.chat.store.getState().keyLock).toBe('locked');
    expect(await later.chat.unlockKeys('passphrase')).toBe(true);
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'unlocked', config: { apiKey: 'sk-test' } });
    expect(await waiting).toBe(true);
    await vi.waitFor(() =>
      expect(shown(later)).toEqual(['user: Asked while locked', 'assistant: Sent once unlocked']),
    );
    await idle(later);
    // The key kept for a reload cannot be read out, and sessionStorage holds only a random token.
    const [kept, ...others] = await keptKeys();
    expect(others).toEqual([]);
    await expectUnreadable(kept);
    expect([...session.values.keys()]).toEqual(['ai-chat-key-token']);
    expect(session.values.get('ai-chat-key-token')).toMatch(/^[0-9a-f-]{36}$/);

    // A reload of that tab (same session, no tab to hand the key over) unlocks by itself.
    const reloaded = await openTab(`${databaseName}-reloaded`, 'reloaded');
    expect(reloaded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-test' },
    });
  }, 20_000);

  it('hands the key to a new tab without asking, as a key that cannot be read out', async () => {
    await tab.chat.protectKeys('passphrase');
    newTab();
    const second = await openTab(databaseName, 'second');
    await vi.waitFor(() =>
      expect(second.chat.store.getState()).toMatchObject({
        keyLock: 'unlocked',
        config: { apiKey: 'sk-test' },
      }),
    );
    // Past the wait before the passphrase is asked.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(second.chat.view.getState().overlay).toBeNull();
    // Each tab keeps its copy for its reloads: the one handed over cannot be read out either.
    const kept = await keptKeys();
    expect(kept).toHaveLength(2);
    for (const key of kept) await expectUnreadable(key);
  }, 20_000);

  it('opens the vault with an earlier release’s session key once, kept as a key that cannot be read out', async () => {
    const raw = randomBytes(32);
    const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const { iv, data } = await encryptText(key, JSON.stringify({ openai: 'sk-earlier' }));
    localStorage.setItem('ai-chat-config', JSON.stringify({ ...config, apiKey: '' }));
    localStorage.setItem(
      'ai-chat-key-vault',
      JSON.stringify({
        format: 1,
        iterations: 600_000,
        salt: base64OfBytes(randomBytes(16)),
        iv: base64OfBytes(iv),
        data: base64OfBytes(data),
      }),
    );
    const session = newTab();
    session.setItem('ai-chat-key-session', base64OfBytes(raw));
    const upgraded = await openTab(`${databaseName}-upgraded`, 'upgraded');
    expect(upgraded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-earlier' },
    });
    expect([...session.values.keys()]).toEqual(['ai-chat-key-token']);
    const [kept] = await keptKeys();
    await expectUnreadable(kept);

    const reloaded = await openTab(`${databaseName}-reloaded`, 'reloaded');
    expect(reloaded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-earlier' },
    });
  }, 20_000);

  it('keeps a key saved while unlocked in the vault, and stores keys plainly again when turned off', async () => {
    await tab.chat.protectKeys('passphrase');
    tab.chat.saveConfiguration({ ...config, apiKey: 'sk-new' });
    await vi.waitFor(async () => {
      newSession();
      const other = await openTab(`${databaseName}-${Math.random()}`, `other-${Math.random()}`);
      expect(await other.chat.unlockKeys('passphrase')).toBe(true);
      expect(other.chat.store.getState().config.apiKey).toBe('sk-new');
    });
    expect(stored('ai-chat-config')).toMatchObject({ apiKey: '' });
    expect(await keptKeys()).not.toEqual([]);

    expect(await tab.chat.unprotectKeys()).toBe(true);
    expect(stored('ai-chat-config')).toMatchObject({ apiKey: 'sk-new' });
    expect(localStorage.getItem('ai-chat-key-vault')).toBeNull();
    // No tab's copy of the key is kept any more.
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));
  }, 20_000);

  it("keeps an MCP server's token like an API key: in the clear only while keys are not protected, sealed with them, never exported", async () => {
    const added = await tab.chat.addMcpServer({
      url: 'http://127.0.0.1:9/mcp',
      auth: 'bearer',
      token: 'mcp-token-1',
    });
    expect(added.ok).toBe(true);
    expect(localStorage.getItem(storageKeys.mcpServers)).not.toContain('mcp-token-1');
    expect(localStorage.getItem(storageKeys.mcpSecrets)).toContain('Bearer mcp-token-1');
    expect(await tab.chat.exportText(true, false)).not.toContain('mcp-token-1');

    expect(await tab.chat.protectKeys('passphrase')).toBe(true);
    expect(localStorage.getItem(storageKeys.mcpSecrets)).toBeNull();
    expect(localStorage.getItem(storageKeys.keyVault)).not.toContain('mcp-token-1');
    newSession();
    const later = await openTab(`${databaseName}-mcp`, 'mcp');
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'locked', mcpSecrets: {} });
    expect(later.chat.store.getState().mcpServers).toHaveLength(1);
    expect(await later.chat.unlockKeys('passphrase')).toBe(true);
    expect(Object.values(later.chat.store.getState().mcpSecrets)).toEqual([
      JSON.stringify({ headers: { Authorization: 'Bearer mcp-token-1' } }),
    ]);

    expect(await later.chat.unprotectKeys()).toBe(true);
    expect(localStorage.getItem(storageKeys.mcpSecrets)).toContain('Bearer mcp-token-1');
    later.chat.removeMcpServer(later.chat.store.getState().mcpServers[0]?.id ?? '');
    // Its commands load on first use: the removal lands once they have.
    await vi.waitFor(() => expect(localStorage.getItem(storageKeys.mcpServers)).toBeNull());
    expect(localStorage.getItem(storageKeys.mcpSecrets)).toBeNull();
  }, 20_000);

  it('Forgot passphrase clears every key and every kept copy, and nothing else; Undo brings the vault back', async () => {
    await sendAndWait(tab, 'Keep', 'me');
    await tab.chat.protectKeys('passphrase');
    newTab();
    const later = await openTab(databaseName, 'later');
    await vi.waitFor(() => expect(later.chat.store.getState().keyLock).toBe('unlocked'));
    expect(await keptKeys()).toHaveLength(2);
    await later.chat.forgetKeys();
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'off', config: { ...config, apiKey: '' } });
    expect(localStorage.getItem('ai-chat-key-vault')).toBeNull();
    expect(stored('ai-chat-config')).toEqual({ ...config, apiKey: '' });
    expect(later.chat.store.getState().list).toHaveLength(1);
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));

    const cleared = later.calls.find((call) => call.message === 'API keys cleared');
    cleared?.action?.onClick();
    expect(later.chat.store.getState().keyLock).toBe('locked');
    expect(later.chat.view.getState().overlay).toBe('unlock-keys');
    expect(await later.chat.unlockKeys('passphrase')).toBe(true);
    expect(later.chat.store.getState().config.apiKey).toBe('sk-test');
  }, 20_000);
});
