import { createImportWork, type ImportRequest } from './import-work.ts';

/** Reads and stores imports off the page's thread: see import-work.ts. */
const handle = createImportWork((reply) => self.postMessage(reply));
self.addEventListener('message', (event: MessageEvent<ImportRequest>) => handle(event.data));
