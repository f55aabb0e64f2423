import { isProviderId, type ProviderId } from './config.ts';
import {
  conversationPlaces,
  type Conversation,
  type ConversationPlace,
  type MessagePart,
} from './conversation.ts';
import { isIsoTimestamp, isRecord, ownField } from './json-guards.ts';
import { isProjectId } from './projects.ts';

/** What the sidebar needs about a conversation, without its messages. */
export interface ConversationSummary {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  /** See Conversation.activeAt; absent in older summaries. */
  activeAt?: string;
  provider: ProviderId;
  /** All messages of every branch, the system message included. */
  messageCount: number;
  /** The list position: see Conversation.order. */
  order: number;
  place?: ConversationPlace;
  /** See Conversation.projectId. */
  projectId?: string;
  /**
   * Changes whenever the searchable text does (see textKey); absent in summaries written by the
   * previous release.
   */
  textKey?: string;
  /** About how many bytes it takes: its texts and its files. Absent in older summaries. */
  bytes?: number;
}

/** The characters a part holds: its text, or a tool call's name and arguments, or a result's text. */
function partLength(part: Exclude<MessagePart, { type: 'attachment' }>): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text.length;
    case 'tool-call':
      return part.name.length + part.arguments.length;
    case 'tool-result': {
      let length = part.name.length;
      for (const item of part.content) if (item.type === 'text') length += item.text.length;
      return length;
    }
    case 'code-run':
      return part.code.length + part.output.length + (part.stderr?.length ?? 0);
  }
}

/**
 * About how many bytes a conversation takes in storage: two per character of text (tool calls,
 * results and code runs included), and its files (a tool's images are not counted: their parts
 * carry no size).
 */
export function conversationBytes(conversation: Conversation): number {
  let bytes = 0;
  for (const message of conversation.messages)
    for (const part of message.parts) {
      if (part.type === 'attachment') bytes += part.size;
      else bytes += partLength(part) * 2;
      if (part.type === 'code-run') for (const file of part.files) bytes += file.size;
    }
  return bytes;
}

/**
 * A fingerprint of the name and the messages' texts, cheap to take on every write: a streamed
 * reply grows, a new message adds one, an edit of the system prompt sets its editedAt. The search
 * index re-reads a conversation whose key changed since it last read it.
 */
export function textKey(conversation: Conversation): string {
  let length = 0;
  let edited = '';
  for (const message of conversation.messages) {
    for (const part of message.parts)
      // What search reads of a message: its text, and its tools' names and results (search-text.ts).
      if (part.type === 'text' || part.type === 'tool-result') length += partLength(part);
      else if (part.type === 'tool-call') length += part.name.length;
    if (message.editedAt && message.editedAt > edited) edited = message.editedAt;
  }
  return `${conversation.messages.length}:${length}:${edited}:${conversation.name}`;
}

/** The key the search index compares: the summary's own, or what an older summary tells. */
export function summaryTextKey(summary: ConversationSummary): string {
  return summary.textKey ?? `${summary.messageCount}:?:${summary.updatedAt}:${summary.name}`;
}

export function summarizeConversation(conversation: Conversation): ConversationSummary {
  const { id, name, createdAt, updatedAt, provider, order, place } = conversation;
  const summary: ConversationSummary = {
    id,
    name,
    createdAt,
    updatedAt,
    provider,
    messageCount: conversation.messages.length,
    order,
    textKey: textKey(conversation),
    bytes: conversationBytes(conversation),
  };
  if (place) summary.place = place;
  if (conversation.projectId) summary.projectId = conversation.projectId;
  if (conversation.activeAt) summary.activeAt = conversation.activeAt;
  return summary;
}

/**
 * The stored order, which exports and backups keep: the order conversations were stored in (new
 * ones are appended, an import or a migration keeps its file's order), then by id so equal
 * positions sort stably. The sidebar orders by activity instead (conversation-order.ts).
 */
export function compareByOrder(a: { id: string; order: number }, b: { id: string; order: number }): number {
  if (a.order !== b.order) return a.order - b.order;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Records written before positions were stored sit where their creation time puts them. */
export function readOrder(value: unknown, createdAt: string): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Date.parse(createdAt);
}

/** A fresh summary copied from a stored record, or null when the record is not one. */
export function readSummary(value: unknown): ConversationSummary | null {
  if (!isRecord(value)) return null;
  const id = ownField(value, 'id');
  const name = ownField(value, 'name');
  const createdAt = ownField(value, 'createdAt');
  const updatedAt = ownField(value, 'updatedAt');
  const provider = ownField(value, 'provider');
  const messageCount = ownField(value, 'messageCount');
  if (typeof id !== 'string' || id === '' || typeof name !== 'string') return null;
  if (!isIsoTimestamp(createdAt) || !isIsoTimestamp(updatedAt) || !isProviderId(provider)) return null;
  if (typeof messageCount !== 'number' || !Number.isInteger(messageCount) || messageCount < 0) return null;
  const order = readOrder(ownField(value, 'order'), createdAt);
  const summary: ConversationSummary = { id, name, createdAt, updatedAt, provider, messageCount, order };
  const activeAt = ownField(value, 'activeAt');
  if (isIsoTimestamp(activeAt)) summary.activeAt = activeAt;
  const place = ownField(value, 'place');
  if ((conversationPlaces as readonly unknown[]).includes(place)) summary.place = place as ConversationPlace;
  const projectId = ownField(value, 'projectId');
  if (isProjectId(projectId)) summary.projectId = projectId;
  const key = ownField(value, 'textKey');
  if (typeof key === 'string') summary.textKey = key;
  const bytes = ownField(value, 'bytes');
  if (typeof bytes === 'number' && Number.isFinite(bytes) && bytes >= 0) summary.bytes = bytes;
  return summary;
}
