import { defaultConfig, type Config } from '../domain/config.ts';
import { exportFileName } from '../domain/export-format.ts';
import { downloadBlob } from '../lib/download.ts';
import { backupPolicy, openBackupDb, type BackupInfo } from '../storage/backup-db.ts';

export type { BackupInfo } from '../storage/backup-db.ts';
import type { LocalSettings } from '../storage/local-settings.ts';
import type { BackupRunner } from './backup-runner.ts';
import type { BackupWorkerReply } from './backup.worker.ts';
import type { ChatContext } from './chat-context.ts';

/** A backup never holds the key: it stays in this browser's settings only. */
const withoutKey = (config: Config): Config => ({ ...config, apiKey: '' });

function warnIfNotTaken(when: string, reply: BackupWorkerReply): void {
  if (reply.status === 'failed' || reply.status === 'too-large')
    console.warn(`No backup was taken ${when}`, reply);
}

/**
 * Before an earlier release's data changes shape (the database upgraded, release 1's list moved
 * into it): a backup of it as it is. A failure only warns: neither change deletes what it has not
 * read back, so the start goes on.
 */
export async function backUpBeforeUpgrade(
  run: BackupRunner,
  settings: LocalSettings,
  now: Date,
): Promise<void> {
  const reply = await run({
    reason: 'upgrade',
    config: withoutKey(settings.loadConfig() ?? defaultConfig),
    activeConversationId: settings.loadActiveId(),
    legacy: settings.readLegacyList(),
    now: now.toISOString(),
  });
  warnIfNotTaken('before the upgrade', reply);
}

/** Daily backups, and the list the Import / Export dialog shows (see storage/backup-snapshot.ts). */
export function createBackups(ctx: ChatContext, run: BackupRunner) {
  /** The day this tab last found its backup taken (or not needed). */
  let checkedDay: string | null = null;
  let running = false;

  function take(reason: 'daily' | 'manual'): Promise<BackupWorkerReply> {
    const { config, activeId } = ctx.get();
    return run({
      reason,
      config: withoutKey(config),
      activeConversationId: activeId,
      now: ctx.now().toISOString(),
    }).catch(
      // The worker's starter loads with the first backup (chat.ts): offline, it may not.
      (): BackupWorkerReply => ({ status: 'failed', message: 'The backup could not start (offline?)' }),
    );
  }

  /** A backup's export, decompressed as it is read; null when it is gone or does not read. */
  async function readExport(id: string): Promise<Response | null> {
    const db = await openBackupDb();
    try {
      const data = await db?.read(id);
      return data ? new Response(data.stream().pipeThrough(new DecompressionStream('gzip'))) : null;
    } finally {
      db?.close();
    }
  }

  /** `read` of a backup's export, or null (logged) when it does not read. */
  async function withExport<T>(id: string, read: (data: Response) => Promise<T>): Promise<T | null> {
    try {
      const data = await readExport(id);
      return data && (await read(data));
    } catch (error) {
      console.error('Could not read the backup', error);
      return null;
    }
  }

  const exportOf = (id: string) => withExport(id, (data) => data.blob());

  /** Today's backup unless one was taken today, or nothing changed since the last. */
  async function daily(): Promise<void> {
    const day = ctx.now().toDateString();
    if (checkedDay === day || running) return;
    running = true;
    const reply = await take('daily');
    running = false;
    // Not yet: nothing to keep so far (a reply asks again), a failure, or another tab at it
    // (whose backup may yet fail): the next check tries again.
    if (reply.status !== 'empty' && reply.status !== 'failed' && reply.status !== 'busy') checkedDay = day;
    warnIfNotTaken('today', reply);
  }

  let waiting = false;
  /**
   * Today's backup, off the page's thread, when none was taken today: once no reply streams (it
   * would be stored half-written, as interrupted) and the last saves have landed.
   */
  function backUpToday(delayMs = 2000): void {
    if (waiting) return;
    waiting = true;
    const attempt = () => {
      if (ctx.get().streaming) {
        const stop = ctx.store.subscribe((state) => {
          if (state.streaming) return;
          stop();
          setTimeout(attempt, 2000);
        });
        return;
      }
      waiting = false;
      daily().catch((error: unknown) => console.warn('No backup was taken today', error));
    };
    setTimeout(attempt, delayMs);
  }

  return {
    daily,
    /**
     * Backs up each day while the tab is open, where storage lasts: a minute after the start when
     * there is something to keep (not while the search index is first built, which also reads
     * every conversation), after each finished reply (a new user's first one is worth keeping),
     * and every half hour as days pass.
     */
    schedule(hasConversations: boolean): void {
      if (hasConversations) backUpToday(60_000);
      ctx.store.subscribe((state, previous) => {
        if (previous.streaming && !state.streaming) backUpToday();
      });
      setInterval(() => backUpToday(), 30 * 60_000);
    },
    takeNow: () => take('manual'),
    /** The backups, newest first, and how many (and how much) are kept. */
    async list(): Promise<{ backups: BackupInfo[]; policy: typeof backupPolicy }> {
      const db = await openBackupDb();
      try {
        return { backups: (await db?.list()) ?? [], policy: backupPolicy };
      } finally {
        db?.close();
      }
    },
    /**
     * The backup's export, decompressed into a Blob (never into one string on the page: files'
     * bytes make a large export); null when it does not read. Restore has it read in the import
     * worker.
     */
    exportOf,
    /** The backup as an export file, named for the day it was taken; false when it does not read. */
    async download(info: BackupInfo): Promise<boolean> {
      const json = await exportOf(info.id);
      if (!json) return false;
      downloadBlob(exportFileName(new Date(info.takenAt)), new Blob([json], { type: 'application/json' }));
      return true;
    },
  };
}

export type Backups = ReturnType<typeof createBackups>;
