import { betterChatGptChats, readBetterChatGptExport } from './better-chatgpt.ts';
import { isChatGptExport, readChatGptExport } from './chatgpt.ts';
import { isClaudeAiExport, readClaudeAiExport } from './claude-ai.ts';
import type { OtherAppExport } from './imported-chat.ts';
import { nextChatSessions, readNextChatBackup } from './nextchat.ts';

/** Another app's export, recognised by its shape; null when it is none of them. */
export function readOtherAppExport(value: unknown, now: Date): OtherAppExport | null {
  if (isChatGptExport(value)) return readChatGptExport(value);
  if (isClaudeAiExport(value)) return readClaudeAiExport(value);
  const sessions = nextChatSessions(value);
  if (sessions) return readNextChatBackup(sessions);
  const chats = betterChatGptChats(value);
  return chats ? readBetterChatGptExport(chats, now) : null;
}
