import type { ComparedTurn, Conversation, Message, ModelPin } from './conversation.ts';
import { findMessage, newestLeafUnder, replaceMessage } from './message-tree.ts';

/**
 * Asking several models at once (docs/compare.md). A compared turn is one user message with a
 * reply of each model as sibling versions, listed on the question (`compared`) in column order; the
 * version on the active path is the conversation's branch, as for any versions.
 */

/** How many models one message may be asked of at once. */
export const compareSize = { min: 2, max: 4 } as const;

export function samePin(a: ModelPin, b: ModelPin): boolean {
  return a.provider === b.provider && a.model === b.model && (a.endpointId ?? '') === (b.endpointId ?? '');
}

/** `pins` without repeats, in order, at most `compareSize.max`. */
export function distinctPins(pins: readonly ModelPin[]): ModelPin[] {
  const kept: ModelPin[] = [];
  for (const pin of pins)
    if (kept.length < compareSize.max && !kept.some((known) => samePin(known, pin))) kept.push({ ...pin });
  return kept;
}

/**
 * The conversation asks `pins` at once from its next message (null, or fewer than two: it asks one
 * model again). A choice like the model picker's, so the later of the two wins a merge.
 */
export function setCompare(
  conversation: Conversation,
  pins: readonly ModelPin[] | null,
  now: Date,
): Conversation {
  const next: Conversation = { ...conversation, pinnedAt: now.toISOString() };
  const kept = distinctPins(pins ?? []);
  if (kept.length >= compareSize.min) next.compare = kept;
  else delete next.compare;
  return next;
}

/** The replies of a compared question that still exist, in column order. */
export function comparedReplies(conversation: Conversation, question: Message): Message[] {
  return (question.compared?.replyIds ?? []).flatMap((id) => {
    const reply = findMessage(conversation, id);
    return reply && reply.parentId === question.id ? [reply] : [];
  });
}

/** The question's columns while no reply was chosen yet; null for any other message. */
export function openComparison(conversation: Conversation, question: Message): Message[] | null {
  if (!question.compared || question.compared.chosen) return null;
  const replies = comparedReplies(conversation, question);
  return replies.length > 0 ? replies : null;
}

function withTurn(
  conversation: Conversation,
  question: Message,
  turn: ComparedTurn,
  now: Date,
): Conversation {
  return replaceMessage(conversation, { ...question, compared: turn, editedAt: now.toISOString() });
}

/**
 * `replyId` joins the question's columns: in the place of `replacing` (a failed column asked
 * again), else after the others.
 */
export function addCompared(
  conversation: Conversation,
  questionId: string,
  replyId: string,
  now: Date,
  replacing?: string,
): Conversation {
  const question = findMessage(conversation, questionId);
  if (!question) return conversation;
  const ids = question.compared?.replyIds ?? [];
  const at = replacing === undefined ? -1 : ids.indexOf(replacing);
  const replyIds = at === -1 ? [...ids, replyId] : ids.map((id, index) => (index === at ? replyId : id));
  return withTurn(conversation, question, { ...question.compared, replyIds }, now);
}

/**
 * 'Continue with this one': the reply becomes the conversation's branch, and its question's
 * columns fold into versions.
 */
export function chooseCompared(conversation: Conversation, replyId: string, now: Date): Conversation {
  const reply = findMessage(conversation, replyId);
  const question = reply?.parentId ? findMessage(conversation, reply.parentId) : undefined;
  if (!reply || !question?.compared) return conversation;
  const chosen = withTurn(conversation, question, { ...question.compared, chosen: true }, now);
  return { ...chosen, activeLeafId: newestLeafUnder(chosen, replyId) };
}

/** The model a reply was written by, as the conversation's compare set names it (its endpoint too). */
export function pinOfReply(conversation: Conversation, reply: Message): ModelPin | null {
  if (!reply.provider || !reply.model) return null;
  const pin: ModelPin = { provider: reply.provider, model: reply.model };
  return conversation.compare?.find((known) => samePin({ ...known, endpointId: undefined }, pin)) ?? pin;
}

export interface FusedSource {
  /** The model that wrote it, as the user knows it. */
  label: string;
  text: string;
}

/**
 * What 'Fuse' asks, after the question (in the request only): every compared reply labelled by
 * its model, and how to merge them.
 */
export function fuseRequest(sources: readonly FusedSource[]): string {
  const answers = sources
    .map(
      (source, index) => `<answer number="${index + 1}" model="${source.label}">\n${source.text}\n</answer>`,
    )
    .join('\n\n');
  return [
    `Several models answered my last message. Their answers follow, each labelled with its model.`,
    '',
    answers,
    '',
    'Write one answer to my last message that combines the best of them: keep what is right, correct ' +
      'what is wrong, and fill in what one of them left out. Where they disagree, say so briefly and ' +
      'which view you hold and why. Answer directly, as if you were answering my message; do not ' +
      'describe the answers one by one.',
  ].join('\n');
}
