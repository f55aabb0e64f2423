import { syncPasswordKey, syncSettingsProblem, type SyncSettings } from '../domain/sync-settings.ts';
import { loadSyncSettings, saveSyncSettings } from '../storage/sync-store.ts';
import { checkCouch, type CouchCheck } from '../sync/couch-check.ts';
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
  /** Tests, and when all is well keeps the set-up (the password with the keys) and starts. */
  turnOnSync(setUp: SyncSetUp, password: string): Promise<CouchCheck>;
  turnOffSync(): void;
  /** Where sync goes, in words: 'byok-chat on couch.example.com as ada'; '' while it is off. */
  syncTarget(): string;
  syncNow(): void;
  pauseSync(): void;
  resumeSync(): void;
}

export function createSyncCommands({
  ctx,
  sync,
  keyLock,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  keyLock: KeyLock;
}): SyncCommands & { start(): void } {
  const secrets = createKeptSecrets({ ctx, keyLock });
  let runner: SyncRunner | null = null;

  /** Runs sync as set up, once the password is at hand (keys unlocked). */
  function start(): void {
    runner?.stop();
    runner = null;
    const settings = loadSyncSettings();
    if (!settings.on) return;
    const password = secrets.read(syncPasswordKey);
    if (password === undefined) {
      ctx.store.setState({
        syncStatus: {
          kind: 'error',
          message:
            ctx.get().keyLock === 'locked'
              ? 'your keys are locked: unlock them to sync.'
              : 'the password is missing: set sync up again in Settings → Sync.',
        },
      });
      return;
    }
    runner = startSyncRunner({ ctx, sync, settings, password });
  }
  // Unlocking the keys gives the password: sync starts then.
  ctx.store.subscribe((state, before) => {
    if (state.keyLock === 'unlocked' && before.keyLock === 'locked' && runner === null) start();
  });

  const test = (setUp: SyncSetUp, password: string): Promise<CouchCheck> => {
    const problem = syncSettingsProblem(setUp);
    if (problem) return Promise.resolve({ ok: false, lines: [problem] });
    return checkCouch({ ...setUp, password }, globalThis.location.origin);
  };

  const setPaused = (paused: boolean) => saveSyncSettings({ ...loadSyncSettings(), paused });

  return {
    start,
    testSync: test,
    async turnOnSync(setUp, password) {
      const check = await test(setUp, password);
      if (!check.ok) return check;
      if (ctx.get().keyLock === 'locked')
        return {
          ok: false,
          lines: [...check.lines, 'Unlock your keys first: the password is kept with them.'],
        };
      secrets.write((kept) => ({ ...kept, [syncPasswordKey]: password }));
      saveSyncSettings({ ...setUp, url: setUp.url.trim(), on: true, paused: false });
      start();
      return check;
    },
    turnOffSync() {
      runner?.stop();
      runner = null;
      saveSyncSettings({ ...loadSyncSettings(), on: false, paused: false });
      secrets.write((kept) =>
        Object.fromEntries(Object.entries(kept).filter(([key]) => key !== syncPasswordKey)),
      );
      ctx.store.setState({ syncStatus: null });
    },
    syncTarget() {
      const { on, url, database, username } = loadSyncSettings();
      if (!on) return '';
      let host = url;
      try {
        host = new URL(url).host;
      } catch {
        // Checked when saved: kept as typed.
      }
      return `${database} on ${host} as ${username}`;
    },
    syncNow: () => runner?.syncNow(),
    pauseSync() {
      setPaused(true);
      runner?.pause();
    },
    resumeSync() {
      setPaused(false);
      runner?.resume();
    },
  };
}
