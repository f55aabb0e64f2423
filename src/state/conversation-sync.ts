import { hasContent, type Conversation, type Message } from '../domain/conversation.ts';
import { findMessage, mergeConversations, replaceMessage } from '../domain/message-tree.ts';
import { whenIdle } from '../lib/when-idle.ts';
import type { StorageResult } from '../storage/result.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, forgetConversation } from './chat-store.ts';

const firstRetryMs = 5000;
const maxRetryMs = 60_000;

export type ConversationSync = ReturnType<typeof createConversationSync>;

/** What a save observer hears: a conversation written to storage, or deleted from it. */
export interface SaveObserver {
  saved(id: string): void;
  removed(id: string): void;
}

/**
 * Keeps storage, memory and the other tabs in step. Every change is made in memory first and then
 * saved by merging it with the stored copy (mergeConversations: a union by message id), so no tab
 * can lose another tab's branch or streamed reply, and no tab owns a conversation. Writes that
 * fail (storage full, ...) stay in memory, are reported once, and are written again later.
 */
/** `onFirstSave` runs once, when a first write succeeds: something is now worth keeping. */
export function createConversationSync(ctx: ChatContext, onFirstSave: () => void = () => undefined) {
  const { store } = ctx;
  /** Their last write failed: the next write of each may create the record again. */
  const unsaved = new Set<string>();
  /** Changed in memory, to be saved in idle time (saveSoon). */
  const pending = new Set<string>();
  const undeleted = new Set<string>();
  /** Deleted in this tab: nothing (a save in flight, another tab's late news) brings them back here. */
  const deletedHere = new Set<string>();
  /**
   * Writes started and not yet settled. A page that goes away mid-write may lose it (the browser
   * ends its transactions), so a page hide issues them again as plain writes.
   */
  const saving = createCounter();
  const deleting = createCounter();
  /**
   * For a save in flight, what its transaction computed: the merged copy it is writing, or null
   * when it declined (another tab deleted the conversation). Re-issued as is, it overwrites no
   * other tab's work and brings nothing deleted back.
   */
  const merging = new Map<string, Conversation | null>();
  /**
   * Ends the saves in flight as the page goes (flushNow). One still waiting on its read would end
   * uncommitted with the page, and the browser would end with it the plain writes issued after it,
   * held behind it: ended first, it holds up nothing, and flushNow writes its copy instead.
   */
  let closing = new AbortController();
  let retryMs = firstRetryMs;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let flushing = false;
  let savedOnce = false;
  /** Told of each save that reached storage and each deletion (sync sends them to the server). */
  const observers = new Set<SaveObserver>();
  const tell = (event: keyof SaveObserver, id: string) => {
    for (const observer of observers) observer[event](id);
  };

  /**
   * Reports a write's outcome. A failed write keeps everything in memory and warns once, with an
   * Export action, until a later write succeeds.
   */
  function reportWrite(result: StorageResult): boolean {
    if (result.ok) {
      store.setState((state) => (state.storageProblem ? { storageProblem: null } : state));
      return true;
    }
    const announce = ctx.get().storageProblem === null;
    store.setState({ storageProblem: result.message });
    if (announce) {
      const title =
        result.reason === 'quota' ? 'Storage is full: changes are not being saved' : 'Could not save';
      ctx.notify.warning(
        title,
        `${result.message} Nothing is lost while this tab stays open; export a copy to be safe.`,
        { label: 'Export', onClick: () => ctx.view.setState({ importExportOpen: true }) },
      );
    }
    return false;
  }

  function scheduleRetry(): void {
    if (retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void saveBacklog();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }

  function settle(id: string, ok: boolean): void {
    if (ok) {
      if (!savedOnce) {
        savedOnce = true;
        onFirstSave();
      }
      unsaved.delete(id);
      ctx.tabSync.post({ type: 'conversation-saved', id });
      retryMs = firstRetryMs;
      if (unsaved.size > 0 || undeleted.size > 0) void saveBacklog();
    } else {
      unsaved.add(id);
      scheduleRetry();
    }
  }

  /**
   * The copy to store: a reply still streaming is stored as interrupted, in case the tab dies;
   * before anything arrived it is not stored at all (a question without a reply, as docs/behaviour.md#failures keeps it).
   */
  function storable(conversation: Conversation): Conversation {
    const streaming = ctx.get().streaming;
    if (streaming?.conversationId !== conversation.id) return conversation;
    let stored = conversation;
    for (const id of streaming.messageIds) {
      const reply = findMessage(stored, id);
      if (!reply) continue;
      if (hasContent(reply)) {
        stored = replaceMessage(stored, { ...reply, status: 'interrupted' });
        continue;
      }
      const messages = stored.messages.filter((message) => message !== reply);
      const leaf =
        stored.activeLeafId === reply.id ? (reply.parentId ?? stored.activeLeafId) : stored.activeLeafId;
      stored = { ...stored, messages, activeLeafId: leaf };
    }
    return stored;
  }

  /** What storage now holds, merged into the copy in memory (whatever changed here meanwhile is kept). */
  function absorb(id: string, stored: Conversation): void {
    const local = ctx.get().loaded[id];
    if (!local) return;
    const merged = mergeConversations(local, stored);
    if (merged !== local) commitConversation(store, merged);
  }

  /**
   * Saves the in-memory copy of a conversation, merged with the stored one in one transaction.
   * A conversation missing from storage is written only when `create` says it is new (or an
   * earlier write of it failed): otherwise another tab deleted it, and deletion is final.
   */
  async function save(id: string, { create = false } = {}): Promise<boolean> {
    const local = ctx.get().loaded[id];
    if (!local) return false;
    pending.delete(id);
    const mayCreate = create || unsaved.has(id);
    const { signal } = closing;
    saving.add(id);
    const { result, value, changed } = await ctx
      .db()
      .update(
        id,
        (stored) => {
          const mine = storable(ctx.get().loaded[id] ?? local);
          const next = stored ? mergeConversations(mine, stored) : mayCreate ? mine : undefined;
          merging.set(id, next ?? null);
          return next;
        },
        { signal },
      )
      .finally(() => {
        if (saving.remove(id) === 0) merging.delete(id);
      });
    // Missing from storage and not ours to create: another tab deleted it.
    if (!changed) return false;
    // Ended as the page went: flushNow wrote its copy instead.
    if (!result.ok && signal.aborted) return false;
    const ok = reportWrite(result);
    settle(id, ok);
    if (ok && value) absorb(id, value);
    if (ok) tell('saved', id);
    return ok;
  }

  /**
   * Saves in idle time, after the change has been painted: for a change the user must see at once
   * (a version switch) whose record is large. A page hide before then writes it at once.
   */
  function saveSoon(id: string): void {
    pending.add(id);
    whenIdle(() => {
      if (pending.has(id)) void save(id);
    });
  }

  /** A message as a save now would store it (a reply streaming: interrupted; with nothing yet: none). */
  function storedCopy(conversationId: string, messageId: string): Message | undefined {
    const local = ctx.get().loaded[conversationId];
    return local && findMessage(storable(local), messageId);
  }

  /**
   * A change made to the stored copy rather than in memory (a reply rescued as a page closed,
   * folded in at start): read, changed and written in one transaction, as `save` does, and the
   * other tabs told. False only when the write failed.
   */
  async function saveStored(
    id: string,
    change: (stored: Conversation | undefined) => Conversation | undefined,
  ): Promise<boolean> {
    const { result, value, changed } = await ctx.db().update(id, change);
    if (!changed) return true;
    if (!reportWrite(result)) return false;
    ctx.tabSync.post({ type: 'conversation-saved', id });
    if (value) absorb(id, value);
    tell('saved', id);
    return true;
  }

  /**
   * The page is going away: one plain write issued at once (no read first), its best chance to
   * land; a page closing may still end it uncommitted (closing-rescue.ts keeps its replies).
   */
  function saveNow(id: string): void {
    const local = ctx.get().loaded[id];
    if (local) void ctx.db().put(storable(local));
  }

  /**
   * The page is going away: what is still to be written (a change saved when idle, a failed
   * write, a write still in flight) goes now.
   */
  function flushNow(): void {
    closing.abort();
    closing = new AbortController();
    const waiting = new Set([...unsaved, ...pending]);
    for (const id of waiting) if (!deletedHere.has(id)) saveNow(id);
    for (const id of saving.keys()) {
      if (waiting.has(id) || deletedHere.has(id)) continue;
      const merged = merging.get(id);
      const local = ctx.get().loaded[id];
      // Not read yet: this tab's copy; declined: nothing. Read by an earlier save of two: with
      // what changed here since (the later one, a rename, has not read yet).
      if (merged === undefined) saveNow(id);
      else if (merged) void ctx.db().put(local ? mergeConversations(storable(local), merged) : merged);
    }
    for (const id of new Set([...undeleted, ...deleting.keys()])) void ctx.db().delete(id);
  }

  /** Deletes a conversation from storage and tells other tabs; a failure is retried later. */
  async function remove(id: string): Promise<boolean> {
    deletedHere.add(id);
    unsaved.delete(id);
    pending.delete(id);
    deleting.add(id);
    const ok = reportWrite(
      await ctx
        .db()
        .delete(id)
        .finally(() => deleting.remove(id)),
    );
    if (ok) {
      ctx.tabSync.post({ type: 'conversation-deleted', id });
      tell('removed', id);
    } else {
      undeleted.add(id);
      scheduleRetry();
    }
    return ok;
  }

  /** Writes what earlier failed to save, from the latest in-memory copies. */
  async function saveBacklog(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      for (const id of [...undeleted]) {
        if (!reportWrite(await ctx.db().delete(id))) return scheduleRetry();
        undeleted.delete(id);
        ctx.tabSync.post({ type: 'conversation-deleted', id });
      }
      for (const id of [...unsaved]) {
        if (!ctx.get().loaded[id]) unsaved.delete(id);
        else if (!(await save(id))) return;
      }
    } finally {
      flushing = false;
    }
  }

  /** Another tab saved a conversation: take in what it wrote (a new one joins the list). */
  async function receive(id: string): Promise<void> {
    const stored = await ctx.db().get(id);
    if (!stored || deletedHere.has(id)) return;
    if (ctx.get().loaded[id]) absorb(id, stored);
    else commitConversation(store, stored);
  }

  /** Another tab deleted a conversation: deletion is final, here too. */
  function forget(id: string): void {
    deletedHere.add(id);
    unsaved.delete(id);
    pending.delete(id);
    forgetConversation(store, id);
  }

  /** After an import replaced everything, nothing older is still waiting to be written. */
  function forgetBacklog(): void {
    unsaved.clear();
    pending.clear();
    undeleted.clear();
    deletedHere.clear();
  }

  return {
    /** Watches saves and deletions; returns the unsubscribe. */
    observe(observer: SaveObserver): () => void {
      observers.add(observer);
      return () => void observers.delete(observer);
    },
    reportWrite,
    save,
    saveSoon,
    storedCopy,
    saveStored,
    saveNow,
    flushNow,
    remove,
    saveBacklog,
    receive,
    forget,
    forgetBacklog,
  };
}

/** A multiset of ids: the same conversation may have two writes in flight. */
function createCounter() {
  const counts = new Map<string, number>();
  return {
    add: (id: string) => counts.set(id, (counts.get(id) ?? 0) + 1),
    /** How many are left of that id. */
    remove(id: string): number {
      const left = (counts.get(id) ?? 1) - 1;
      if (left > 0) counts.set(id, left);
      else counts.delete(id);
      return Math.max(left, 0);
    },
    keys: () => counts.keys(),
  };
}
