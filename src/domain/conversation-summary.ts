import { isProviderId, type ProviderId } from './config.ts';
import { conversationPlaces, type Conversation, type ConversationPlace } from './conversation.ts';
import { isIsoTimestamp, isRecord, ownField } from './json-guards.ts';

/** What the sidebar needs about a conversation, without its messages. */
export interface ConversationSummary {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  provider: ProviderId;
  /** All messages of every branch, the system message included. */
  messageCount: number;
  /** The list position: see Conversation.order. */
  order: number;
  place?: ConversationPlace;
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
  };
  if (place) summary.place = place;
  return summary;
}

/**
 * The list order: the order conversations were stored in (new ones are appended, an import or a
 * migration keeps its file's order), then by id so equal positions sort stably.
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
  const place = ownField(value, 'place');
  if ((conversationPlaces as readonly unknown[]).includes(place)) summary.place = place as ConversationPlace;
  return summary;
}
