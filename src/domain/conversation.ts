import type { ProviderId } from './config.ts';

export type Role = 'system' | 'user' | 'assistant';

export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * What a message is made of. Reasoning, images and files join this union as new members; a part
 * that a provider needs back unchanged (a reasoning signature) carries it on the part itself.
 */
export type MessagePart = TextPart;

export interface Message {
  /** Unique within its conversation, stable for the message's life (React key, merge key). */
  id: string;
  /** Null only for the root: the conversation's system message. */
  parentId: string | null;
  role: Role;
  parts: MessagePart[];
  /** ISO timestamp; siblings are ordered by it. */
  createdAt: string;
  /** Set when the content was replaced in place (the system prompt): the newer edit wins a merge. */
  editedAt?: string;
  /** Assistant replies: who wrote them. */
  provider?: ProviderId;
  model?: string;
  /**
   * Set on an assistant reply that stopped before it finished: 'interrupted' by an error (with
   * `error` saying why) or 'stopped' by the user. Absent on a complete reply.
   */
  status?: 'interrupted' | 'stopped';
  error?: string;
  /** How the reply was obtained, when the user should know (a field the model refused was left out). */
  notices?: string[];
}

export interface ModelPin {
  provider: ProviderId;
  model: string;
  /** For an OpenAI-compatible endpoint: which one. */
  endpointId?: string;
}

/**
 * A tree of messages with one active leaf. What the list shows, what is sent, copied and
 * exported as "the messages" is the path from the root to that leaf (see message-tree.ts).
 */
export interface Conversation {
  id: string;
  name: string;
  /** Every message of every branch, the root system message first. */
  messages: Message[];
  activeLeafId: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  /** When the name was last set by a rename: of two copies, the later rename wins a merge. */
  renamedAt?: string;
  /** The provider at the last update. */
  provider: ProviderId;
  /**
   * The provider and model this conversation asks, chosen in its model picker. Without one it
   * follows the saved configuration (the spec's behaviour).
   */
  pin?: ModelPin;
  /** When the pin was last set or removed: of two copies, the later change wins a merge. */
  pinnedAt?: string;
  /**
   * Roots of deleted subtrees: a copy still holding them (another tab) merges without bringing
   * them back. Their descendants go with them, since a message without its parent is dropped.
   */
  deletedIds?: string[];
  /** Where the conversation sits in the list: the order it was stored in. */
  order: number;
}

export const defaultSystemPrompt = 'You are a helpful assistant.';

/** The text of a message: its text parts, joined. */
export function messageText(message: Message): string {
  let text = '';
  for (const part of message.parts) if (part.type === 'text') text += part.text;
  return text;
}

export function textParts(text: string): MessagePart[] {
  return [{ type: 'text', text }];
}
