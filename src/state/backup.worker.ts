import { backUp, type BackupOutcome, type BackupRequest } from '../storage/backup-snapshot.ts';
import { storageKeys } from '../storage/keys.ts';

/**
 * Takes a backup off the page's thread: reads every conversation from the database itself,
 * writes the export gzipped as it goes (backup-snapshot.ts). One tab at a time: a daily backup
 * another tab is taking is not taken twice.
 */

export type BackupWorkerRequest = Omit<BackupRequest, 'now'> & { now: string };
/** `busy`: another tab is taking one right now. */
export type BackupWorkerReply = BackupOutcome | { status: 'busy' };

async function take(request: BackupRequest): Promise<BackupWorkerReply> {
  if (!navigator.locks) return backUp(request);
  return navigator.locks.request(
    storageKeys.backupLock,
    { ifAvailable: request.reason === 'daily' },
    async (lock): Promise<BackupWorkerReply> => (lock ? backUp(request) : { status: 'busy' }),
  );
}

self.onmessage = (event: MessageEvent<BackupWorkerRequest>) => {
  const reply = take({ ...event.data, now: new Date(event.data.now) }).catch(
    (error: unknown): BackupWorkerReply => ({
      status: 'failed',
      message: error instanceof Error ? error.message : String(error),
    }),
  );
  void reply.then((outcome) => self.postMessage(outcome));
};
