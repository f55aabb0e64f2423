import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';
import { createImportRunner, silenceMs, type ImportWorker } from './import-runner.ts';
import type { ImportReply } from './import-work.ts';

/** A worker the test speaks for: what it replies, whether it dies, and whether it was ended. */
function scriptedWorker() {
  const state: { terminated: boolean; reply: (reply: ImportReply) => void; die: () => void } = {
    terminated: false,
    reply: () => undefined,
    die: () => undefined,
  };
  const worker: ImportWorker = {
    post: () => undefined,
    listen: (onReply, onDeath) => {
      state.reply = onReply;
      state.die = onDeath;
    },
    terminate: () => {
      state.terminated = true;
    },
  };
  return { worker, state };
}

const ctx = { now: () => new Date('2026-11-25T12:00:00.000Z') } as ChatContext;
const sync = {} as ConversationSync;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the import watchdog', () => {
  it('ends a worker silent for a minute and says so; progress keeps it waiting', async () => {
    const { worker, state } = scriptedWorker();
    const runner = createImportRunner(ctx, sync, () => worker);
    let settled = false;
    const inspection = runner.inspect(new Blob(['{}'])).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(silenceMs - 1000);
    state.reply({ type: 'progress' });
    await vi.advanceTimersByTimeAsync(silenceMs - 1000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await inspection).toEqual({
      problem: 'The importer stopped answering for 60 seconds and was ended. Nothing was changed.',
    });
    expect(state.terminated).toBe(true);
  });

  it('says so at once when the worker dies', async () => {
    const { worker, state } = scriptedWorker();
    const runner = createImportRunner(ctx, sync, () => worker);
    const inspection = runner.inspect(new Blob(['{}']));
    state.die();
    expect(await inspection).toEqual({
      problem:
        'The importer stopped unexpectedly (the file may be too much for this browser). Nothing was changed.',
    });
  });

  it('ends an Add whose worker dies, telling what was added', async () => {
    const { worker, state } = scriptedWorker();
    const toasts: string[] = [];
    const rows: unknown[] = [];
    const adding = {
      ...ctx,
      get: () => ({ list: [] }),
      store: {
        setState: (change: (state: { list: unknown[] }) => { list: unknown[] }) =>
          rows.push(...change({ list: [] }).list),
      },
      tabSync: { post: () => undefined },
      notify: {
        success: (title: string, { description = '' } = {}) => toasts.push(`${title}. ${description}`),
      },
    } as unknown as ChatContext;
    const runner = createImportRunner(adding, sync, () => worker);
    const inspection = runner.inspect(new Blob(['[]']));
    const imagesLeftOut = { tooLarge: 0, overTotal: 0 };
    state.reply({ type: 'found', app: 'ChatGPT export', count: 30, skipped: 0, imagesLeftOut });
    await inspection;
    const added = runner.add();
    state.reply({ type: 'stored', rows: [{ id: 'a' } as never], already: 0 });
    state.die();
    expect(await added).toBe(true);
    expect(rows).toHaveLength(1);
    expect(toasts).toEqual([
      'Imported 1 conversation from the ChatGPT export. The importer stopped unexpectedly (the file may be too much for this browser).',
    ]);
  });
});
