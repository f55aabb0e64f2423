import type { Conversation } from '../domain/conversation.ts';
import type { ChatContext } from './chat-context.ts';
import { listItemOf } from './chat-store.ts';
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
 * the file (other-app-import.worker.ts) and says what it is; once the user agrees its
 * conversations are added in batches, each batch written in one transaction. The configuration is
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
    const known = new Set(ctx.get().list.map((row) => row.id));
    let added = 0;
    let already = 0;
    let failed = false;

    async function write(conversations: Conversation[]): Promise<void> {
      if (failed) return;
      const fresh = conversations.filter((conversation) => !known.has(conversation.id));
      already += conversations.length - fresh.length;
      if (fresh.length === 0) return;
      if (!sync.reportWrite(await ctx.db().putMany(fresh))) {
        failed = true;
        return;
      }
      for (const conversation of fresh) known.add(conversation.id);
      added += fresh.length;
      ctx.store.setState((state) => ({ list: [...state.list, ...fresh.map(listItemOf)] }));
    }

    await new Promise<void>((resolve) => {
      // One batch at a time, in order: each is written before the next is looked at.
      let queue = Promise.resolve();
      reading.onmessage = (event: MessageEvent<ImportReply>) => {
        const reply = event.data;
        if (reply.type === 'batch') queue = queue.then(() => write(reply.conversations));
        if (reply.type === 'done') void queue.then(resolve);
      };
      ask({ type: 'send', order: ctx.now().getTime() });
    });
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
