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

self.onmessage = async (event: MessageEvent<BackupWorkerRequest>) => {
  const request: BackupRequest = { ...event.data, now: new Date(event.data.now) };
  const reply: BackupWorkerReply = navigator.locks
    ? await navigator.locks.request(
        storageKeys.backupLock,
        { ifAvailable: request.reason === 'daily' },
        async (lock): Promise<BackupWorkerReply> => (lock ? backUp(request) : { status: 'busy' }),
      )
    : await backUp(request);
  self.postMessage(reply);
};
