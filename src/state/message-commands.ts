import { addMessage, newMessage, setModelPin } from '../domain/conversation-rules.ts';
import { openComparison } from '../domain/compare.ts';
import { activePath, deleteSubtree, findMessage, pathTo } from '../domain/message-tree.ts';
import { attachmentParts, type Message, type ModelPin } from '../domain/conversation.ts';
import { sendProblem, type AttachmentPart } from '../domain/attachments.ts';
import { connectionLabel, modelOf, providerCatalog } from '../domain/provider-catalog.ts';
import { prepareFile, type PreparedFile } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, modelCapabilities } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ProjectCommands } from './project-commands.ts';
import type { ReplyRunner } from './reply-runner.ts';
import type { CompareCommands } from './compare-commands.ts';

/**
 * Asking: send, edit, regenerate, retry, continue. Each is a small change to the tree followed by
 * one reply run (moving about the tree is tree-commands.ts).
 */
/** With a compared question's commands (compare-commands.ts, loaded when first used). */
export interface MessageCommands extends Omit<CompareCommands, 'askAll'> {
  /**
   * Sends the composer's text and files. Resolves true when the message was taken (the composer
   * then clears); false leaves the draft and the files where they are. With the keys locked, the
   * passphrase is asked first and the message goes once they are unlocked.
   */
  send(text: string, files?: readonly PreparedFile[]): Promise<boolean>;
  /** 'Save and send': the edited text as a new version of a user message, with a new reply. */
  edit(conversationId: string, messageId: string, text: string): Promise<boolean>;
  /**
   * Asks again from the same question; the new reply is a new version beside the old one.
   * 'Regenerate with…' passes another model for this reply only.
   */
  regenerate(conversationId: string, messageId: string, model?: ModelPin): Promise<void>;
  /**
   * Retry after a failure: the last reply on the path, if it was interrupted, is replaced by a new
   * one; a question left without a reply gets one.
   */
  retry(conversationId: string): Promise<void>;
  /** 'Switch to {model} and retry', after the model was gone: pins `pin` to the conversation, then retries. */
  switchModelAndRetry(conversationId: string, pin: ModelPin): Promise<void>;
  /**
   * 'Continue' under a reply cut off at the token limit: the model is asked to go on, and what it
   * writes extends the same reply (the request's 'continue' turn is not kept).
   */
  continueReply(conversationId: string, replyId: string): Promise<void>;
  /** Stop: the reply streaming stops (without an id, every one); what had arrived is kept. */
  stop(replyId?: string): void;
  /** A picked, pasted or dropped file made ready to attach; rejects with a message for the user. */
  prepareFile(file: File): Promise<PreparedFile>;
  /** A file's bytes, to show: undefined when they are gone. */
  readAttachment(id: string): Promise<Blob | undefined>;
}

export function createMessageCommands({
  ctx,
  sync,
  open,
  replies,
  targetFor,
  projects,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  open: OpenConversations;
  replies: ReplyRunner;
  /** What a reply in a conversation is asked with (config-commands.ts). */
  targetFor: (conversationId: string, override?: ModelPin) => ReplyTarget;
  /** The project commands, loaded when first used. */
  projects: () => Promise<ProjectCommands>;
}): MessageCommands {
  const { store } = ctx;
  // Loaded with the first reply that ends: naming a conversation is no part of showing one.
  let firstReply: Promise<(conversationId: string, target: ReplyTarget) => Promise<void>> | undefined;
  const afterFirstReply = async (conversationId: string, target: ReplyTarget) => {
    firstReply ??= import('./first-reply.ts').then(({ createFirstReply }) =>
      createFirstReply(ctx, open, projects),
    );
    await (
      await firstReply
    )(conversationId, target);
  };

  // Loaded with the first compared message or column command: comparing is no part of the first load.
  let compareCommands: Promise<CompareCommands> | undefined;
  const compare = () =>
    (compareCommands ??= import('./compare-commands.ts').then(({ createCompareCommands }) =>
      createCompareCommands({ ctx, open, replies, readyTarget, filesFit }),
    ));

  /**
   * What a reply in this conversation is asked with, when one may be asked for now; otherwise
   * null, with the toast of docs/behaviour.md#sending-rules when the provider it goes to is not configured.
   */
  function readyTarget(
    conversationId: string,
    override?: ModelPin,
    /** Another reply of the same turn may be streaming (a compared question's column). */
    alongside = false,
  ): ReplyTarget | null {
    const { streaming } = ctx.get();
    if (streaming && !(alongside && streaming.conversationId === conversationId)) return null;
    if (ctx.get().keyLock === 'locked') {
      // The keys are protected and not unlocked yet in this session: the passphrase first.
      ctx.view.setState({ overlay: 'unlock-keys' });
      return null;
    }
    const target = targetFor(conversationId, override);
    if (!target.service) {
      ctx.notify.error(`Please configure ${connectionLabel(target.config)} settings first`);
      return null;
    }
    return target;
  }

  /**
   * Whether these files may go with a new message under `parentId` (with the files already on
   * that path); if not, the reason is shown and false returned, and nothing is sent.
   */
  function filesFit(
    conversationId: string,
    parentId: string,
    files: readonly AttachmentPart[],
    target: ReplyTarget,
  ) {
    const conversation = ctx.get().loaded[conversationId];
    const earlier = conversation ? pathTo(conversation, parentId).flatMap(attachmentParts) : [];
    if (files.length === 0 && earlier.length === 0) return true;
    const problem = sendProblem(files, earlier, {
      capabilities: modelCapabilities(ctx.get(), target.config),
      model: modelOf(target.config) || connectionLabel(target.config),
      label: connectionLabel(target.config),
      maxFileBytes: providerCatalog[target.config.provider].maxFileBytes,
    });
    if (problem) ctx.notify.error(problem);
    return problem === null;
  }

  /**
   * What the conversation's next message is asked with: its model, or each model it compares
   * (docs/compare.md); null, with the reason shown, when one of them cannot be asked now.
   */
  function readyTargets(conversationId: string): ReplyTarget[] | null {
    const pins = ctx.get().loaded[conversationId]?.compare;
    if (!pins) {
      const target = readyTarget(conversationId);
      return target && [target];
    }
    const targets: ReplyTarget[] = [];
    for (const pin of pins) {
      const target = readyTarget(conversationId, pin);
      if (!target) return null;
      targets.push(target);
    }
    return targets;
  }

  /**
   * Adds a user message (its files before its text) under `parentId`, saves it, and streams the
   * reply to it: one per target, at once, when it is compared.
   */
  async function ask(
    conversationId: string,
    parentId: string,
    text: string,
    targets: readonly ReplyTarget[],
    files: readonly AttachmentPart[] = [],
  ) {
    const conversation = ctx.get().loaded[conversationId];
    const [first] = targets;
    if (!conversation || !first || !findMessage(conversation, parentId)) return;
    const question: Message = newMessage('user', text, { id: ctx.newId(), parentId, now: ctx.now() });
    question.parts = [...files, ...question.parts];
    commitConversation(store, addMessage(conversation, question, first.config.provider));
    void sync.save(conversationId);
    if (targets.length === 1) {
      await replyTo(conversationId, question.id, first);
      return;
    }
    await (await compare()).askAll(conversationId, question.id, targets);
    void afterFirstReply(conversationId, targetFor(conversationId));
  }

  /**
   * Streams a reply to the question; the failure toast's Retry asks the same question the same way
   * again. A conversation's first complete reply then names it and measures its project (first-reply.ts).
   */
  async function replyTo(conversationId: string, questionId: string, target: ReplyTarget, model?: ModelPin) {
    await replies.run(conversationId, questionId, target, {
      onRetry: () => void askAgain(conversationId, questionId, model),
    });
    // Named by the conversation's own model, not one chosen for this reply only.
    void afterFirstReply(conversationId, model ? targetFor(conversationId) : target);
  }

  /**
   * A new reply to a question (regenerate, retry), of `model` if given (Regenerate with…, for this
   * reply only). A reply to it that was interrupted and is shown is replaced, not kept beside.
   */
  async function askAgain(conversationId: string, questionId: string, model?: ModelPin): Promise<void> {
    const conversation = await open.ensureLoaded(conversationId);
    if (!conversation || !findMessage(conversation, questionId)) return;
    const target = readyTarget(conversationId, model);
    if (!target || !filesFit(conversationId, questionId, [], target)) return;
    const last = activePath(conversation).at(-1);
    if (last?.role === 'assistant' && last.status === 'interrupted' && last.parentId === questionId)
      commitConversation(store, deleteSubtree(conversation, last.id));
    await replyTo(conversationId, questionId, target, model);
  }

  /**
   * Opens 'Unlock your API keys' and resolves true once the keys are unlocked; false when the
   * dialog closes without (Not now) or the keys are forgotten instead.
   */
  function unlockFirst(): Promise<boolean> {
    ctx.view.setState({ overlay: 'unlock-keys' });
    return new Promise((resolve) => {
      const settle = () => {
        const { keyLock } = ctx.get();
        if (keyLock === 'locked' && ctx.view.getState().overlay === 'unlock-keys') return;
        stopData();
        stopView();
        resolve(keyLock === 'unlocked');
      };
      const stopData = store.subscribe(settle);
      const stopView = ctx.view.subscribe(settle);
    });
  }

  async function send(text: string, files: readonly PreparedFile[] = []): Promise<boolean> {
    const content = text.trim();
    if ((!content && files.length === 0) || !ctx.get().activeId) return false;
    if (ctx.get().keyLock === 'locked' && !(await unlockFirst())) return false;
    const { activeId } = ctx.get();
    if (!activeId) return false;
    const conversation = await open.ensureLoaded(activeId);
    if (!conversation) return false;
    const targets = readyTargets(activeId);
    if (!targets) return false;
    const parts = files.map(({ part }) => part);
    if (!targets.every((target) => filesFit(activeId, conversation.activeLeafId, parts, target)))
      return false;
    // Held until the message's first save stores them with it, in one transaction.
    for (const { part, blob } of files) ctx.db().stageAttachment(part.id, blob);
    void ask(activeId, conversation.activeLeafId, content, targets, parts);
    return true;
  }

  async function edit(conversationId: string, messageId: string, text: string): Promise<boolean> {
    const content = text.trim();
    const conversation = ctx.get().loaded[conversationId];
    const message = conversation && findMessage(conversation, messageId);
    if (message?.role !== 'user' || message.parentId === null) return false;
    // The new version keeps the message's files (the same stored bytes).
    const files = attachmentParts(message);
    if (!content && files.length === 0) return false;
    const { parentId } = message;
    const targets = readyTargets(conversationId);
    if (!targets?.every((target) => filesFit(conversationId, parentId, files, target))) return false;
    void ask(conversationId, parentId, content, targets, files);
    return true;
  }

  async function regenerate(conversationId: string, messageId: string, model?: ModelPin): Promise<void> {
    const conversation = ctx.get().loaded[conversationId];
    const message = conversation && findMessage(conversation, messageId);
    if (message?.role !== 'assistant' || message.parentId === null) return;
    await askAgain(conversationId, message.parentId, model);
  }

  async function retry(conversationId: string): Promise<void> {
    const conversation = await open.ensureLoaded(conversationId);
    const last = conversation && activePath(conversation).at(-1);
    if (!last) return;
    const question = last.parentId !== null ? findMessage(conversation, last.parentId) : undefined;
    // A compared question's failed column is asked again in its place.
    if (
      last.role === 'assistant' &&
      last.status === 'interrupted' &&
      question &&
      openComparison(conversation, question)
    )
      await (await compare()).retryCompared(conversationId, last.id);
    else if (last.role === 'assistant' && last.status === 'interrupted' && last.parentId !== null)
      await askAgain(conversationId, last.parentId);
    else if (last.role === 'user') await askAgain(conversationId, last.id);
  }

  async function switchModelAndRetry(conversationId: string, pin: ModelPin): Promise<void> {
    await open.change(conversationId, (conversation) => setModelPin(conversation, pin, ctx.now()));
    await retry(conversationId);
  }

  async function continueReply(conversationId: string, replyId: string): Promise<void> {
    const conversation = await open.ensureLoaded(conversationId);
    const reply = conversation && activePath(conversation).at(-1);
    if (reply?.id !== replyId || reply.role !== 'assistant' || reply.parentId === null) return;
    const target = readyTarget(conversationId);
    if (!target) return;
    await replies.run(conversationId, reply.parentId, target, {
      onRetry: () => void continueReply(conversationId, replyId),
      continuing: reply,
    });
  }

  return {
    send,
    edit,
    regenerate,
    retry,
    switchModelAndRetry,
    continueReply,
    stop: replies.stop,
    retryCompared: async (conversationId, replyId) =>
      (await compare()).retryCompared(conversationId, replyId),
    continueWith: async (conversationId, replyId) => (await compare()).continueWith(conversationId, replyId),
    fuse: async (conversationId, questionId, model) =>
      (await compare()).fuse(conversationId, questionId, model),
    prepareFile: (file) => prepareFile(file, ctx.newId()),
    readAttachment: (id) => ctx.db().readAttachment(id),
  };
}
