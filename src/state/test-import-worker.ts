import type { ImportWorker } from './import-runner.ts';
import { createImportWork, type ImportReply } from './import-work.ts';

/** The import worker's work run on the test's own thread, talked to as the page talks to the worker. */
export function inThreadImportWorker(): ImportWorker {
  let onReply: (reply: ImportReply) => void = () => undefined;
  let ended = false;
  // Each reply a task later, as a worker's message arrives; none once it is ended.
  const handle = createImportWork((reply) =>
    setTimeout(() => {
      if (!ended) onReply(reply);
    }),
  );
  return {
    post: (request) => handle(request),
    listen: (reply) => {
      onReply = reply;
    },
    terminate: () => {
      ended = true;
    },
  };
}
