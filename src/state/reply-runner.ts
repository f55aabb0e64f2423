import { splitConfig } from '../domain/config.ts';
import { messageText, textParts, type Conversation, type Message } from '../domain/conversation.ts';
import { addMessage, newMessage } from '../domain/conversation-rules.ts';
import { deleteSubtree, findMessage, pathTo, replaceMessage } from '../domain/message-tree.ts';
import { connectionLabel, modelOf } from '../domain/provider-catalog.ts';
import { createFrameBatcher, createThrottle } from '../lib/frame-batcher.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import type { ChatMessage } from '../providers/types.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';

/** While streaming, the reply is saved at most this often (and on page hide). */
const streamingSaveIntervalMs = 1000;
/** Streamed text is shown at most every 25 ms: each other frame at 60 Hz, 40 times a second at 120 Hz. */
const streamedTextIntervalMs = 25;

/** What is sent: the path up to the question, as role and content; an empty system prompt sends none. */
export function historyFor(conversation: Conversation, questionId: string): ChatMessage[] {
  return pathTo(conversation, questionId)
    .filter((message) => !(message.role === 'system' && messageText(message) === ''))
    .map((message) => ({ role: message.role, content: messageText(message) }));
}

export interface ReplyRunner {
  /**
   * Streams a new reply under `questionId` (a user message) as its newest child: send, edit,
   * regenerate and retry all end here. Resolves when the reply has ended and been saved.
   */
  run(conversationId: string, questionId: string, target: ReplyTarget, onRetry: () => void): Promise<void>;
  /** Stop: aborts the request; what had arrived is kept. */
  stop(): void;
  /** The page is being hidden or closed: save the reply as it stands, at once. */
  saveNow(): void;
}

export function createReplyRunner(ctx: ChatContext, sync: ConversationSync): ReplyRunner {
  let active: { conversationId: string; controller: AbortController } | null = null;

  async function run(conversationId: string, questionId: string, target: ReplyTarget, onRetry: () => void) {
    const start = ctx.get().loaded[conversationId];
    const { config, service } = target;
    if (!start || !findMessage(start, questionId) || !service) return;
    const history = historyFor(start, questionId);
    const controller = new AbortController();
    const reply: Message = {
      ...newMessage('assistant', '', { id: ctx.newId(), parentId: questionId, now: ctx.now() }),
      provider: config.provider,
    };
    const model = modelOf(config);
    if (model) reply.model = model;
    // The connection's service, asked with this conversation's model and settings.
    const { settings } = splitConfig(config);
    let text = '';

    // The reply as it stands, written into the latest copy of the conversation (other changes,
    // a rename or another tab's branch, may have arrived meanwhile).
    const commit = (message: Message) => {
      const latest = ctx.get().loaded[conversationId];
      if (latest) commitConversation(ctx.store, replaceMessage(latest, message));
    };
    const render = createFrameBatcher(
      () => commit({ ...reply, parts: textParts(text) }),
      streamedTextIntervalMs,
    );
    const periodicSave = createThrottle(() => void sync.save(conversationId), streamingSaveIntervalMs);

    active = { conversationId, controller };
    commitConversation(ctx.store, addMessage(start, reply, config.provider));
    ctx.store.setState({ streaming: { conversationId, messageId: reply.id } });

    let final: Message | null;
    const providerName = connectionLabel(config);
    try {
      for await (const part of service.chat({ messages: history, settings, signal: controller.signal })) {
        if (part.type === 'notice') reply.notices = [...(reply.notices ?? []), part.text];
        if (part.type !== 'text-delta') continue;
        text += part.text;
        render.schedule();
        periodicSave.call();
      }
      final = { ...reply, parts: textParts(text) };
    } catch (error) {
      const aborted = controller.signal.aborted || (isProviderError(error) && error.kind === 'aborted');
      if (aborted) {
        final = text ? { ...reply, parts: textParts(text), status: 'stopped' } : null;
      } else {
        console.error(`Error calling ${providerName} API`, error);
        const description = isProviderError(error)
          ? describeProviderError(error)
          : error instanceof Error
            ? error.message
            : String(error);
        ctx.notify.error(`Error calling ${providerName} API`, description, {
          label: 'Retry',
          onClick: onRetry,
        });
        final = text ? { ...reply, parts: textParts(text), status: 'interrupted', error: description } : null;
      }
    } finally {
      periodicSave.cancel();
    }
    // The final state is committed below in one render.
    render.cancel();
    const latest = ctx.get().loaded[conversationId];
    if (latest) {
      // Nothing arrived: the conversation keeps the question without a reply (spec).
      commitConversation(ctx.store, final ? replaceMessage(latest, final) : deleteSubtree(latest, reply.id));
    }
    ctx.store.setState({ streaming: null });
    // Until the final save has landed, a page hide writes the finished reply at once.
    await sync.save(conversationId);
    if (active?.controller === controller) active = null;
  }

  return {
    run,
    stop: () => active?.controller.abort(),
    saveNow: () => {
      if (active) sync.saveNow(active.conversationId);
    },
  };
}
