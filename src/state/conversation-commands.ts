import {
  attachmentIds,
  messageText,
  type Conversation,
  type ConversationPlace,
  type ModelPin,
} from '../domain/conversation.ts';
import type { ReasoningEffort } from '../domain/provider-definitions/capabilities.ts';
import {
  clearConversation as clearRule,
  conversationAsText,
  createConversation,
  lastCodeBlock,
  lastReply,
  pickActiveId,
  placeConversation as placeRule,
  renameConversation as renameRule,
  restoreCleared,
  setSystemPrompt as setSystemPromptRule,
  setEffort,
  setModelPin,
} from '../domain/conversation-rules.ts';
import { downloadText } from '../lib/download.ts';
import { saveActiveId } from '../storage/local-settings.ts';
import { holdFiles, stageFiles } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, forgetConversation, isStreamingIn } from './chat-store.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { ReplyRunner } from './reply-runner.ts';

export type ConversationCommands = ReturnType<typeof createConversationCommands>;

export function createConversationCommands(ctx: ChatContext, sync: ConversationSync, replies: ReplyRunner) {
  const { store } = ctx;

  function setActive(id: string | null): void {
    store.setState({ activeId: id });
    saveActiveId(id);
    ctx.tabSync.post({ type: 'active-changed', id });
    if (id) void ensureLoaded(id);
  }

  /** The conversation's messages, loading them from storage the first time it is opened. */
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

  /** Adds a conversation made elsewhere (new, a branch) to the list, selects it and stores it. */
  async function addConversation(conversation: Conversation): Promise<void> {
    commitConversation(store, conversation);
    setActive(conversation.id);
    await sync.save(conversation.id, { create: true });
  }

  async function newConversation(): Promise<void> {
    const { list, config } = ctx.get();
    await addConversation(
      createConversation({
        existingCount: list.length,
        provider: config.provider,
        now: ctx.now(),
        id: ctx.newId(),
        rootId: ctx.newId(),
      }),
    );
  }

  function selectConversation(id: string): void {
    if (ctx.get().activeId !== id) setActive(id);
  }

  /**
   * Changes a conversation in memory, then saves it merged with the stored copy, so what another
   * tab wrote meanwhile is kept. Returns false when nothing changed.
   */
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

  async function renameConversation(id: string, name: string): Promise<void> {
    await change(id, (conversation) => renameRule(conversation, name, ctx.now()));
  }

  /** Back to the default system message, with Undo (messages, prompt and files). */
  async function clearConversation(id: string): Promise<void> {
    if (isStreamingIn(ctx.get(), id)) return;
    const loaded = await ensureLoaded(id);
    if (!loaded) return;
    // The cleared messages' files go with them when the conversation is saved; Undo stores them again.
    const files = await holdFiles(attachmentIds(loaded), ctx.db());
    let before = loaded;
    const cleared = await change(id, (conversation) => clearRule((before = conversation), ctx.now()));
    if (!cleared) return ctx.notify.success('Conversation cleared');
    ctx.notify.success('Conversation cleared', {
      action: {
        label: 'Undo',
        onClick: () => {
          stageFiles(files, ctx.db());
          void change(id, (conversation) =>
            restoreCleared(conversation, before, {
              now: ctx.now(),
              newId: ctx.newId,
              keepLeaf: isStreamingIn(ctx.get(), id),
            }),
          );
        },
      },
    });
  }

  /** The model picker: pins a provider and model to the conversation; null follows the saved configuration again. */
  async function pinModel(id: string, pin: ModelPin | null): Promise<void> {
    await change(id, (conversation) => setModelPin(conversation, pin, ctx.now()));
  }

  /** 'Pin' / 'Archive' and back (null), from the row's menu or the palette. */
  async function placeConversation(id: string, place: ConversationPlace | null): Promise<void> {
    await change(id, (conversation) => placeRule(conversation, place, ctx.now()));
  }

  /** 'Reasoning effort' in 'Conversation settings'; null: the model's own default. */
  async function setReasoningEffort(id: string, effort: ReasoningEffort | null): Promise<void> {
    await change(id, (conversation) => setEffort(conversation, effort, ctx.now()));
  }

  async function setSystemPrompt(id: string, prompt: string): Promise<void> {
    await change(id, (conversation) => setSystemPromptRule(conversation, prompt, ctx.now()));
  }

  async function deleteConversation(id: string): Promise<void> {
    if (isStreamingIn(ctx.get(), id)) replies.stop();
    const { activeId } = ctx.get();
    forgetConversation(store, id);
    if (activeId === id) setActive(pickActiveId(ctx.get().list, null));
    await sync.remove(id);
  }

  async function toClipboard(text: string, done: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      ctx.notify.success(done);
    } catch (error) {
      console.error('Clipboard write failed', error);
      ctx.notify.error('Could not copy to the clipboard', 'The browser refused clipboard access.');
    }
  }

  async function copyConversation(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    if (conversation) await toClipboard(conversationAsText(conversation), 'Conversation copied to clipboard');
  }

  /** 'Copy last reply': the answer of the reply ending the active path (its thinking left out). */
  async function copyLastReply(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    const reply = conversation && lastReply(conversation);
    if (!reply) return ctx.notify.error('There is no reply to copy yet.');
    await toClipboard(messageText(reply), 'Message copied to clipboard');
  }

  /** 'Copy last code block': the last fenced block of that reply. */
  async function copyLastCode(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    const reply = conversation && lastReply(conversation);
    const code = reply && lastCodeBlock(messageText(reply));
    if (code === undefined) return ctx.notify.error('The last reply has no code block.');
    await toClipboard(code, 'Code copied to clipboard');
  }

  /** 'Download as Markdown': the shown path as a .md file (the writer loads on first use). */
  async function downloadMarkdown(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    if (!conversation) return;
    try {
      const { conversationMarkdown, markdownFileName } = await import('../domain/markdown-export.ts');
      downloadText(
        markdownFileName(conversation, ctx.now()),
        conversationMarkdown(conversation),
        'text/markdown',
      );
    } catch (error) {
      console.error('Markdown download failed', error);
      ctx.notify.error('Could not download the conversation', 'The Markdown file could not be made.');
    }
  }

  return {
    setActive,
    ensureLoaded,
    addConversation,
    change,
    newConversation,
    selectConversation,
    renameConversation,
    clearConversation,
    setSystemPrompt,
    setReasoningEffort,
    pinModel,
    placeConversation,
    deleteConversation,
    copyConversation,
    copyLastReply,
    copyLastCode,
    downloadMarkdown,
  };
}
