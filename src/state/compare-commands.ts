import { chooseCompared, comparedReplies, fuseRequest, pinOfReply, setCompare } from '../domain/compare.ts';
import type { AttachmentPart } from '../domain/attachments.ts';
import { messageText, type Message, type ModelPin } from '../domain/conversation.ts';
import { setModelPin } from '../domain/conversation-rules.ts';
import { findMessage } from '../domain/message-tree.ts';
import type { ChatContext } from './chat-context.ts';
import { isStreamingIn, streamingIdsIn } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ReplyRunner } from './reply-runner.ts';

/**
 * Asking several models at once (docs/compare.md): a compared question's columns streamed,
 * asked again, chosen and fused. Loaded by message-commands.ts with the first compared message.
 */
export interface CompareCommands {
  /** Streams a reply of each target to the question at once, as its columns in this order. */
  askAll(conversationId: string, questionId: string, targets: readonly ReplyTarget[]): Promise<void>;
  /** A failed column asked again of its model (a fused one fused again), in its place. */
  retryCompared(conversationId: string, replyId: string): Promise<void>;
  /** 'Continue with this one': the reply is the branch, its columns fold, its model is the conversation's. */
  continueWith(conversationId: string, replyId: string): Promise<void>;
  /** 'Fuse': `model` merges the question's compared replies into one more column. */
  fuse(conversationId: string, questionId: string, model: ModelPin): Promise<void>;
}

export function createCompareCommands({
  ctx,
  open,
  replies,
  readyTarget,
  filesFit,
}: {
  ctx: ChatContext;
  open: OpenConversations;
  replies: ReplyRunner;
  /** message-commands.ts: what a reply is asked with now (`alongside`: beside its turn's other replies), or null. */
  readyTarget(conversationId: string, override?: ModelPin, alongside?: boolean): ReplyTarget | null;
  /** message-commands.ts: whether the files on the path may go to that model (the reason shown if not). */
  filesFit(
    conversationId: string,
    parentId: string,
    files: readonly AttachmentPart[],
    target: ReplyTarget,
  ): boolean;
}): CompareCommands {
  /**
   * Streams one column of a compared question: the reply of `target`'s model or, `fusing` these
   * replies, their fusion; in the place of `replacing` when it is asked again. The failure toast's
   * Retry asks that column again.
   */
  function askColumn(
    conversationId: string,
    questionId: string,
    target: ReplyTarget,
    { replacing, fusing }: { replacing?: string; fusing?: readonly Message[] } = {},
  ): Promise<void> {
    return replies.run(conversationId, questionId, target, {
      onRetry: (replyId) => void retryCompared(conversationId, replyId),
      compared: replacing ? { replacing } : {},
      ...(fusing && {
        requestTurn: fuseRequest(
          fusing.map((reply) => ({
            label: reply.model ?? reply.provider ?? 'a model',
            text: messageText(reply),
          })),
        ),
        fusedFrom: fusing.map((reply) => reply.id),
      }),
    });
  }

  /** The replies a fusion merges: those named (or every column), fused ones and empty ones left out. */
  function fuseSources(conversationId: string, questionId: string, ids?: readonly string[]): Message[] {
    const conversation = ctx.get().loaded[conversationId];
    const question = conversation && findMessage(conversation, questionId);
    if (!conversation || !question) return [];
    return comparedReplies(conversation, question).filter(
      (reply) =>
        (ids === undefined || ids.includes(reply.id)) && !reply.fusedFrom && messageText(reply).trim() !== '',
    );
  }

  async function retryCompared(conversationId: string, replyId: string): Promise<void> {
    const conversation = await open.ensureLoaded(conversationId);
    const reply = conversation && findMessage(conversation, replyId);
    const pin = conversation && reply && pinOfReply(conversation, reply);
    // Only a failed column that has ended (a toast's Retry may come after the column's own).
    if (!pin || !reply?.parentId || reply.status !== 'interrupted') return;
    if (streamingIdsIn(ctx.get(), conversationId).includes(replyId)) return;
    const questionId = reply.parentId;
    const fusing = reply.fusedFrom && fuseSources(conversationId, questionId, reply.fusedFrom);
    if (fusing && fusing.length < 2) return;
    const target = readyTarget(conversationId, pin, true);
    if (!target || !filesFit(conversationId, questionId, [], target)) return;
    await askColumn(conversationId, questionId, target, { replacing: replyId, ...(fusing && { fusing }) });
  }

  async function continueWith(conversationId: string, replyId: string): Promise<void> {
    const conversation = ctx.get().loaded[conversationId];
    const reply = conversation && findMessage(conversation, replyId);
    const question = conversation && reply?.parentId ? findMessage(conversation, reply.parentId) : undefined;
    const pin = conversation && reply && pinOfReply(conversation, reply);
    if (!reply || !question?.compared || isStreamingIn(ctx.get(), conversationId)) return;
    await open.change(conversationId, (latest) => {
      const chosen = chooseCompared(latest, replyId, ctx.now());
      // The model that wrote it (the fusing one for a fused reply) is the conversation's from now on.
      return pin ? setModelPin(chosen, pin, ctx.now()) : setCompare(chosen, null, ctx.now());
    });
  }

  async function fuse(conversationId: string, questionId: string, model: ModelPin): Promise<void> {
    await open.ensureLoaded(conversationId);
    const fusing = fuseSources(conversationId, questionId);
    if (fusing.length < 2) return;
    const target = readyTarget(conversationId, model);
    if (!target || !filesFit(conversationId, questionId, [], target)) return;
    await askColumn(conversationId, questionId, target, { fusing });
  }

  return {
    // Each reply's first commit happens before the next one starts: the columns keep this order.
    askAll: async (conversationId, questionId, targets) => {
      await Promise.all(targets.map((target) => askColumn(conversationId, questionId, target)));
    },
    retryCompared,
    continueWith,
    fuse,
  };
}
