import type { ProviderId } from './config.ts';
import {
  defaultSystemPrompt,
  messageText,
  textParts,
  type Conversation,
  type ConversationPlace,
  type Message,
  type ModelPin,
} from './conversation.ts';
import {
  activePath,
  appendMessage,
  childrenOf,
  replaceMessage,
  restoreSubtree,
  rootMessage,
  subtreeOf,
} from './message-tree.ts';
import { hasMath, normalizeMath } from './math-source.ts';
import { activityOf, orderConversations, type Orderable } from './conversation-order.ts';
import type { ReasoningEffort } from './provider-definitions/capabilities.ts';

function systemMessage(id: string, at: string, content = defaultSystemPrompt): Message {
  return { id, parentId: null, role: 'system', parts: textParts(content), createdAt: at };
}

export interface NewConversationInput {
  /** How many conversations exist already: the new one is named 'Conversation {existingCount + 1}'. */
  existingCount: number;
  provider: ProviderId;
  now: Date;
  id: string;
  /** The id of its root system message. */
  rootId: string;
}

export function createConversation({
  existingCount,
  provider,
  now,
  id,
  rootId,
}: NewConversationInput): Conversation {
  const at = now.toISOString();
  return {
    id,
    name: `Conversation ${existingCount + 1}`,
    messages: [systemMessage(rootId, at)],
    activeLeafId: rootId,
    createdAt: at,
    updatedAt: at,
    provider,
    order: now.getTime(),
  };
}

/**
 * Updated at `at` without being written in: the list order (activeAt) stays where it was. A rename
 * or a cleared conversation is not one the user is working in, and should not jump to the top.
 */
function touched(conversation: Conversation, at: string): Conversation {
  return { ...conversation, updatedAt: at, activeAt: activityOf(conversation) };
}

/**
 * The name trimmed, with updatedAt bumped. A blank name is ignored (docs/behaviour.md#rename), and so is an unchanged
 * one: both return the same object, so callers can skip saving by an identity check.
 */
export function renameConversation(conversation: Conversation, name: string, now: Date): Conversation {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === conversation.name) return conversation;
  const at = now.toISOString();
  return { ...touched(conversation, at), name: trimmed, renamedAt: at };
}

/**
 * Back to the single root system message with the default prompt, as a new conversation starts
 * (a prompt of the user's resets too; Undo brings it back with `restoreCleared`). The root's
 * children are remembered as deleted, so an older copy in another tab cannot bring the cleared
 * messages back.
 */
export function clearConversation(conversation: Conversation, now: Date): Conversation {
  const kept = rootMessage(conversation);
  if (!kept) return conversation;
  const at = now.toISOString();
  // Marked edited, so a merge with an older copy keeps the reset prompt.
  const root =
    messageText(kept) === defaultSystemPrompt
      ? kept
      : { ...kept, parts: textParts(defaultSystemPrompt), editedAt: at };
  const cleared = childrenOf(conversation, root.id).map((message) => message.id);
  if (root === kept && cleared.length === 0) return conversation;
  const next: Conversation = { ...touched(conversation, at), messages: [root], activeLeafId: root.id };
  const deletedIds = [...(conversation.deletedIds ?? []), ...cleared];
  if (deletedIds.length > 0) next.deletedIds = deletedIds;
  return next;
}

/**
 * Undo of a clear: the messages of `before` come back under fresh ids (their old ids stay
 * deleted), with its prompt. Shows the branch shown before, unless `keepLeaf` (a reply streams).
 */
export function restoreCleared(
  conversation: Conversation,
  before: Conversation,
  { now, newId, keepLeaf }: { now: Date; newId: () => string; keepLeaf: boolean },
): Conversation {
  const root = rootMessage(before);
  if (!root) return conversation;
  const removed = childrenOf(before, root.id).flatMap((child) => subtreeOf(before, child.id));
  const prompted = setSystemPrompt(conversation, messageText(root), now);
  const leaf = keepLeaf || removed.length === 0 ? null : before.activeLeafId;
  const restored = restoreSubtree(prompted, removed, leaf, newId);
  return restored === conversation ? conversation : touched(restored, now.toISOString());
}

/** The conversation's own system prompt: the root system message's text ('' sends none). */
export function systemPromptOf(conversation: Conversation): string {
  const root = rootMessage(conversation);
  return root ? messageText(root) : '';
}

export function setSystemPrompt(conversation: Conversation, prompt: string, now: Date): Conversation {
  const root = rootMessage(conversation);
  if (!root || messageText(root) === prompt) return conversation;
  const at = now.toISOString();
  const edited: Message = { ...root, parts: textParts(prompt), editedAt: at };
  return touched(replaceMessage(conversation, edited), at);
}

/**
 * Adds a message as the active leaf: the conversation is updated then, by this provider (the
 * conversation's "provider at the last update", docs/behaviour.md#conversation-fields), and written in (it moves to the top of the list).
 */
export function addMessage(conversation: Conversation, message: Message, provider: ProviderId): Conversation {
  const at = message.createdAt;
  return { ...appendMessage(conversation, message), updatedAt: at, activeAt: at, provider };
}

/** A reply finished at `now`: written in, so it moves to the top of the list. */
export function markWritten(conversation: Conversation, now: Date): Conversation {
  const at = now.toISOString();
  return { ...conversation, updatedAt: at, activeAt: at };
}

/** A message of the user or the assistant, to append under `parentId`. */
export function newMessage(
  role: 'user' | 'assistant',
  text: string,
  { id, parentId, now }: { id: string; parentId: string; now: Date },
): Message {
  return { id, parentId, role, parts: textParts(text), createdAt: now.toISOString() };
}

/**
 * The saved active id if it still exists, otherwise the first conversation in the list order
 * (an archived one only when nothing else is left), otherwise none.
 */
export function pickActiveId(list: readonly Orderable[], savedId: string | null | undefined): string | null {
  if (savedId != null && list.some((item) => item.id === savedId)) return savedId;
  return orderConversations(list)[0]?.id ?? null;
}

/** The messages shown in the list: the active path without its system messages. */
export function visibleMessages(conversation: Conversation): Message[] {
  return activePath(conversation).filter((message) => message.role !== 'system');
}

/** What 'Copy' puts on the clipboard: 'User: ...' and 'Assistant: ...' blocks separated by blank lines. */
export function conversationAsText(conversation: Conversation): string {
  return visibleMessages(conversation)
    .map((message) => `${message.role === 'user' ? 'User' : 'Assistant'}: ${messageText(message)}`)
    .join('\n\n');
}

/** The last reply on the active path, if the path ends with one. */
export function lastReply(conversation: Conversation): Message | undefined {
  const last = visibleMessages(conversation).at(-1);
  return last?.role === 'assistant' ? last : undefined;
}

/**
 * The code of the last closed fenced block in a text (``` or ~~~ fences), without its fences, read
 * line by line as the renderer reads it (CommonMark). One pass: a regex with a backreference went
 * over the rest of the text again from every fence left open, quadratic in them.
 */
export function lastCodeBlock(text: string): string | undefined {
  const lines = text.split('\n');
  let code: string | undefined;
  let fence: string | undefined;
  let start = 0;
  for (const [at, line] of lines.entries()) {
    if (fence === undefined) {
      const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      // A backtick in a backtick fence's info string makes the line inline code, not a fence.
      if (opening?.[1] && !(opening[1].startsWith('`') && line.includes('`', opening[0].length))) {
        fence = opening[1];
        start = at + 1;
      }
      continue;
    }
    const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line)?.[1];
    if (closing && closing[0] === fence[0] && closing.length >= fence.length) {
      code = lines.slice(start, at).join('\n');
      fence = undefined;
    }
  }
  return code;
}

const markdownMarkers = ['```', '#', '**', '- ', '1. '];

/**
 * The rule for rendering an assistant reply as markdown rather than plain text
 * (docs/behaviour.md#markdown-rule): the original markers, and a formula, so that it is typeset.
 */
export function isMarkdownLike(text: string): boolean {
  if (markdownMarkers.some((marker) => text.includes(marker))) return true;
  return (text.includes('$') || text.includes('\\')) && hasMath(normalizeMath(text));
}

/** 'Reasoning effort': null goes back to the model's own default. */
export function setEffort(
  conversation: Conversation,
  effort: ReasoningEffort | null,
  now: Date,
): Conversation {
  const next: Conversation = { ...conversation, effortAt: now.toISOString() };
  if (effort) next.effort = effort;
  else delete next.effort;
  return next;
}

/** Pins a provider and model to the conversation, or with null removes the pin (it then follows the saved configuration). */
/** Pins it to the top of the list, archives it, or (null) puts it back among the others. */
export function placeConversation(
  conversation: Conversation,
  place: ConversationPlace | null,
  now: Date,
): Conversation {
  const next: Conversation = { ...conversation, placedAt: now.toISOString() };
  if (place) next.place = place;
  else delete next.place;
  return next;
}

/** Moves it into a project, or (null) out of any. */
export function moveToProject(conversation: Conversation, projectId: string | null, now: Date): Conversation {
  const next: Conversation = { ...conversation, projectAt: now.toISOString() };
  if (projectId) next.projectId = projectId;
  else delete next.projectId;
  return next;
}

export function setModelPin(conversation: Conversation, pin: ModelPin | null, now: Date): Conversation {
  const next: Conversation = { ...conversation, pinnedAt: now.toISOString() };
  if (pin) next.pin = pin;
  else delete next.pin;
  // One model chosen: the conversation stops comparing (domain/compare.ts).
  delete next.compare;
  return next;
}
