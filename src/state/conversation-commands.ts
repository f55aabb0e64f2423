import { setCompare } from '../domain/compare.ts';
import {
  attachmentIds,
  messageText,
  type ArtifactEdit,
  type Conversation,
  type ConversationPlace,
  type ModelPin,
} from '../domain/conversation.ts';
import { artifactEditLimits } from '../domain/conversation-validation.ts';
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
import { holdFiles, stageFiles } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { forgetConversation, isStreamingIn } from './chat-store.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ReplyRunner } from './reply-runner.ts';

/** What is done to a whole conversation: make, open, rename, clear, set up, pin, delete, copy. */
export interface ConversationCommands {
  newConversation(): Promise<void>;
  selectConversation(id: string): void;
  renameConversation(id: string, name: string): Promise<void>;
  /** Back to the default system message, with Undo (messages, prompt and files). */
  clearConversation(id: string): Promise<void>;
  /** An empty prompt sends no system message. */
  setSystemPrompt(id: string, prompt: string): Promise<void>;
  /** 'Reasoning effort' in 'Conversation settings'; null: the model's own default. */
  setReasoningEffort(id: string, effort: ReasoningEffort | null): Promise<void>;
  /** 'Save as version' in the artifact panel: the user's version, kept with the conversation. */
  saveArtifactEdit(id: string, edit: Omit<ArtifactEdit, 'id' | 'savedAt'>): Promise<string>;
  /** The model picker: pins a provider and model to the conversation; null follows the saved configuration again. */
  pinModel(id: string, pin: ModelPin | null): Promise<void>;
  /** 'Compare': asks these 2 to 4 models at once from the next message; null asks one model again. */
  compareModels(id: string, pins: readonly ModelPin[] | null): Promise<void>;
  /** 'Pin' / 'Archive' and back (null), from the row's menu or the palette. */
  placeConversation(id: string, place: ConversationPlace | null): Promise<void>;
  /** Final: a reply streaming into it stops. */
  deleteConversation(id: string): Promise<void>;
  copyConversation(id: string): Promise<void>;
  /** 'Copy last reply': the answer of the reply ending the active path (its thinking left out). */
  copyLastReply(id: string): Promise<void>;
  /** 'Copy last code block': the last fenced block of that reply. */
  copyLastCode(id: string): Promise<void>;
  /** 'Download as Markdown': the shown path as a .md file (the writer loads on first use). */
  downloadMarkdown(id: string): Promise<void>;
  /** Each conversation's unsent text survives a reload. */
  readDraft(conversationId: string): string;
  writeDraft(conversationId: string, text: string): void;
}

/**
 * A new, empty conversation as this tab starts one: named after the count listed, by `provider`
 * (the saved configuration's unless its model comes from elsewhere: a project, a persona).
 */
export function blankConversation(
  ctx: ChatContext,
  now: Date,
  provider = ctx.get().config.provider,
): Conversation {
  return createConversation({
    existingCount: ctx.get().list.length,
    provider,
    now,
    id: ctx.newId(),
    rootId: ctx.newId(),
  });
}

export function createConversationCommands({
  ctx,
  sync,
  open,
  replies,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  open: OpenConversations;
  replies: ReplyRunner;
}): ConversationCommands {
  const { store } = ctx;
  const { setActive, ensureLoaded, change } = open;

  async function newConversation(): Promise<void> {
    await open.add(blankConversation(ctx, ctx.now()));
  }

  function selectConversation(id: string): void {
    if (ctx.get().activeId !== id) setActive(id);
  }

  async function renameConversation(id: string, name: string): Promise<void> {
    await change(id, (conversation) => renameRule(conversation, name, ctx.now()));
  }

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

  async function pinModel(id: string, pin: ModelPin | null): Promise<void> {
    await change(id, (conversation) => setModelPin(conversation, pin, ctx.now()));
  }

  async function compareModels(id: string, pins: readonly ModelPin[] | null): Promise<void> {
    await change(id, (conversation) => setCompare(conversation, pins, ctx.now()));
  }

  async function placeConversation(id: string, place: ConversationPlace | null): Promise<void> {
    await change(id, (conversation) => placeRule(conversation, place, ctx.now()));
  }

  async function setReasoningEffort(id: string, effort: ReasoningEffort | null): Promise<void> {
    await change(id, (conversation) => setEffort(conversation, effort, ctx.now()));
  }

  async function saveArtifactEdit(id: string, edit: Omit<ArtifactEdit, 'id' | 'savedAt'>): Promise<string> {
    const saved: ArtifactEdit = { ...edit, id: ctx.newId(), savedAt: ctx.now().toISOString() };
    await change(id, (conversation) => ({
      ...conversation,
      artifactEdits: [...(conversation.artifactEdits ?? []), saved].slice(-artifactEditLimits.edits),
    }));
    return saved.id;
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

  async function copyLastReply(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    const reply = conversation && lastReply(conversation);
    if (!reply) return ctx.notify.error('There is no reply to copy yet.');
    await toClipboard(messageText(reply), 'Message copied to clipboard');
  }

  async function copyLastCode(id: string): Promise<void> {
    const conversation = await ensureLoaded(id);
    const reply = conversation && lastReply(conversation);
    const code = reply && lastCodeBlock(messageText(reply));
    if (code === undefined) return ctx.notify.error('The last reply has no code block.');
    await toClipboard(code, 'Code copied to clipboard');
  }

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
    newConversation,
    selectConversation,
    renameConversation,
    clearConversation,
    setSystemPrompt,
    setReasoningEffort,
    saveArtifactEdit,
    pinModel,
    compareModels,
    placeConversation,
    deleteConversation,
    copyConversation,
    copyLastReply,
    copyLastCode,
    downloadMarkdown,
    readDraft: (conversationId) => ctx.settings.loadDraft(conversationId),
    writeDraft: (conversationId, text) => void ctx.settings.saveDraft(conversationId, text),
  };
}
