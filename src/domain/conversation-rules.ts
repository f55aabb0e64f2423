import type { ProviderId } from './config.ts';
import { defaultSystemPrompt, type Conversation, type Message } from './conversation.ts';

function systemMessage(): Message {
  return { role: 'system', content: defaultSystemPrompt };
}

export interface NewConversationInput {
  /** How many conversations exist already: the new one is named 'Conversation {existingCount + 1}'. */
  existingCount: number;
  provider: ProviderId;
  now: Date;
  id: string;
}

export function createConversation({ existingCount, provider, now, id }: NewConversationInput): Conversation {
  const at = now.toISOString();
  return {
    id,
    name: `Conversation ${existingCount + 1}`,
    messages: [systemMessage()],
    createdAt: at,
    updatedAt: at,
    provider,
  };
}

/**
 * The name trimmed, with updatedAt bumped. A blank name is ignored (spec), and so is an unchanged
 * one: both return the same object, so callers can skip saving by an identity check.
 */
export function renameConversation(conversation: Conversation, name: string, now: Date): Conversation {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === conversation.name) return conversation;
  return { ...conversation, name: trimmed, updatedAt: now.toISOString() };
}

/**
 * Back to the single system message. A conversation's own system message (a custom prompt) is
 * kept; one without any gets the default prompt.
 */
export function clearConversation(conversation: Conversation, now: Date): Conversation {
  const first = conversation.messages[0];
  const system = first?.role === 'system' ? { role: first.role, content: first.content } : systemMessage();
  return { ...conversation, messages: [system], updatedAt: now.toISOString() };
}

/** Replaces the conversation with the same id in place, or appends it. */
export function upsertConversation<T extends { id: string }>(list: readonly T[], conversation: T): T[] {
  const index = list.findIndex((item) => item.id === conversation.id);
  if (index === -1) return [...list, conversation];
  const next = [...list];
  next[index] = conversation;
  return next;
}

/** Removes a conversation; if it was the active one, the first remaining one becomes active, or none. */
export function removeConversation<T extends { id: string }>(
  list: readonly T[],
  id: string,
  activeId: string | null,
): { conversations: T[]; activeId: string | null } {
  const conversations = list.filter((item) => item.id !== id);
  if (activeId !== id) return { conversations, activeId };
  return { conversations, activeId: conversations[0]?.id ?? null };
}

/** The saved active id if it still exists, otherwise the first conversation, otherwise none. */
export function pickActiveId(
  list: readonly { id: string }[],
  savedId: string | null | undefined,
): string | null {
  if (savedId != null && list.some((item) => item.id === savedId)) return savedId;
  return list[0]?.id ?? null;
}

/** The messages shown in the list: system messages are hidden. */
export function visibleMessages(conversation: Conversation): Message[] {
  return conversation.messages.filter((message) => message.role !== 'system');
}

/** What 'Copy' puts on the clipboard: 'User: ...' and 'Assistant: ...' blocks separated by blank lines. */
export function conversationAsText(conversation: Conversation): string {
  return visibleMessages(conversation)
    .map((message) => `${message.role === 'user' ? 'User' : 'Assistant'}: ${message.content}`)
    .join('\n\n');
}

const markdownMarkers = ['```', '#', '**', '- ', '1. '];

/** The spec's rule for rendering an assistant reply as markdown rather than plain text. */
export function isMarkdownLike(text: string): boolean {
  return markdownMarkers.some((marker) => text.includes(marker));
}
