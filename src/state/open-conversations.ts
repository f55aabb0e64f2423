import type { Conversation } from '../domain/conversation.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, forgetConversation } from './chat-store.ts';
import type { ConversationSync } from './conversation-sync.ts';

/**
 * The conversations held in memory: which one is open, loading one on first use, adding one, and
 * changing one safely. What the command modules share; not part of the controller's surface.
 */
export interface OpenConversations {
  /** Opens `id` (or none), remembers it for the next start, and loads its messages. */
  setActive(id: string | null): void;
  /** The conversation's messages, loading them from storage the first time it is opened. */
  ensureLoaded(id: string): Promise<Conversation | undefined>;
  /** Adds a conversation made elsewhere (new, a branch) to the list, selects it and stores it. */
  add(conversation: Conversation): Promise<void>;
  /**
   * Changes a conversation in memory, then saves it merged with the stored copy, so what another
   * tab wrote meanwhile is kept. Resolves false when nothing changed.
   */
  change(
    id: string,
    apply: (conversation: Conversation) => Conversation,
    options?: { saveWhenIdle?: boolean },
  ): Promise<boolean>;
}

export function createOpenConversations({
  ctx,
  sync,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
}): OpenConversations {
  const { store } = ctx;

  function setActive(id: string | null): void {
    store.setState({ activeId: id });
    ctx.settings.saveActiveId(id);
    ctx.tabSync.post({ type: 'active-changed', id });
    if (id) void ensureLoaded(id);
  }

  async function ensureLoaded(id: string): Promise<Conversation | undefined> {
    const cached = ctx.get().loaded[id];
    if (cached) return cached;
    const stored = await ctx.db().read(id);
    if (ctx.get().loaded[id]) return ctx.get().loaded[id];
    if (stored.status === 'ok') {
      commitConversation(store, stored.conversation);
      return stored.conversation;
    }
    // Listed (its summary reads fine) but its record is gone or damaged: skip it, never a blank screen.
    const row = ctx.get().list.find((item) => item.id === id);
    if (!row) return undefined;
    forgetConversation(store, id);
    if (ctx.get().activeId === id) setActive(pickActiveId(ctx.get().list, null));
    if (stored.status === 'unreadable') {
      // Later starts then count it as skipped instead of listing it; the record itself is kept.
      void ctx.db().dropSummary(id);
      ctx.notify.warning(
        '1 saved conversation could not be read and was skipped',
        `"${row.name}" is damaged in this browser's storage; your other conversations are fine.`,
      );
    }
    return undefined;
  }

  async function add(conversation: Conversation): Promise<void> {
    commitConversation(store, conversation);
    setActive(conversation.id);
    await sync.save(conversation.id, { create: true });
  }

  async function change(
    id: string,
    apply: (conversation: Conversation) => Conversation,
    { saveWhenIdle = false } = {},
  ): Promise<boolean> {
    const loaded = ctx.get().loaded[id] ?? (await ensureLoaded(id));
    if (!loaded) return false;
    const changed = apply(loaded);
    if (changed === loaded) return false;
    commitConversation(store, changed);
    if (saveWhenIdle) sync.saveSoon(id);
    else await sync.save(id);
    return true;
  }

  return { setActive, ensureLoaded, add, change };
}
