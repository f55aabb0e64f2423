import {
  syncKeyKey,
  syncPasswordKey,
  syncSettingsProblem,
  type SyncSettings,
} from '../domain/sync-settings.ts';
import { storageKeys } from '../storage/keys.ts';
import { loadSyncSettings, saveSyncSettings } from '../storage/sync-store.ts';
import { checkCouch, type CouchCheck } from '../sync/couch-check.ts';
import { createCouchClient, type CouchClient } from '../sync/couch-client.ts';
import {
  encryptedSealer,
  encryptionKeyFor,
  exportSyncKey,
  importSyncKey,
  isEncrypted,
  type Sealer,
} from '../sync/sealing.ts';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { KeyLock } from './key-lock.ts';
import { createKeptSecrets } from './kept-secrets.ts';
import { startSyncRunner, type SyncRunner } from './sync-runner.ts';

/** Where to sync to, as the user types it. */
export type SyncSetUp = Pick<SyncSettings, 'url' | 'database' | 'username'>;

/** Settings → Sync, and the status line's buttons (docs/sync.md). Loaded when sync is first set up or is on at start. */
export interface SyncCommands {
  /** 'Test': what works of the set-up and the first thing that does not. */
  testSync(setUp: SyncSetUp, password: string): Promise<CouchCheck>;
  /**
   * Tests, and when all is well keeps the set-up (the password with the keys) and starts. With the
   * key lock's passphrase, sealed end to end (docs/sync.md#end-to-end-encryption).
   */
  turnOnSync(
    setUp: SyncSetUp,
    password: string,
    passphrase?: string,
    options?: { syncKeys?: boolean },
  ): Promise<CouchCheck>;
  turnOffSync(): void;
  /** Where sync goes, in words: 'byok-chat on couch.example.com as ada' (', encrypted end to end'); '' while it is off. */
  syncTarget(): string;
  syncNow(): void;
  pauseSync(): void;
  resumeSync(): void;
}

export function createSyncCommands({
  ctx,
  sync,
  keyLock,
  reloadSettings,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  keyLock: KeyLock;
  /** Takes in settings written to storage, as another tab's are. */
  reloadSettings(): void;
}): SyncCommands & { start(): Promise<void> } {
  const secrets = createKeptSecrets({ ctx, keyLock });
  let runner: SyncRunner | null = null;
  /**
   * One tab runs sync for every tab of this browser: the one holding the Web Lock. The others
   * wait for it (one takes over when that tab closes), show its status, and send it their
   * buttons' commands; what they save reaches it through storage and the tab channel.
   */
  let leading: (() => void) | null = null;
  let waitingToLead: AbortController | null = null;

  const stopped = (message: string) => ctx.store.setState({ syncStatus: { kind: 'error', message } });
  const locked = () => ctx.get().keyLock === 'locked';

  /** Stops sync here: the runner, the lead (another tab may take it) or the wait for it. */
  function stopHere(): void {
    runner?.stop();
    runner = null;
    leading?.();
    leading = null;
    waitingToLead?.abort();
    waitingToLead = null;
  }

  /** Starts sync as set up: this tab leads when no other does, or waits to. */
  /** Counts starts: a run that a later start overtook (while it awaited) starts nothing. */
  let starts = 0;
  async function start(): Promise<void> {
    stopHere();
    const started = ++starts;
    if (!loadSyncSettings().on) return;
    const locks = globalThis.navigator?.locks;
    if (!locks) return run(started);
    const waiting = new AbortController();
    waitingToLead = waiting;
    // Meanwhile the tab that leads says where sync stands.
    ctx.tabSync.post({ type: 'sync-command', command: 'status' });
    await locks
      .request(storageKeys.syncLeadLock, { signal: waiting.signal }, async () => {
        if (waitingToLead !== waiting) return;
        waitingToLead = null;
        const held = new Promise<void>((release) => (leading = release));
        await run(started);
        await held;
      })
      .catch(() => undefined); // Stopped while waiting.
  }

  /** Runs sync as set up, once the password (and an encrypted sync's key) is at hand (keys unlocked). */
  async function run(started: number): Promise<void> {
    const settings = loadSyncSettings();
    // Turned off meanwhile (in another tab): the lead goes back at once.
    if (!settings.on) return stopHere();
    const password = secrets.read(syncPasswordKey);
    const rawKey = settings.encrypted ? secrets.read(syncKeyKey) : '';
    if (password === undefined || rawKey === undefined)
      return stopped(
        locked()
          ? 'your keys are locked: unlock them to sync.'
          : 'the password or the encryption key is missing: set sync up again in Settings → Sync.',
      );
    let sealer: Sealer | undefined;
    if (settings.encrypted) sealer = encryptedSealer(await importSyncKey(rawKey));
    else if (await encryptedThere(createCouchClient({ ...settings, password }))) return stopped(lockedData);
    if (!loadSyncSettings().on) return stopHere();
    if (runner !== null || started !== starts) return;
    runner = startSyncRunner({
      ctx,
      sync,
      settings,
      password,
      reloadSettings,
      resealKeys: () => keyLock.reseal(),
      ...(sealer && { sealer }),
    });
  }

  /** Whether the database is sealed end to end; a server out of reach is asked again by the runner. */
  const encryptedThere = (client: CouchClient) => isEncrypted(client).catch(() => false);
  const lockedData =
    'the data in this database is encrypted end to end: set sync up again with Encrypt end to end and your passphrase.';

  // Unlocking the keys gives the password: sync starts then.
  ctx.store.subscribe((state, before) => {
    if (state.keyLock === 'unlocked' && before.keyLock === 'locked' && runner === null) void start();
    // Leading, every change of status is told to the other tabs.
    if (leading && (state.syncStatus !== before.syncStatus || state.syncLeftOut !== before.syncLeftOut))
      tellStatus();
  });
  const tellStatus = () => {
    const { syncStatus, syncLeftOut } = ctx.get();
    ctx.tabSync.post({ type: 'sync-status', status: syncStatus, leftOut: [...syncLeftOut] });
  };
  ctx.tabSync.subscribe((message) => {
    if (message.type === 'sync-status' && !leading) {
      ctx.store.setState({ syncStatus: message.status, syncLeftOut: message.leftOut });
      // Sync turned on in another tab: this one waits to take over when that one closes.
      if (message.status && !waitingToLead && loadSyncSettings().on) void start();
    }
    if (message.type !== 'sync-command' || !leading) return;
    switch (message.command) {
      case 'sync-now':
        return runner?.syncNow();
      case 'pause':
        return runner?.pause();
      case 'resume':
        return runner?.resume();
      case 'stop':
        return stopHere();
      case 'status':
        return tellStatus();
    }
  });
  /** A button's command: to the runner here, or to the tab that leads. */
  const command = (name: 'sync-now' | 'pause' | 'resume', here: (runner: SyncRunner) => void) => {
    if (runner) here(runner);
    else if (!leading) ctx.tabSync.post({ type: 'sync-command', command: name });
  };

  const test = (setUp: SyncSetUp, password: string): Promise<CouchCheck> => {
    const problem = syncSettingsProblem(setUp);
    if (problem) return Promise.resolve({ ok: false, lines: [problem] });
    return checkCouch({ ...setUp, password }, globalThis.location.origin);
  };

  const setPaused = (paused: boolean) => saveSyncSettings({ ...loadSyncSettings(), paused });

  return {
    start,
    testSync: test,
    async turnOnSync(setUp, password, passphrase, { syncKeys = false } = {}) {
      const check = await test(setUp, password);
      if (!check.ok) return check;
      const refused = (line: string): CouchCheck => ({ ok: false, lines: [...check.lines, line] });
      if (locked()) return refused('Unlock your keys first: the password is kept with them.');
      const client = createCouchClient({ ...setUp, url: setUp.url.trim(), password });
      let rawKey: string | undefined;
      if (passphrase === undefined) {
        if (await isEncrypted(client))
          return refused(
            'The data in this database is encrypted end to end: turn on Encrypt end to end and give the passphrase it was encrypted with.',
          );
      } else {
        if (ctx.get().keyLock !== 'unlocked')
          return refused(
            'Protect your keys with a passphrase first (Settings → Keys): that passphrase encrypts sync.',
          );
        if (!(await keyLock.unlock(passphrase)))
          return refused('That is not the passphrase your keys are protected with.');
        if (!(await isEncrypted(client)) && (await client.changes('0', { limit: 1 })).results.length > 0)
          return refused(
            'This database already holds data that is not encrypted: use a new database for encrypted sync.',
          );
        const key = await encryptionKeyFor(client, passphrase);
        if (!key.ok)
          return refused(
            key.reason === 'wrong-passphrase'
              ? 'This database is encrypted with another passphrase: give the one it was encrypted with.'
              : 'This database’s encryption record cannot be read.',
          );
        rawKey = await exportSyncKey(key.key);
      }
      secrets.write((kept) => ({
        ...withoutSyncSecrets(kept),
        [syncPasswordKey]: password,
        ...(rawKey !== undefined && { [syncKeyKey]: rawKey }),
      }));
      saveSyncSettings({
        ...setUp,
        url: setUp.url.trim(),
        on: true,
        paused: false,
        encrypted: rawKey !== undefined,
        syncKeys: rawKey !== undefined && syncKeys,
      });
      await start();
      return rawKey === undefined
        ? check
        : { ok: true, lines: [...check.lines, 'Encrypted end to end: the server holds only ciphertext.'] };
    },
    turnOffSync() {
      if (!leading) ctx.tabSync.post({ type: 'sync-command', command: 'stop' });
      stopHere();
      saveSyncSettings({
        ...loadSyncSettings(),
        on: false,
        paused: false,
        encrypted: false,
        syncKeys: false,
      });
      secrets.write(withoutSyncSecrets);
      ctx.store.setState({ syncStatus: null });
    },
    syncTarget() {
      const { on, url, database, username, encrypted, syncKeys } = loadSyncSettings();
      if (!on) return '';
      let host = url;
      try {
        host = new URL(url).host;
      } catch {
        // Checked when saved: kept as typed.
      }
      const sealed = encrypted ? `, encrypted end to end${syncKeys ? ', keys included' : ''}` : '';
      return `${database} on ${host} as ${username}${sealed}`;
    },
    syncNow: () => command('sync-now', (here) => here.syncNow()),
    pauseSync() {
      setPaused(true);
      command('pause', (here) => here.pause());
    },
    resumeSync() {
      setPaused(false);
      command('resume', (here) => here.resume());
    },
  };
}

const withoutSyncSecrets = (kept: Record<string, string>) =>
  Object.fromEntries(Object.entries(kept).filter(([key]) => key !== syncPasswordKey && key !== syncKeyKey));
