import { betterChatGptChats, readBetterChatGptExport } from './better-chatgpt.ts';
import { isChatGptExport, readChatGptExport } from './chatgpt.ts';
import { isClaudeAiExport, readClaudeAiExport } from './claude-ai.ts';
import type { OtherAppExport } from './imported-chat.ts';
import { nextChatSessions, readNextChatBackup } from './nextchat.ts';

/** What an export's ZIP holds beside its conversations. */
export interface OtherAppExtras {
  /** The entries of its projects file(s) (Claude.ai's `projects.json`, or `projects/*.json`), as parsed. */
  projects?: readonly unknown[];
}

/** Another app's export, recognised by its shape; null when it is none of them. */
export function readOtherAppExport(
  value: unknown,
  now: Date,
  extras: OtherAppExtras = {},
): OtherAppExport | null {
  if (isChatGptExport(value)) return readChatGptExport(value);
  if (isClaudeAiExport(value)) return readClaudeAiExport(value, extras.projects);
  const sessions = nextChatSessions(value);
  if (sessions) return readNextChatBackup(sessions);
  const chats = betterChatGptChats(value);
  return chats ? readBetterChatGptExport(chats, now) : null;
}
