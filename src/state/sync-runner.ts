import type { SyncSettings, SyncStatus } from '../domain/sync-settings.ts';
import { loadSyncProgress, saveSyncProgress, type SyncProgress } from '../storage/sync-store.ts';
import { createCouchClient, CouchError, type CouchLocation } from '../sync/couch-client.ts';
import { createReplicator, type LocalFiles } from '../sync/replicator.ts';
import type { Sealer } from '../sync/sealing.ts';
import {
  conversationKind,
  documentId,
  projectKind,
  promptKind,
  settingsId,
  settingsKind,
} from '../sync/synced-kinds.ts';
import type { ChatContext } from './chat-context.ts';
import type { ChatState } from './chat-store.ts';
import type { ConversationSync } from './conversation-sync.ts';
import { localRecords } from './sync-local.ts';

/**
 * Sync while it is on (docs/sync.md): every conversation saved here is sent (merged with the
 * server's copy), every deletion too, and the server's changes are applied as they come (a long
 * poll of its changes feed). A reply streaming here is sent when it ends, and nothing the server
 * sends rewrites it meanwhile. A network failure waits and tries again; a refusal (the password)
 * stops, said in the status.
 */

/** How long one poll of the changes feed waits for a change. */
const pollMs = 25_000;
const firstRetryMs = 1000;
const maxRetryMs = 15_000;
/** Saves close together (a reply's last pieces) are sent once. */
const sendDelayMs = 400;
/** More conversations than this waiting are sent in bulk. */
const bulkFrom = 10;

export interface SyncRunner {
  /** Sends what is waiting and asks the server for its changes now. */
  syncNow(): void;
  pause(): void;
  resume(): void;
  stop(): void;
}

export function startSyncRunner({
  ctx,
  sync,
  settings,
  password,
  sealer,
  reloadSettings,
  resealKeys,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  settings: SyncSettings;
  password: string;
  /** Sealed end to end (an encrypted database); absent: in the clear. */
  sealer?: Sealer;
  /** Takes in settings another device changed, once written to storage. */
  reloadSettings(): void;
  /** Stores the keys the state holds (sealed in the vault while protected): synced keys arrived. */
  resealKeys(): Promise<void>;
}): SyncRunner {
  const location: CouchLocation = {
    url: settings.url,
    database: settings.database,
    username: settings.username,
    password,
  };
  const client = createCouchClient(location);
  let progress: SyncProgress = loadSyncProgress(`${settings.url}|${settings.database}`);
  const remember = (change: Partial<SyncProgress>) => {
    progress = { ...progress, ...change };
    saveSyncProgress(progress);
  };
  /** Documents (`{type}:{id}`) saved here and not sent yet. */
  const waiting = new Set<string>();
  let paused = settings.paused;
  let stopped = false;
  let refused: string | null = null;
  let offline = false;
  let working = 0;
  let poll: AbortController | null = null;
  let sendTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = firstRetryMs;

  function status(): SyncStatus {
    if (refused) return { kind: 'error', message: refused };
    if (paused) return { kind: 'paused' };
    if (offline) return { kind: 'offline' };
    const changes = waiting.size + progress.deletions.length;
    if (changes > 0 || working > 0) return { kind: 'syncing', changes };
    return progress.tooLarge.length > 0
      ? { kind: 'synced', tooLarge: progress.tooLarge.length }
      : { kind: 'synced' };
  }
  const show = () => {
    if (!stopped) ctx.store.setState({ syncStatus: status(), syncLeftOut: progress.leftOut });
  };

  /** Records removed here because the server said so: no deletion to send back. */
  const removedByServer = new Set<string>();
  const { records, currentSettings } = localRecords({
    ctx,
    sync,
    reloadSettings,
    // Never in the clear: only on a database sealed end to end.
    keysSynced: settings.syncKeys && sealer !== undefined,
    resealKeys,
    settingsStamp: {
      get: () => progress.settings,
      set: (settings) => remember({ settings }),
    },
    declined: (type, id) => progress.deletions.includes(documentId(type, id)),
    absorbed(type, id, updatedAt) {
      const document = documentId(type, id);
      if (updatedAt === null) removedByServer.add(document);
      const sent = Object.entries(progress.sent).filter(([key]) => key !== document);
      remember({ sent: Object.fromEntries(updatedAt === null ? sent : [...sent, [document, updatedAt]]) });
    },
  });
  const files: LocalFiles = {
    read: (id) => ctx.db().readAttachment(id),
    stage: (id, blob) => ctx.db().stageAttachment(id, blob),
    unstage: (id) => ctx.db().dropStagedAttachment(id),
    onServer: (id) => progress.files.includes(id),
    markOnServer(id) {
      if (!progress.files.includes(id)) remember({ files: [...progress.files, id] });
    },
    leftOut(id) {
      if (progress.leftOut.includes(id)) return;
      remember({ leftOut: [...progress.leftOut, id] });
      show();
    },
  };
  const replicator = createReplicator({
    client,
    records,
    files,
    ...(sealer && { sealer }),
    memory: { since: progress.since },
    remember: ({ since }) => remember({ since }),
  });

  /** A failure: the network (try again later) or a refusal (stop until the set-up changes). */
  function failed(error: unknown): void {
    if (error instanceof CouchError && (error.status === 401 || error.status === 403)) {
      refused =
        error.status === 401
          ? 'the server refused the user name or password: change them in Settings → Sync.'
          : 'this user may not use the database: add them to its members on the server.';
    } else offline = true;
    show();
  }

  async function sendWaiting(): Promise<void> {
    if (paused || stopped || refused) return;
    working++;
    show();
    try {
      for (const id of [...progress.deletions]) {
        await replicator.pushDeletion(id);
        remember({ deletions: progress.deletions.filter((other) => other !== id) });
        deletedHere.add(id);
      }
      // When each record last changed, before it is read to be sent: one saved again meanwhile
      // stays waiting, and what is remembered as sent is what was read.
      const before = changedAtNow();
      const sent = (ids: Iterable<string>) => {
        const next = { ...progress.sent };
        const now = changedAtNow();
        for (const id of ids) {
          const at = before.get(id);
          if (at === now.get(id)) waiting.delete(id);
          if (at) next[id] = at;
        }
        remember({ sent: next });
      };
      // Many at once (a first sync): in bulk; what that leaves, one by one.
      // Brought back by an Undo: one by one, where a tombstone is written over.
      const single = [...waiting].filter((id) => revived.has(id));
      const many = [...waiting].filter((id) => !revived.has(id));
      if (many.length > bulkFrom) {
        const left = new Set(await replicator.pushMany(many));
        sent(many.filter((id) => !left.has(id)));
        single.push(...left);
        show();
      } else single.push(...many);
      for (const id of single) {
        if (paused || stopped) break;
        // Streaming (false): its last save, when the reply ends, sends it.
        try {
          if (await replicator.push(id, { revive: revived.has(id) })) {
            revived.delete(id);
            sent([id]);
          } else waiting.delete(id);
        } catch (error) {
          // One record the server refuses as too large holds up nothing else: it stays here, said.
          if (!(error instanceof CouchError && error.status === 413)) throw error;
          waiting.delete(id);
          if (!progress.tooLarge.includes(id)) remember({ tooLarge: [...progress.tooLarge, id] });
        }
      }
      offline = false;
    } catch (error) {
      failed(error);
    } finally {
      working--;
      show();
    }
  }

  const sendSoon = () => {
    clearTimeout(sendTimer);
    sendTimer = setTimeout(() => void sendWaiting(), sendDelayMs);
  };

  /** Reads the changes feed while sync runs; one loop at a time (aborting a poll asks again at once). */
  let looping = false;
  async function pullLoop(): Promise<void> {
    if (looping) return;
    looping = true;
    try {
      while (!stopped && !paused && !refused) {
        const controller = new AbortController();
        poll = controller;
        // Some servers (pouchdb-server) ignore the poll's timeout and hold it until a change:
        // ended here, it is asked again.
        const timer = setTimeout(() => controller.abort(), pollMs + 10_000);
        try {
          // Offline, the server is asked at once (no long poll): an answer means it is back.
          const applied = await replicator.pull({ waitMs: offline ? 0 : pollMs, signal: controller.signal });
          if (applied > 0) show();
          if (offline) {
            offline = false;
            sendSoon();
          }
          retryMs = firstRetryMs;
        } catch (error) {
          if (controller.signal.aborted) continue;
          failed(error);
          if (refused) break;
          await new Promise((resolve) => setTimeout(resolve, retryMs));
          retryMs = Math.min(retryMs * 2, maxRetryMs);
        } finally {
          clearTimeout(timer);
        }
        show();
      }
    } finally {
      looping = false;
      poll = null;
    }
  }

  /** Deleted here and that deletion sent, this visit: an Undo brings one back. */
  const deletedHere = new Set<string>();
  /** Brought back here (an Undo) after this device deleted them on the server: written anew. */
  const revived = new Set<string>();
  /** A record is here again: a deletion not sent yet is dropped; one sent is undone on the server. */
  function cameBack(document: string): void {
    if (progress.deletions.includes(document))
      remember({ deletions: progress.deletions.filter((other) => other !== document) });
    if (deletedHere.delete(document)) {
      revived.add(document);
      waiting.add(document);
    }
  }
  function deleted(document: string): void {
    revived.delete(document);
    waiting.delete(document);
    if (!progress.deletions.includes(document)) remember({ deletions: [...progress.deletions, document] });
    show();
    sendSoon();
  }
  const unobserve = sync.observe({
    saved(id) {
      cameBack(documentId(conversationKind.type, id));
      waiting.add(documentId(conversationKind.type, id));
      show();
      sendSoon();
    },
    removed: (id) => deleted(documentId(conversationKind.type, id)),
  });
  function settingsSaved(): void {
    const document = documentId(settingsKind.type, settingsId);
    if (stopped || progress.sent[document] === currentSettings().updatedAt) return;
    waiting.add(document);
    show();
    sendSoon();
  }
  // The other tabs' saves and deletions (this tab runs sync for them all: sync-commands.ts).
  const unlisten = ctx.tabSync.subscribe((message) => {
    if (message.type === 'conversation-saved') {
      waiting.add(documentId(conversationKind.type, message.id));
      show();
      sendSoon();
    } else if (message.type === 'conversation-deleted')
      deleted(documentId(conversationKind.type, message.id));
  });
  // Projects and prompts are followed in the state: a change stamps `updatedAt`, a deletion removes one.
  // Conversations are too, for what comes without a save here (an import): new or changed rows.
  // (Their deletions come only as deletions: an import that replaces everything deletes nothing elsewhere.)
  const unsubscribe = ctx.store.subscribe((state, before) => {
    let changed = false;
    // Settings are saved in many places, to storage just after the state: a change of any in the
    // state is looked for in storage once that write is done.
    if (settingsChanged(state, before)) queueMicrotask(settingsSaved);
    if (state.list !== before.list)
      for (const row of state.list) {
        const document = documentId(conversationKind.type, row.id);
        if (progress.sent[document] !== row.updatedAt && !waiting.has(document)) {
          waiting.add(document);
          changed = true;
        }
      }
    for (const [kind, now, then] of [
      [projectKind, state.projects, before.projects],
      [promptKind, state.prompts, before.prompts],
    ] as const) {
      if (now === then) continue;
      const here = new Set(now.map((record) => record.id));
      const there = new Set(then.map((record) => record.id));
      for (const record of now)
        if (!there.has(record.id)) {
          cameBack(documentId(kind.type, record.id));
          changed ||= waiting.has(documentId(kind.type, record.id));
        }
      for (const record of then)
        if (!here.has(record.id)) {
          const document = documentId(kind.type, record.id);
          if (!removedByServer.delete(document)) deleted(document);
        }
      for (const record of now) {
        const document = documentId(kind.type, record.id);
        // Sent, or taken from the server (which stamps it sent).
        if (progress.sent[document] === record.updatedAt) continue;
        waiting.add(document);
        changed = true;
      }
    }
    if (changed) {
      show();
      sendSoon();
    }
  });
  const online = () => {
    offline = false;
    runner.syncNow();
  };
  window.addEventListener('online', online);

  const changedAtNow = () =>
    new Map(everyRecord().map(({ type, id, updatedAt }) => [documentId(type, id), updatedAt]));

  /** Every record here, with when it last changed: what `sent` is compared with. */
  function everyRecord(): { type: string; id: string; updatedAt: string }[] {
    const { list, projects, prompts } = ctx.get();
    return [
      { type: settingsKind.type, id: settingsId, updatedAt: currentSettings().updatedAt },
      ...list.map(({ id, updatedAt }) => ({ type: conversationKind.type, id, updatedAt })),
      ...projects.map(({ id, updatedAt }) => ({ type: projectKind.type, id, updatedAt })),
      ...prompts.map(({ id, updatedAt }) => ({ type: promptKind.type, id, updatedAt })),
    ];
  }

  /** Starts (or starts again): what changed here since the last send goes, and the feed is read. */
  function begin(): void {
    for (const { type, id, updatedAt } of everyRecord())
      if (progress.sent[documentId(type, id)] !== updatedAt) waiting.add(documentId(type, id));
    show();
    void sendWaiting();
    void pullLoop();
  }

  const runner: SyncRunner = {
    syncNow() {
      if (paused || stopped) return;
      refused = null;
      poll?.abort();
      retryMs = firstRetryMs;
      begin();
    },
    pause() {
      paused = true;
      poll?.abort();
      show();
    },
    resume() {
      paused = false;
      begin();
    },
    stop() {
      stopped = true;
      unobserve();
      unsubscribe();
      unlisten();
      window.removeEventListener('online', online);
      clearTimeout(sendTimer);
      poll?.abort();
      ctx.store.setState({ syncStatus: null, syncLeftOut: [] });
    },
  };
  if (paused) show();
  else begin();
  return runner;
}

/** Whether a setting the state holds changed (each is replaced, never changed in place). */
const settingsChanged = (state: ChatState, before: ChatState) =>
  (['config', 'connections', 'theme', 'autoTitle', 'toolSettings', 'mcpServers'] as const).some(
    (field) => state[field] !== before[field],
  );
