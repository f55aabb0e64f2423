import { isProviderId, type ProviderId } from './config.ts';
import type { Conversation } from './conversation.ts';
import { isIsoTimestamp, isRecord, ownField } from './json-guards.ts';

/** What the sidebar needs about a conversation, without its messages. */
export interface ConversationSummary {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  provider: ProviderId;
  /** All messages, the system message included. */
  messageCount: number;
}

export function summarizeConversation(conversation: Conversation): ConversationSummary {
  const { id, name, createdAt, updatedAt, provider } = conversation;
  return { id, name, createdAt, updatedAt, provider, messageCount: conversation.messages.length };
}

/**
 * The list order of the spec: conversations in the order they were created (new ones are
 * appended), i.e. by createdAt ascending, then by id so equal timestamps sort stably.
 */
export function compareByCreation(
  a: { id: string; createdAt: string },
  b: { id: string; createdAt: string },
): number {
  const difference = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  if (difference !== 0 && !Number.isNaN(difference)) return difference;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
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
  return { id, name, createdAt, updatedAt, provider, messageCount };
}
