import type { ProviderId } from './config.ts';

export type Role = 'system' | 'user' | 'assistant';

export interface Message {
  role: Role;
  content: string;
  /**
   * Set on an assistant reply that stopped before it finished: 'interrupted' by an error (with
   * `error` saying why) or 'stopped' by the user. Absent on a complete reply.
   */
  status?: 'interrupted' | 'stopped';
  error?: string;
}

export interface Conversation {
  id: string;
  name: string;
  messages: Message[];
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  /** The provider at the last update. */
  provider: ProviderId;
}

export const defaultSystemPrompt = 'You are a helpful assistant.';
