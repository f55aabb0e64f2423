import type { BackupWorkerReply, BackupWorkerRequest } from './backup.worker.ts';

/** Takes a backup in a worker (backup.worker.ts); one that cannot start is a failure, never a hang. */
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
      worker.terminate();
      resolve(reply);
    };
    worker.onmessage = (event: MessageEvent<BackupWorkerReply>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ status: 'failed', message: 'The backup could not start (offline?)' });
    };
    worker.postMessage(request);
  });
}

export type BackupRunner = typeof runBackupWorker;
