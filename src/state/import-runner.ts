import { formatBytes } from '../domain/attachments.ts';
import type { StorageFailure } from '../storage/result.ts';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';
import { importLimits, type ImagesLeftOut } from './import-limits.ts';
import type { ReadAs, ReadExport } from './import-reading.ts';
import type { ImportReply, ImportRequest } from './import-work.ts';

/** Another app's export as found in a file, before anything is added. */
export interface FoundExport {
  app: string;
  count: number;
  /** Entries that could not be read: they will be left out. */
  skipped: number;
  imagesLeftOut: ImagesLeftOut;
  /** The projects its conversations belong to (ChatGPT's, Claude.ai's); absent: none. */
  projects?: number;
  /** Projects files past their limit were left out. */
  projectsLeftOut?: boolean;
}

/** What a file holds: another app's export, our own (checked, or why not), or nothing readable. */
export type Inspection = { found: FoundExport } | { export: ReadExport } | { problem: string };

/** The import worker as the page talks to it: import.worker.ts, or (tests) its work on their thread. */
export interface ImportWorker {
  post(request: ImportRequest): void;
  /** `onReply` hears each reply, `onDeath` the worker failing to load or crashing. */
  listen(onReply: (reply: ImportReply) => void, onDeath: () => void): void;
  terminate(): void;
}

export function startImportWorker(): ImportWorker {
  const worker = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' });
  return {
    post: (request) => worker.postMessage(request),
    listen(onReply, onDeath) {
      worker.onmessage = (event: MessageEvent<ImportReply>) => onReply(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        onDeath();
      };
      worker.onmessageerror = onDeath;
    },
    terminate: () => worker.terminate(),
  };
}

/**
 * The worker tells it is alive every second while it works; its longest step without a word
 * (parsing 500 MB of JSON) takes seconds. Silent this long, it is stuck: a watchdog on silence
 * rather than a limit on the whole, so a large export still imports.
 */
export const silenceMs = 60_000;

const stopped = {
  silent: `The importer stopped answering for ${silenceMs / 1000} seconds and was ended.`,
  died: 'The importer stopped unexpectedly (the file may be too much for this browser).',
};

/**
 * Sends `request` and hands each reply but progress to `answer` until it gives a result. A worker
 * silent for `silenceMs`, or dead, is ended and the result is `onStopped`'s: never a wait forever.
 */
function exchange<T>(
  worker: ImportWorker,
  request: ImportRequest,
  answer: (reply: ImportReply) => T | undefined,
  onStopped: (message: string) => T,
): Promise<T> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (result: T) => {
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const stop = (message: string) => {
      if (settled) return;
      worker.terminate();
      settle(onStopped(message));
    };
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(stopped.silent), silenceMs);
    };
    worker.listen(
      (reply) => {
        if (settled) return;
        watch();
        const result = reply.type === 'progress' ? undefined : answer(reply);
        if (result !== undefined) settle(result);
      },
      () => stop(stopped.died),
    );
    watch();
    worker.post(request);
  });
}

/**
 * Imports through a worker (import-work.ts), which reads every file: the page gets our own
 * export checked and ready to apply, or another app's named and counted. Once the user agrees,
 * that worker writes another app's conversations in batches, each in one transaction, and the rows
 * join the list. The configuration is never touched, and conversations already here (imported
 * before) are left as they are.
 */
export function createImportRunner(
  ctx: ChatContext,
  sync: ConversationSync,
  startWorker: () => ImportWorker = startImportWorker,
) {
  /** The worker holding another app's export read last, until 'Add' or 'Cancel'. */
  let waiting: { worker: ImportWorker; found: FoundExport } | null = null;

  function cancel(): void {
    waiting?.worker.terminate();
    waiting = null;
  }

  async function read(file: Blob, as: ReadAs): Promise<Inspection> {
    let worker: ImportWorker;
    try {
      worker = startWorker();
    } catch (error) {
      return { problem: `The importer could not start: ${error instanceof Error ? error.message : error}` };
    }
    const request: ImportRequest = { type: 'read', file, as, now: ctx.now().toISOString() };
    const inspection = await exchange<Inspection>(
      worker,
      request,
      (reply) => {
        if (reply.type === 'found') {
          const { app, count, skipped, imagesLeftOut, projects, projectsLeftOut } = reply;
          return {
            found: {
              app,
              count,
              skipped,
              imagesLeftOut,
              ...(projects !== undefined && { projects }),
              ...(projectsLeftOut && { projectsLeftOut }),
            },
          };
        }
        if (reply.type === 'export') return { export: reply.read };
        if (reply.type === 'problem') return { problem: reply.message };
        return undefined;
      },
      (message) => ({ problem: `${message} Nothing was changed.` }),
    );
    if ('found' in inspection) {
      cancel();
      waiting = { worker, found: inspection.found };
    } else worker.terminate();
    return inspection;
  }

  /** Adds what `inspect` found; false (with a toast) when nothing could be written. */
  async function add(): Promise<boolean> {
    if (!waiting) return false;
    const { worker, found: source } = waiting;
    // Its own now: a 'Cancel' or another file no longer stops it.
    waiting = null;
    let added = 0;
    let already = 0;
    let projectsAdded = 0;
    const now = ctx.now();
    const end = await exchange<{ failure?: StorageFailure; stopped?: string }>(
      worker,
      // The worker writes them itself; known ones are left alone.
      {
        type: 'store',
        order: now.getTime(),
        known: ctx.get().list.map((row) => row.id),
        now: now.toISOString(),
      },
      (reply) => {
        if (reply.type === 'projects') {
          // Added beside the user's, never over one (a project of the same id stays as it is).
          projectsAdded += reply.projects.length;
          ctx.store.setState((state) => {
            const known = new Set(state.projects.map((project) => project.id));
            return {
              projects: [...state.projects, ...reply.projects.filter((project) => !known.has(project.id))],
            };
          });
          ctx.tabSync.post({ type: 'projects-changed' });
        }
        if (reply.type === 'stored') {
          added += reply.rows.length;
          already += reply.already;
          if (reply.rows.length > 0)
            ctx.store.setState((state) => ({ list: [...state.list, ...reply.rows] }));
        }
        return reply.type === 'done' ? { failure: reply.failure } : undefined;
      },
      (message) => ({ stopped: message }),
    );
    worker.terminate();
    // A write that failed is reported as every failed save is (storage full: export a copy).
    if (end.failure) sync.reportWrite(end.failure);
    const failed = end.failure !== undefined || end.stopped !== undefined;
    if (added > 0) ctx.tabSync.post({ type: 'conversations-added' });
    const notes = [
      projectsAdded > 0 && `${projectsAdded} ${projectsAdded === 1 ? 'project was' : 'projects were'} added.`,
      source.projectsLeftOut &&
        `Projects files over ${formatBytes(importLimits.projectsBytes)} were left out.`,
      source.skipped > 0 &&
        `${source.skipped} ${source.skipped === 1 ? 'entry' : 'entries'} could not be read and ${source.skipped === 1 ? 'was' : 'were'} left out.`,
      already > 0 &&
        `${already} ${already === 1 ? 'was' : 'were'} already here and left as ${already === 1 ? 'it is' : 'they are'}.`,
      end.failure && 'Storage refused the rest.',
      end.stopped,
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

  return {
    /** What a chosen or pasted file holds; another app's export waits for `add` or `cancel`. */
    inspect: (file: Blob) => {
      cancel();
      return read(file, 'any');
    },
    /** A backup's export (decompressed), checked and ready to apply, or why not. */
    readExport: async (file: Blob): Promise<ReadExport> => {
      const inspection = await read(file, 'export');
      // Read as our own export, it is never taken for another app's.
      if ('found' in inspection) throw new Error('An export was read as another app’s');
      return 'export' in inspection ? inspection.export : { ok: false, problem: inspection.problem };
    },
    add,
    cancel,
  };
}
