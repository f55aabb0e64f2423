import { storageFailure, type StorageFailure } from '../storage/result.ts';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { ImportReply, ImportRequest } from './other-app-import.worker.ts';

/** Another app's export as found in a file, before anything is added. */
export interface FoundExport {
  app: string;
  count: number;
  /** Entries that could not be read: they will be left out. */
  skipped: number;
}

export type Inspection = { found: FoundExport } | { problem: string } | 'own-format';

/**
 * Importing another app's export (ChatGPT, Claude.ai, BetterChatGPT, NextChat): a worker reads
 * the file (other-app-import.worker.ts) and says what it is; once the user agrees it writes its
 * conversations in batches, each in one transaction, and the rows join the list. The configuration is
 * never touched, and conversations already here (imported before) are left as they are.
 */
export function createOtherAppImport(ctx: ChatContext, sync: ConversationSync) {
  let worker: Worker | null = null;
  let found: FoundExport | null = null;

  function close(): void {
    worker?.terminate();
    worker = null;
    found = null;
  }

  function ask(request: ImportRequest): void {
    worker?.postMessage(request);
  }

  async function inspect(file: Blob): Promise<Inspection> {
    close();
    const reading = new Worker(new URL('./other-app-import.worker.ts', import.meta.url), { type: 'module' });
    worker = reading;
    const reply = await new Promise<ImportReply | null>((resolve) => {
      reading.onmessage = (event: MessageEvent<ImportReply>) => resolve(event.data);
      reading.onerror = (event) => {
        event.preventDefault();
        resolve(null);
      };
      ask({ type: 'read', file, now: ctx.now().toISOString() });
    });
    if (reply?.type === 'found') {
      found = { app: reply.app, count: reply.count, skipped: reply.skipped };
      return { found };
    }
    close();
    if (reply?.type === 'problem') return { problem: reply.message };
    // Not another app's, or the reader did not load (offline): the app's own import decides.
    return 'own-format';
  }

  /** Adds what `inspect` found; false (with a toast) when nothing could be written. */
  async function add(): Promise<boolean> {
    const reading = worker;
    const source = found;
    if (!reading || !source) return false;
    let added = 0;
    let already = 0;
    const failure = await new Promise<StorageFailure | undefined>((resolve) => {
      reading.onmessage = (event: MessageEvent<ImportReply>) => {
        const reply = event.data;
        if (reply.type === 'stored') {
          added += reply.rows.length;
          already += reply.already;
          if (reply.rows.length > 0)
            ctx.store.setState((state) => ({ list: [...state.list, ...reply.rows] }));
        }
        if (reply.type === 'done') resolve(reply.failure);
      };
      reading.onerror = (event) => {
        event.preventDefault();
        resolve(storageFailure(new Error('The importer stopped')));
      };
      // The worker writes them itself (see other-app-import.worker.ts); known ones are left alone.
      ask({ type: 'store', order: ctx.now().getTime(), known: ctx.get().list.map((row) => row.id) });
    });
    // A write that failed is reported as every failed save is (storage full: export a copy).
    if (failure) sync.reportWrite(failure);
    const failed = failure !== undefined;
    close();
    if (added > 0) ctx.tabSync.post({ type: 'conversations-added' });
    const notes = [
      source.skipped > 0 &&
        `${source.skipped} ${source.skipped === 1 ? 'entry' : 'entries'} could not be read and ${source.skipped === 1 ? 'was' : 'were'} left out.`,
      already > 0 &&
        `${already} ${already === 1 ? 'was' : 'were'} already here and left as ${already === 1 ? 'it is' : 'they are'}.`,
      failed && 'Storage refused the rest.',
    ].filter(Boolean);
    const description = notes.length > 0 ? { description: notes.join(' ') } : {};
    if (added === 0 && failed) {
      ctx.notify.error(`Could not import the ${source.app}`, notes.join(' '));
      return false;
    }
    const count = `${added} ${added === 1 ? 'conversation' : 'conversations'}`;
    ctx.notify.success(`Imported ${count} from the ${source.app}`, description);
    return true;
  }

  return { inspect, add, cancel: close };
}
