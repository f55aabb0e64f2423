import { splitConfig } from '../domain/config.ts';
import type { Config } from '../domain/config.ts';
import {
  attachmentParts,
  hasContent,
  messageText,
  reasoningParts,
  textParts,
  type Conversation,
  type Message,
  type MessagePart,
  type ReasoningPart,
} from '../domain/conversation.ts';
import type { ReplyStats } from '../domain/reply-stats.ts';
import { addMessage, markWritten, newMessage } from '../domain/conversation-rules.ts';
import { deleteSubtree, findMessage, pathTo, replaceMessage } from '../domain/message-tree.ts';
import { connectionLabel, modelOf } from '../domain/provider-catalog.ts';
import { createFrameBatcher, createThrottle } from '../lib/frame-batcher.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import type { ChatMessage, StreamPart } from '../providers/types.ts';
import type { ModelCapabilities } from '../domain/provider-definitions/capabilities.ts';
import { filesForModel } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, modelCapabilities } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';

/** What 'Continue' asks, in the request only: the reply it extends shows no such turn. */
export const continuePrompt = 'Continue exactly where your previous reply stopped.';

/** While streaming, the reply is saved at most this often (and on page hide). */
const streamingSaveIntervalMs = 1000;
/** Streamed text is shown at most every 25 ms: each other frame at 60 Hz, 40 times a second at 120 Hz. */
const streamedTextIntervalMs = 25;

/**
 * What is sent: the path up to the question, as role and content; an empty system prompt sends
 * none. A user's files go as the model takes them (see attachment-files.ts), read from storage.
 * A reply's reasoning goes along only to the provider and model that wrote it: signatures
 * belong to one vendor and model (docs/decisions.md#reasoning, docs/providers.md#sending-reasoning-back).
 */
export async function historyFor(
  conversation: Conversation,
  questionId: string,
  config: Config,
  files: {
    capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>;
    read(id: string): Promise<Blob | undefined>;
  },
): Promise<ChatMessage[]> {
  const path = pathTo(conversation, questionId).filter(
    (message) => !(message.role === 'system' && messageText(message) === ''),
  );
  return Promise.all(
    path.map(async (message) => {
      const sent: ChatMessage = { role: message.role, content: messageText(message) };
      const attachments = attachmentParts(message);
      if (attachments.length > 0) {
        const { files: sentFiles, texts } = await filesForModel(attachments, files.capabilities, files.read);
        sent.content = [...texts, sent.content].filter((text) => text !== '').join('\n\n');
        if (sentFiles.length > 0) sent.files = sentFiles;
      }
      const reasoning = reasoningParts(message);
      if (reasoning.length > 0 && message.provider === config.provider && message.model === modelOf(config))
        sent.reasoning = reasoning;
      return sent;
    }),
  );
}

/** A reply as it arrives: its reasoning blocks, its text and its figures. */
function createReplyDraft(startedAt: number) {
  const reasoning: ReasoningPart[] = [];
  let open = false;
  let text = '';
  const stats: ReplyStats = {};
  let thinkingFrom: number | undefined;

  function tokenAt(at: number) {
    stats.firstTokenMs ??= at - startedAt;
  }

  return {
    /** Applies one stream part at time `at` (ms); true when what is shown changed. */
    apply(part: StreamPart, at: number): boolean {
      switch (part.type) {
        case 'reasoning-delta': {
          tokenAt(at);
          thinkingFrom ??= at;
          const last = reasoning.at(-1);
          if (open && last) last.text += part.text;
          else reasoning.push({ type: 'reasoning', text: part.text });
          open = true;
          return true;
        }
        case 'reasoning-end': {
          const last = reasoning.at(-1);
          if (open && last) {
            // Replaced, not changed: a closed block keeps one identity from here on.
            if (part.signature) reasoning[reasoning.length - 1] = { ...last, signature: part.signature };
          } else if (part.signature) {
            reasoning.push({ type: 'reasoning', text: '', signature: part.signature });
          }
          open = false;
          return false;
        }
        case 'reasoning-redacted':
          tokenAt(at);
          thinkingFrom ??= at;
          reasoning.push({ type: 'reasoning', text: '', signature: part.data, redacted: true });
          open = false;
          return true;
        case 'text-delta':
          tokenAt(at);
          if (thinkingFrom !== undefined) stats.thinkingMs ??= at - thinkingFrom;
          open = false;
          text += part.text;
          return true;
        case 'finish':
          if (part.usage && Object.keys(part.usage).length > 0) stats.usage = part.usage;
          if (part.reason !== 'stop') stats.finishReason = part.reason;
          return false;
        case 'notice':
          return false;
        case 'tool-call-start':
        case 'tool-call-delta':
        case 'tool-call-end':
          // Asked only with tools, which no request offers until the tool loop does.
          return false;
      }
    },
    get text() {
      return text;
    },
    /**
     * The block still growing is copied (it is changed in place); closed blocks keep their identity,
     * so a finished thinking block is not rendered again while the answer streams.
     */
    parts(): MessagePart[] {
      const last = reasoning.length - 1;
      return [
        ...reasoning.map((part, index) => (open && index === last ? { ...part } : part)),
        ...textParts(text),
      ];
    },
    /** The figures so far; at the end, with the total time. */
    stats(endedAt?: number): ReplyStats | undefined {
      const result: ReplyStats = { ...stats };
      if (endedAt !== undefined) {
        if (thinkingFrom !== undefined) result.thinkingMs ??= endedAt - thinkingFrom;
        if (result.firstTokenMs !== undefined) result.totalMs = endedAt - startedAt;
      }
      return Object.keys(result).length > 0 ? result : undefined;
    },
  };
}

/**
 * The question with the reason its request failed (kept with it, so a reload still says why), or
 * without one.
 */
function withFailure(conversation: Conversation, questionId: string, reason?: string): Conversation {
  const question = findMessage(conversation, questionId);
  if (!question || question.error === reason) return conversation;
  const updated: Message = { ...question, error: reason };
  if (reason === undefined) delete updated.error;
  return replaceMessage(conversation, updated);
}

export interface ReplyRunner {
  /**
   * Streams a new reply under `questionId` (a user message) as its newest child: send, edit,
   * regenerate and retry all end here. Resolves when the reply has ended and been saved.
   */
  run(
    conversationId: string,
    questionId: string,
    target: ReplyTarget,
    onRetry: () => void,
    /** 'Continue': this reply (the question's) is extended instead of a new one added. */
    continuing?: Message,
  ): Promise<void>;
  /** Stop: aborts the request; what had arrived is kept. */
  stop(): void;
  /** The page is being hidden or closed: save the reply as it stands, at once. */
  saveNow(): void;
}

export function createReplyRunner(ctx: ChatContext, sync: ConversationSync): ReplyRunner {
  let active: { conversationId: string; controller: AbortController } | null = null;

  async function run(
    conversationId: string,
    questionId: string,
    target: ReplyTarget,
    onRetry: () => void,
    continuing?: Message,
  ) {
    const start = ctx.get().loaded[conversationId];
    const { config, service } = target;
    if (!start || !findMessage(start, questionId) || !service) return;
    const controller = new AbortController();
    const model = modelOf(config);
    const reply: Message = continuing
      ? { ...continuing }
      : {
          ...newMessage('assistant', '', { id: ctx.newId(), parentId: questionId, now: ctx.now() }),
          provider: config.provider,
          ...(model && { model }),
        };
    // A continued reply's figures and end are those of its last part.
    delete reply.stats;
    delete reply.status;
    const earlier = continuing?.parts ?? [];
    // The connection's service, asked with this conversation's model and settings.
    const { settings } = splitConfig(config);
    const startedAt = ctx.now().getTime();
    const draft = createReplyDraft(startedAt);
    const current = (): Message => {
      const message: Message = { ...reply, parts: [...earlier, ...draft.parts()] };
      const stats = draft.stats();
      if (stats) message.stats = stats;
      return message;
    };

    // The reply as it stands, written into the latest copy of the conversation (other changes,
    // a rename or another tab's branch, may have arrived meanwhile).
    const commit = (message: Message) => {
      const latest = ctx.get().loaded[conversationId];
      if (latest) commitConversation(ctx.store, replaceMessage(latest, message));
    };
    const render = createFrameBatcher(() => commit(current()), streamedTextIntervalMs);
    const periodicSave = createThrottle(() => void sync.save(conversationId), streamingSaveIntervalMs);

    active = { conversationId, controller };
    // Asked again: the reason an earlier request failed no longer stands.
    if (!continuing)
      commitConversation(ctx.store, addMessage(withFailure(start, questionId), reply, config.provider));
    ctx.store.setState((state) => ({
      streaming: { conversationId, messageId: reply.id },
      failedTurn: state.failedTurn?.conversationId === conversationId ? null : state.failedTurn,
    }));

    let final: Message | null;
    /** Why the question is left unanswered, when the request failed with nothing received. */
    let unanswered: string | undefined;
    const noFailure = Symbol('no failure');
    let failure: unknown = noFailure;
    const providerName = connectionLabel(config);
    try {
      // Files are read (and a PDF's text extracted) with the reply already shown as waiting.
      const history = await historyFor(start, continuing?.id ?? questionId, config, {
        capabilities: modelCapabilities(ctx.get(), config),
        read: (id) => ctx.db().readAttachment(id),
      });
      if (continuing) history.push({ role: 'user', content: continuePrompt });
      const effort = start.effort;
      const parts = service.chat({ messages: history, settings, effort, signal: controller.signal });
      for await (const part of parts) {
        if (part.type === 'notice') reply.notices = [...(reply.notices ?? []), part.text];
        if (!draft.apply(part, ctx.now().getTime())) continue;
        render.schedule();
        periodicSave.call();
      }
    } catch (error) {
      failure = error;
    } finally {
      periodicSave.cancel();
    }
    const ended = ctx.now().getTime();
    const whole = (extra: Partial<Message> = {}): Message => {
      const message: Message = { ...reply, parts: [...earlier, ...draft.parts()], ...extra };
      const stats = draft.stats(ended);
      if (stats) message.stats = stats;
      return message;
    };
    // A failed or stopped reply is kept only if something arrived; one that ended normally is
    // kept even when empty (a reply filtered, or spent on hidden reasoning), with its figures.
    const kept = (extra: Partial<Message>) => {
      const message = whole(extra);
      return hasContent({ ...message, parts: draft.parts() }) ? message : null;
    };
    if (failure === noFailure) {
      final = whole();
    } else {
      const error = failure;
      const aborted = controller.signal.aborted || (isProviderError(error) && error.kind === 'aborted');
      if (aborted) {
        final = kept({ status: 'stopped' });
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
        final = kept({ status: 'interrupted', error: description });
        // Nothing received: the question stays unanswered (docs/behaviour.md#failures), with the reason shown under it.
        if (!final && !continuing) {
          unanswered = description;
          const pin = {
            provider: config.provider,
            model,
            ...(config.endpointId && { endpointId: config.endpointId }),
          };
          const modelGone = isProviderError(error) && error.modelGone === true;
          ctx.store.setState({
            failedTurn: { conversationId, questionId, pin, reason: description, modelGone },
          });
        }
      }
    }
    // The final state is committed below in one render.
    render.cancel();
    const latest = ctx.get().loaded[conversationId];
    if (latest) {
      // Nothing arrived: the conversation keeps the question without a reply (docs/behaviour.md#failures), or the
      // continued reply as it was.
      const result = final ?? continuing;
      commitConversation(
        ctx.store,
        result
          ? markWritten(replaceMessage(latest, result), ctx.now())
          : withFailure(deleteSubtree(latest, reply.id), questionId, unanswered),
      );
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
