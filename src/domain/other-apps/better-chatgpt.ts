import { isRecord, ownField } from '../json-guards.ts';
import {
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type OtherAppExport,
} from './imported-chat.ts';

/**
 * BetterChatGPT's export: `{ version: 1, chats: [...] }`, or a bare array of chats in its older
 * form. A chat is linear: `title`, `messages` of { role, content } without ids or times, and a
 * `config.model`. A leading system message becomes the conversation's system prompt.
 */

const isChat = (entry: unknown) =>
  isRecord(entry) &&
  typeof ownField(entry, 'title') === 'string' &&
  Array.isArray(ownField(entry, 'messages'));

export function betterChatGptChats(value: unknown): unknown[] | null {
  if (isRecord(value)) {
    const chats = ownField(value, 'chats');
    return typeof ownField(value, 'version') === 'number' && Array.isArray(chats) ? chats : null;
  }
  // The older form: chats without the other apps' marks (ChatGPT's mapping, Claude's chat_messages).
  return Array.isArray(value) && value.length > 0 && value.every(isChat) ? value : null;
}

function readChat(entry: unknown, index: number, now: string): ImportedChat | null {
  if (!isChat(entry) || !isRecord(entry)) return null;
  const list = ownField(entry, 'messages') as unknown[];
  const sourceId = ownField(entry, 'id');
  const id = `bettergpt-${typeof sourceId === 'string' && sourceId ? sourceId : index}`;
  const config = ownField(entry, 'config');
  const model = isRecord(config) ? ownField(config, 'model') : undefined;
  const messages: ImportedMessage[] = [];
  let system: string | undefined;
  for (const [position, item] of list.entries()) {
    if (!isRecord(item)) continue;
    const role = ownField(item, 'role');
    const content = ownField(item, 'content');
    if (typeof content !== 'string' || content.trim() === '') continue;
    if (role === 'system') {
      if (messages.length === 0 && system === undefined) system = content;
      continue;
    }
    if (role !== 'user' && role !== 'assistant') continue;
    const message: ImportedMessage = {
      id: `${id}:${position}`,
      parentId: messages.at(-1)?.id ?? null,
      role,
      text: content,
    };
    if (role === 'assistant' && typeof model === 'string') message.model = model;
    messages.push(message);
  }
  const chat: ImportedChat = {
    id,
    name: ownField(entry, 'title') as string,
    createdAt: now,
    updatedAt: now,
    provider: 'openai',
    messages,
  };
  if (system !== undefined) chat.system = system;
  return chat;
}

/** `now`: the export has no times; its chats are dated when imported, in its order. */
export function readBetterChatGptExport(entries: unknown[], now: Date): OtherAppExport {
  return readEntries('BetterChatGPT export', entries, (entry, index) =>
    readChat(entry, index, new Date(now.getTime() + index).toISOString()),
  );
}
