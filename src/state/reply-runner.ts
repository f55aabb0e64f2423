import { splitConfig } from '../domain/config.ts';
import { hasContent, type Conversation, type Message } from '../domain/conversation.ts';
import { addMessage, markWritten, newMessage } from '../domain/conversation-rules.ts';
import { deleteSubtree, findMessage, pathTo, replaceMessage } from '../domain/message-tree.ts';
import { connectionLabel, modelOf } from '../domain/provider-catalog.ts';
import { addCompared } from '../domain/compare.ts';
import { errorResult, notRunText } from '../domain/tools.ts';
import type { ProviderTool } from '../domain/provider-definitions/capabilities.ts';
import { providerToolOn } from '../domain/tool-switches.ts';
import { createFrameBatcher, createThrottle } from '../lib/frame-batcher.ts';
import { describeProviderError, isProviderError, ProviderError } from '../providers/provider-error.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, modelCapabilities } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';
import { historyFor, replyTurns } from './chat-history.ts';
import { createReplyDraft } from './reply-draft.ts';
import type { ToolRunner } from './tool-runner.ts';

/** What 'Continue' asks, in the request only: the reply it extends shows no such turn. */
export const continuePrompt = 'Continue exactly where your previous reply stopped.';

/** While streaming, the reply is saved at most this often (and on page hide). */
const streamingSaveIntervalMs = 1000;
/** Streamed text is shown at most every 25 ms: each other frame at 60 Hz, 40 times a second at 120 Hz. */
const streamedTextIntervalMs = 25;

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

export interface RunOptions {
  /** The failure toast's 'Retry', given the failed reply's id. */
  onRetry: (replyId: string) => void;
  /** 'Continue': this reply (the question's) is extended instead of a new one added. */
  continuing?: Message;
  /** A turn of the user's after the question, in the request only ('Continue', 'Fuse'). */
  requestTurn?: string;
  /** 'Fuse': the replies this one merges. */
  fusedFrom?: string[];
  /**
   * One of a compared question's replies (domain/compare.ts): it joins the question's columns (in
   * the place of `replacing`, a failed one asked again), leaves the branch on the first column,
   * and one that fails with nothing received stays as its column, with the reason.
   */
  compared?: { replacing?: string };
}

/**
 * The conversation with the new reply under its question. A compared reply joins the question's
 * columns, and the branch stays on the column it was on (the first, or the one chosen before).
 */
function added(
  conversation: Conversation,
  reply: Message,
  config: ReplyTarget['config'],
  compared: RunOptions['compared'],
): Conversation {
  if (!compared) return addMessage(conversation, reply, config.provider);
  const questionId = reply.parentId as string;
  const { replacing } = compared;
  const onReplaced =
    replacing !== undefined && pathTo(conversation).some((message) => message.id === replacing);
  const without = replacing ? deleteSubtree(conversation, replacing) : conversation;
  const next = addCompared(
    addMessage(without, reply, config.provider),
    questionId,
    reply.id,
    new Date(reply.createdAt),
    replacing,
  );
  const keep = !onReplaced && conversation.activeLeafId !== questionId;
  return keep ? { ...next, activeLeafId: conversation.activeLeafId } : next;
}

export interface ReplyRunner {
  /**
   * Streams a new reply under `questionId` (a user message) as its newest child: send, edit,
   * regenerate, retry, compare and fuse all end here. Resolves when the reply has ended and been
   * saved. Several may stream at once into one conversation (a compared question's replies).
   */
  run(conversationId: string, questionId: string, target: ReplyTarget, options: RunOptions): Promise<void>;
  /** Stop: aborts that reply's request (without an id, every reply's); what had arrived is kept. */
  stop(replyId?: string): void;
  /** The page is being hidden or closed: save the reply as it stands, at once. */
  saveNow(): void;
  /** The replies not yet safely stored: streaming, or ended with their final save still to land. */
  unsaved(): { conversationId: string; replyId: string }[];
}

export function createReplyRunner({
  ctx,
  sync,
  tools,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  tools: ToolRunner;
}): ReplyRunner {
  /** The replies streaming, by id. */
  const active = new Map<string, { conversationId: string; controller: AbortController }>();
  /**
   * The replies with text not shown yet, each with how to read it as it stands. They are shown
   * together, one store update (and one render) per frame however many stream: a compared
   * question's four columns in four updates a frame cost the page 1.7 times one reply's work.
   */
  const unshown = new Map<string, { conversationId: string; current: () => Message }>();
  const showFrame = createFrameBatcher(() => {
    const byConversation = new Map<string, Message[]>();
    for (const { conversationId, current } of unshown.values())
      byConversation.set(conversationId, [...(byConversation.get(conversationId) ?? []), current()]);
    unshown.clear();
    for (const [conversationId, messages] of byConversation) {
      const latest = ctx.get().loaded[conversationId];
      if (latest) commitConversation(ctx.store, messages.reduce(replaceMessage, latest));
    }
  }, streamedTextIntervalMs);

  async function run(
    conversationId: string,
    questionId: string,
    target: ReplyTarget,
    { onRetry, continuing, requestTurn, fusedFrom, compared }: RunOptions,
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
          ...(fusedFrom && { fusedFrom }),
        };
    // A continued reply's figures and end are those of its last part.
    delete reply.stats;
    delete reply.status;
    const earlier = continuing?.parts ?? [];
    // The connection's service, asked with this conversation's model and settings.
    const { settings } = splitConfig(config);
    const startedAt = ctx.now().getTime();
    /** Where each tool offered to this reply runs, by name. */
    const serverOf = new Map<string, string>();
    const draft = createReplyDraft(startedAt, {
      serverOf: (name) => serverOf.get(name),
      earlier: { parts: earlier, ...(continuing?.web && { web: continuing.web }) },
      files: {
        stage: (blob) => {
          const id = ctx.newId();
          ctx.db().stageAttachment(id, blob);
          return id;
        },
        drop: (id) => ctx.db().dropStagedAttachment(id),
      },
    });
    const current = (): Message => {
      const message: Message = { ...reply, parts: [...earlier, ...draft.parts()] };
      const stats = draft.stats();
      if (stats) message.stats = stats;
      const web = draft.web();
      if (web) message.web = web;
      return message;
    };

    // The reply as it stands, written into the latest copy of the conversation (other changes,
    // a rename or another tab's branch, may have arrived meanwhile).
    const commit = (message: Message) => {
      const latest = ctx.get().loaded[conversationId];
      if (latest) commitConversation(ctx.store, replaceMessage(latest, message));
    };
    const render = {
      schedule: () => {
        unshown.set(reply.id, { conversationId, current });
        showFrame.schedule();
      },
      cancel: () => unshown.delete(reply.id),
    };
    const periodicSave = createThrottle(() => void sync.save(conversationId), streamingSaveIntervalMs);

    active.set(reply.id, { conversationId, controller });
    // Asked again: the reason an earlier request failed no longer stands.
    if (!continuing)
      commitConversation(ctx.store, added(withFailure(start, questionId), reply, config, compared));
    ctx.store.setState((state) => ({
      streaming: {
        conversationId,
        messageIds: [
          ...(state.streaming?.conversationId === conversationId ? state.streaming.messageIds : []),
          reply.id,
        ],
      },
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
      const files = {
        capabilities: modelCapabilities(ctx.get(), config),
        read: (id: string) => ctx.db().readAttachment(id),
      };
      // Its project's instructions and files, as they are now (never copied into the conversation).
      const project = ctx.get().projects.find((known) => known.id === start.projectId);
      const asked = await historyFor(start, continuing?.id ?? questionId, config, files, project);
      const turn = continuing ? continuePrompt : requestTurn;
      if (turn) asked.push({ role: 'user', content: turn });
      // What the model may call in this reply: read once, as the reply starts.
      const offered = await tools.offered(start, config);
      for (const tool of offered) serverOf.set(tool.definition.name, tool.server);
      const definitions = offered.map((tool) => tool.definition);
      // The provider's own tools: each on in this conversation, and the model takes it.
      const capabilities = modelCapabilities(ctx.get(), config);
      const asks = (tool: ProviderTool) => providerToolOn(start, tool) && capabilities[tool] === true;
      const providerTools = {
        ...(asks('webSearch') && { webSearch: true }),
        ...(asks('codeExecution') && { codeExecution: true }),
        ...(asks('imageOutput') && { imageOutput: true }),
      };
      const limit = tools.stepLimit();
      // One request per step: the model answers, or calls tools whose results go back to it.
      for (let step = 1; ; step++) {
        const messages =
          step === 1
            ? asked
            : [
                ...(await historyFor(start, questionId, config, files, project)),
                ...(turn && !continuing ? [{ role: 'user' as const, content: turn }] : []),
                ...(await replyTurns(current(), config, files)),
              ];
        const parts = service.chat({
          messages,
          settings,
          effort: start.effort,
          signal: controller.signal,
          ...(project && { cacheKey: project.id }),
          ...(definitions.length > 0 && { tools: definitions }),
          ...providerTools,
        });
        draft.startRequest();
        for await (const part of parts) {
          if (part.type === 'notice') reply.notices = [...(reply.notices ?? []), part.text];
          if (!draft.apply(part, ctx.now().getTime())) continue;
          render.schedule();
          periodicSave.call();
        }
        const calls = draft.unansweredCalls();
        if (calls.length === 0) break;
        if (step >= limit) {
          draft.answer(
            calls.map((call) =>
              errorResult(call, notRunText(`this reply reached its limit of ${limit} tool steps.`)),
            ),
          );
          reply.notices = [
            ...(reply.notices ?? []),
            `Stopped after ${limit} tool steps (the limit in Tools settings).`,
          ];
          break;
        }
        // Shown whole before the tools run (and while a call waits for approval).
        render.cancel();
        commit(current());
        const results = await tools.runCalls({
          conversationId,
          messageId: reply.id,
          calls,
          offered,
          signal: controller.signal,
        });
        draft.answer(results);
        render.schedule();
        periodicSave.call();
        if (controller.signal.aborted)
          throw new ProviderError({ provider: config.provider, kind: 'aborted', message: 'Stopped' });
      }
    } catch (error) {
      failure = error;
    } finally {
      periodicSave.cancel();
    }
    // Every call sent has its result, so the next request is one no provider refuses.
    const stranded = draft.unansweredCalls();
    if (stranded.length > 0)
      draft.answer(
        stranded.map((call) =>
          errorResult(
            call,
            controller.signal.aborted
              ? notRunText('the user stopped the reply.')
              : notRunText('the reply failed before this call ran.'),
          ),
        ),
      );
    const ended = ctx.now().getTime();
    const whole = (extra: Partial<Message> = {}): Message => {
      const message: Message = { ...reply, parts: [...earlier, ...draft.parts(true)], ...extra };
      const stats = draft.stats(ended);
      if (stats) message.stats = stats;
      const web = draft.web(true);
      if (web) message.web = web;
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
        // A compared reply stopped before anything arrived stays as its column, marked stopped.
        final = compared ? whole({ status: 'stopped' }) : kept({ status: 'stopped' });
      } else {
        console.error(`Error calling ${providerName} API`, error);
        const description = isProviderError(error)
          ? describeProviderError(error)
          : error instanceof Error
            ? error.message
            : String(error);
        ctx.notify.error(`Error calling ${providerName} API`, description, {
          label: 'Retry',
          onClick: () => onRetry(reply.id),
        });
        // A compared reply stays as its column, with the reason, even with nothing received.
        final = compared
          ? whole({ status: 'interrupted', error: description })
          : kept({ status: 'interrupted', error: description });
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
    ctx.store.setState((state) => {
      const left = state.streaming?.messageIds.filter((id) => id !== reply.id) ?? [];
      return {
        streaming: state.streaming && left.length > 0 ? { ...state.streaming, messageIds: left } : null,
      };
    });
    // Until the final save has landed, a page hide writes the finished reply at once.
    await sync.save(conversationId);
    active.delete(reply.id);
  }

  return {
    run,
    stop: (replyId) => {
      for (const [id, { controller }] of active)
        if (replyId === undefined || id === replyId) controller.abort();
    },
    saveNow: () => {
      for (const conversationId of new Set([...active.values()].map((run) => run.conversationId)))
        sync.saveNow(conversationId);
    },
    unsaved: () => [...active].map(([replyId, { conversationId }]) => ({ conversationId, replyId })),
  };
}
