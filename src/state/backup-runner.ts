import type { BackupWorkerReply, BackupWorkerRequest } from './backup.worker.ts';

/** Far longer than a backup of a large history takes (seconds): past it, the worker is stuck. */
const timeoutMs = 5 * 60_000;

/**
 * Takes a backup in a worker (backup.worker.ts); one that cannot start, or never answers, is a
 * failure, never a hang (a start waits on the backup taken before an upgrade).
 */
export function runBackupWorker(request: BackupWorkerRequest): Promise<BackupWorkerReply> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./backup.worker.ts', import.meta.url), { type: 'module' });
    } catch (error) {
      resolve({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const finish = (reply: BackupWorkerReply) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(reply);
    };
    const timer = setTimeout(
      () => finish({ status: 'failed', message: 'The backup took too long and was stopped' }),
      timeoutMs,
    );
    worker.onmessage = (event: MessageEvent<BackupWorkerReply>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ status: 'failed', message: 'The backup could not start (offline?)' });
    };
    worker.postMessage(request);
  });
}

export type BackupRunner = typeof runBackupWorker;
