import { messageText, reasoningParts, type Conversation, type Message } from './conversation.ts';
import { activityOf } from './conversation-order.ts';

/**
 * Pure operations on a conversation's message tree. Each returns a new conversation and leaves
 * its input untouched; messages that did not change keep their identity, so memoized rows stay.
 */

interface TreeIndex {
  byId: Map<string, Message>;
  /** Children of each message id (null: the roots), oldest first. */
  children: Map<string | null, Message[]>;
}

function byAge(a: Message, b: Message): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// Built once per messages array: a streamed frame, a switch or a render reuses it.
const indexes = new WeakMap<readonly Message[], TreeIndex>();

function indexOf(messages: readonly Message[]): TreeIndex {
  let index = indexes.get(messages);
  if (index) return index;
  const byId = new Map<string, Message>();
  const children = new Map<string | null, Message[]>();
  for (const message of messages) {
    byId.set(message.id, message);
    const siblings = children.get(message.parentId);
    if (siblings) siblings.push(message);
    else children.set(message.parentId, [message]);
  }
  for (const siblings of children.values()) siblings.sort(byAge);
  index = { byId, children };
  indexes.set(messages, index);
  return index;
}

export function findMessage(conversation: Conversation, id: string): Message | undefined {
  return indexOf(conversation.messages).byId.get(id);
}

export function rootMessage(conversation: Conversation): Message | undefined {
  return indexOf(conversation.messages).children.get(null)?.[0];
}

/** The path from the root to `leafId` (default: the active leaf), root first. */
export function pathTo(conversation: Conversation, leafId = conversation.activeLeafId): Message[] {
  const { byId } = indexOf(conversation.messages);
  const path: Message[] = [];
  const seen = new Set<string>();
  for (
    let at = byId.get(leafId);
    at && !seen.has(at.id);
    at = at.parentId ? byId.get(at.parentId) : undefined
  ) {
    seen.add(at.id);
    path.push(at);
  }
  return path.reverse();
}

const activePaths = new WeakMap<Conversation, Message[]>();

/** "The messages" of a conversation: the path from the root to the active leaf (docs/behaviour.md#message-tree). */
export function activePath(conversation: Conversation): Message[] {
  let path = activePaths.get(conversation);
  if (!path) {
    path = pathTo(conversation);
    activePaths.set(conversation, path);
  }
  return path;
}

export function childrenOf(conversation: Conversation, id: string | null): readonly Message[] {
  return indexOf(conversation.messages).children.get(id) ?? [];
}

/** The versions of a message (itself and its siblings, oldest first) and its place among them. */
export function siblingsOf(
  conversation: Conversation,
  id: string,
): { siblings: readonly Message[]; index: number } {
  const message = findMessage(conversation, id);
  if (!message) return { siblings: [], index: -1 };
  const siblings = childrenOf(conversation, message.parentId);
  return { siblings, index: siblings.indexOf(message) };
}

/** The most recently created leaf at or below `id`: where switching to a version lands. */
export function newestLeafUnder(conversation: Conversation, id: string): string {
  const { children } = indexOf(conversation.messages);
  const start = findMessage(conversation, id);
  if (!start) return id;
  let newest: Message | undefined;
  const stack = [start];
  while (stack.length > 0) {
    const message = stack.pop() as Message;
    const below = children.get(message.id);
    // One by one: spreading a huge sibling list would overflow the call stack.
    if (below) for (const child of below) stack.push(child);
    else if (!newest || byAge(message, newest) > 0) newest = message;
  }
  return (newest ?? start).id;
}

/** Adds `message` under its parent and makes it the active leaf. */
export function appendMessage(conversation: Conversation, message: Message): Conversation {
  return { ...conversation, messages: [...conversation.messages, message], activeLeafId: message.id };
}

/** Replaces the message with the same id (a reply growing as it streams), keeping the rest. */
export function replaceMessage(conversation: Conversation, message: Message): Conversation {
  const index = conversation.messages.findIndex((item) => item.id === message.id);
  if (index === -1) return conversation;
  return { ...conversation, messages: conversation.messages.with(index, message) };
}

/** Shows another version of a message: the active leaf becomes the newest leaf under it. */
export function switchToMessage(conversation: Conversation, id: string): Conversation {
  if (!findMessage(conversation, id)) return conversation;
  const activeLeafId = newestLeafUnder(conversation, id);
  return activeLeafId === conversation.activeLeafId ? conversation : { ...conversation, activeLeafId };
}

/** The message and every message below it. */
export function subtreeOf(conversation: Conversation, id: string): Message[] {
  const { children } = indexOf(conversation.messages);
  const root = findMessage(conversation, id);
  if (!root) return [];
  const subtree: Message[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const message = stack.pop() as Message;
    subtree.push(message);
    const below = children.get(message.id);
    if (below) for (const child of below) stack.push(child);
  }
  return subtree;
}

/**
 * Deletes a message and everything below it, remembering its id so a merge with an older copy
 * does not bring it back. If the active path ran through it, the newest remaining version of it
 * becomes active, or else its parent. The root cannot be deleted.
 */
export function deleteSubtree(conversation: Conversation, id: string): Conversation {
  const target = findMessage(conversation, id);
  if (!target || target.parentId === null) return conversation;
  const removed = new Set(subtreeOf(conversation, id).map((message) => message.id));
  const messages = conversation.messages.filter((message) => !removed.has(message.id));
  const next: Conversation = {
    ...conversation,
    messages,
    deletedIds: [...(conversation.deletedIds ?? []), id],
  };
  if (!removed.has(conversation.activeLeafId)) return next;
  const versions = childrenOf(next, target.parentId);
  const newest = versions.at(-1);
  return { ...next, activeLeafId: newest ? newestLeafUnder(next, newest.id) : target.parentId };
}

/**
 * Puts a deleted subtree back (Undo) under fresh ids: its old ids stay deleted, so no copy that
 * saw the deletion can disagree. Shows the branch that was shown before.
 */
export function restoreSubtree(
  conversation: Conversation,
  removed: readonly Message[],
  /** The leaf to show again; null keeps the one shown now (a reply is streaming into it). */
  leafId: string | null,
  newId: () => string,
): Conversation {
  const root = removed[0];
  if (!root?.parentId || !findMessage(conversation, root.parentId)) return conversation;
  const ids = new Map(removed.map((message) => [message.id, newId()]));
  const back = removed.map((message) => ({
    ...message,
    id: ids.get(message.id) as string,
    parentId: message.parentId === null ? null : (ids.get(message.parentId) ?? message.parentId),
  }));
  const next = { ...conversation, messages: [...conversation.messages, ...back] };
  if (leafId === null) return next;
  return { ...next, activeLeafId: ids.get(leafId) ?? newestLeafUnder(next, ids.get(root.id) as string) };
}

/** A new conversation holding the path from the root to `messageId`, ending there. */
export function forkPath(
  conversation: Conversation,
  messageId: string,
  fork: { id: string; name: string; now: Date; order: number },
): Conversation | undefined {
  if (!findMessage(conversation, messageId)) return undefined;
  const at = fork.now.toISOString();
  return {
    id: fork.id,
    name: fork.name,
    messages: pathTo(conversation, messageId),
    activeLeafId: messageId,
    createdAt: at,
    updatedAt: at,
    provider: conversation.provider,
    order: fork.order,
  };
}

function isFinal(message: Message): boolean {
  return message.status !== 'interrupted';
}

function reasoningLength(message: Message): number {
  let length = 0;
  for (const part of reasoningParts(message)) length += part.text.length + (part.signature?.length ?? 0);
  return length;
}

/**
 * How far a reply's tools went: each call and result counts, and the characters of a call's
 * arguments (they stream in) and of a result. A reply's parts only ever grow, so of two copies
 * the one with more is the later.
 */
function toolsLength(message: Message): number {
  let length = 0;
  for (const part of message.parts) {
    if (part.type === 'tool-call') length += 1 + part.arguments.length;
    if (part.type === 'tool-result') {
      length += 1;
      for (const item of part.content) length += item.type === 'text' ? item.text.length : 1;
    }
  }
  return length;
}

/**
 * Of two copies of one message: the later in-place edit, else the longer text (a reply grows as
 * it streams), else the longer reasoning (it grows before the text), else the one whose tools went
 * further (a call streams, then its result is added, before the reply goes on), else the finished
 * one (a reply is saved as 'interrupted' while it streams).
 */
function newerCopy(a: Message, b: Message): Message {
  const editedA = a.editedAt ?? '';
  const editedB = b.editedAt ?? '';
  if (editedA !== editedB) return editedA > editedB ? a : b;
  const textA = messageText(a);
  const textB = messageText(b);
  if (textA.length !== textB.length) return textA.length > textB.length ? a : b;
  // While a reply thinks its text stays empty: the copy that thought further is the newer.
  const thoughtA = reasoningLength(a);
  const thoughtB = reasoningLength(b);
  if (thoughtA !== thoughtB) return thoughtA > thoughtB ? a : b;
  const toolsA = toolsLength(a);
  const toolsB = toolsLength(b);
  if (toolsA !== toolsB) return toolsA > toolsB ? a : b;
  if (isFinal(a) !== isFinal(b)) return isFinal(a) ? a : b;
  // Any fixed choice, so the merge does not depend on which copy came first.
  return textA >= textB ? a : b;
}

/** Messages whose ancestors all reach the root; the rest (parent deleted or missing) are dropped. */
function connected(messages: Message[]): Message[] {
  const { children } = indexOf(messages);
  const kept: Message[] = [];
  const stack = [...(children.get(null) ?? []).slice(0, 1)];
  while (stack.length > 0) {
    const message = stack.pop() as Message;
    kept.push(message);
    const below = children.get(message.id);
    if (below) for (const child of below) stack.push(child);
  }
  const keep = new Set(kept);
  return messages.filter((message) => keep.has(message));
}

function isAncestor(conversation: Conversation, ancestorId: string, id: string): boolean {
  return pathTo(conversation, id).some((message) => message.id === ancestorId);
}

/**
 * Two copies of one conversation as one: every message either holds, less the deleted ones; for
 * the same id the newer copy (see newerCopy); the later rename's name. The active leaf is
 * `primary`'s (the tab's own view), unless `other` went further down the same path; if it no
 * longer exists, the nearest ancestor that does, and the newest leaf under it.
 */
export function mergeConversations(primary: Conversation, other: Conversation): Conversation {
  const deleted = new Set([...(primary.deletedIds ?? []), ...(other.deletedIds ?? [])]);
  const byId = new Map<string, Message>();
  for (const message of [...primary.messages, ...other.messages]) {
    if (deleted.has(message.id)) continue;
    const seen = byId.get(message.id);
    byId.set(message.id, seen ? newerCopy(seen, message) : message);
  }
  // A stale copy's messages under a deleted one are dropped here too: only what is connected counts.
  const candidate = connected([...byId.values()].sort(byAge));
  const own = new Set(primary.messages);
  const unchanged =
    candidate.length === primary.messages.length && candidate.every((message) => own.has(message));
  const messages = unchanged ? primary.messages : candidate;
  const renamedLater = (other.renamedAt ?? '') > (primary.renamedAt ?? '');
  const named = renamedLater ? other : primary;
  const newer = other.updatedAt > primary.updatedAt ? other : primary;
  const merged: Conversation = {
    ...primary,
    name: named.name,
    messages,
    createdAt: primary.createdAt < other.createdAt ? primary.createdAt : other.createdAt,
    updatedAt: newer.updatedAt,
    provider: newer.provider,
  };
  if (named.renamedAt) merged.renamedAt = named.renamedAt;
  // Written in last by either copy; a copy without activeAt (an older one) tells its updatedAt.
  if (primary.activeAt || other.activeAt) {
    const activeA = activityOf(primary);
    const activeB = activityOf(other);
    merged.activeAt = activeB > activeA ? activeB : activeA;
  }
  const pinned = (other.pinnedAt ?? '') > (primary.pinnedAt ?? '') ? other : primary;
  delete merged.pin;
  delete merged.pinnedAt;
  delete merged.compare;
  if (pinned.pin) merged.pin = pinned.pin;
  if (pinned.compare) merged.compare = pinned.compare;
  if (pinned.pinnedAt) merged.pinnedAt = pinned.pinnedAt;
  const chose = (other.effortAt ?? '') > (primary.effortAt ?? '') ? other : primary;
  delete merged.effort;
  delete merged.effortAt;
  if (chose.effort) merged.effort = chose.effort;
  if (chose.effortAt) merged.effortAt = chose.effortAt;
  const switched = (other.toolSwitchesAt ?? '') > (primary.toolSwitchesAt ?? '') ? other : primary;
  delete merged.toolSwitches;
  delete merged.toolSwitchesAt;
  if (switched.toolSwitches) merged.toolSwitches = switched.toolSwitches;
  if (switched.toolSwitchesAt) merged.toolSwitchesAt = switched.toolSwitchesAt;
  const placed = (other.placedAt ?? '') > (primary.placedAt ?? '') ? other : primary;
  delete merged.place;
  delete merged.placedAt;
  if (placed.place) merged.place = placed.place;
  if (placed.placedAt) merged.placedAt = placed.placedAt;
  const moved = (other.projectAt ?? '') > (primary.projectAt ?? '') ? other : primary;
  delete merged.projectId;
  delete merged.projectAt;
  if (moved.projectId) merged.projectId = moved.projectId;
  if (moved.projectAt) merged.projectAt = moved.projectAt;
  if (deleted.size > 0) merged.deletedIds = [...deleted];
  const edits = mergedEdits(primary.artifactEdits, other.artifactEdits);
  delete merged.artifactEdits;
  if (edits) merged.artifactEdits = edits;
  merged.activeLeafId = mergedLeaf(merged, primary, other);
  return sameConversation(merged, primary) ? primary : merged;
}

/** Both copies' saved artifact versions, each id once (the primary's array kept when it has them all). */
function mergedEdits(
  primary: Conversation['artifactEdits'],
  other: Conversation['artifactEdits'],
): Conversation['artifactEdits'] {
  const known = new Set(primary?.map((edit) => edit.id));
  const added = other?.filter((edit) => !known.has(edit.id)) ?? [];
  return added.length === 0 ? primary : [...(primary ?? []), ...added];
}

/** Nothing to take in: callers can skip a commit (and a render) by an identity check. */
function sameConversation(a: Conversation, b: Conversation): boolean {
  return (
    a.messages === b.messages &&
    a.activeLeafId === b.activeLeafId &&
    a.name === b.name &&
    a.renamedAt === b.renamedAt &&
    a.activeAt === b.activeAt &&
    a.pin === b.pin &&
    a.compare === b.compare &&
    a.effort === b.effort &&
    a.effortAt === b.effortAt &&
    a.toolSwitches === b.toolSwitches &&
    a.artifactEdits === b.artifactEdits &&
    a.pinnedAt === b.pinnedAt &&
    a.place === b.place &&
    a.placedAt === b.placedAt &&
    a.projectId === b.projectId &&
    a.projectAt === b.projectAt &&
    a.updatedAt === b.updatedAt &&
    a.createdAt === b.createdAt &&
    a.provider === b.provider &&
    (a.deletedIds?.length ?? 0) === (b.deletedIds?.length ?? 0)
  );
}

function mergedLeaf(merged: Conversation, primary: Conversation, other: Conversation): string {
  const own = primary.activeLeafId;
  if (findMessage(merged, own)) {
    const theirs = other.activeLeafId;
    return theirs !== own && findMessage(merged, theirs) && isAncestor(merged, own, theirs) ? theirs : own;
  }
  for (const message of pathTo(primary).reverse()) {
    if (findMessage(merged, message.id)) return newestLeafUnder(merged, message.id);
  }
  const root = rootMessage(merged);
  return root ? newestLeafUnder(merged, root.id) : own;
}
