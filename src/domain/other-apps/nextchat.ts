import type { ProviderId } from '../config.ts';
import { isRecord, ownField, type JsonRecord } from '../json-guards.ts';
import {
  isoFrom,
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type OtherAppExport,
} from './imported-chat.ts';
import { addCall, addResult, addText, newReply, usedTools, type ImportedPart } from './imported-reply.ts';

/**
 * NextChat's backup (Settings → Sync → Export): one key per store of the app. The chats are
 * `chat-next-web-store`.sessions: `topic`, `lastUpdate` (ms), linear `messages` whose `content`
 * is a string or a list of parts, and a `mask` whose `context` messages open the chat. Message
 * `date`s are written in the browser's locale and read leniently. The backup also holds the
 * user's API keys (`access-control`): they are never read. A reply that used plugins lists them in
 * `tools` (`id`, `function` { name, arguments }, and once run `content`, or `isError` with
 * `errorMsg`); NextChat shows them above the reply's text, which it writes as one (see toolParts).
 * Its MCP calls are not structured: the model's text holds a `json:mcp` block and the result comes
 * back as a user's message (`isMcpResponse`); both are read as the text they are.
 */

export function nextChatSessions(value: unknown): unknown[] | null {
  if (!isRecord(value)) return null;
  const store = ownField(value, 'chat-next-web-store');
  const sessions = isRecord(store) ? ownField(store, 'sessions') : undefined;
  return Array.isArray(sessions) ? sessions : null;
}

const providers: Readonly<Record<string, ProviderId>> = {
  OpenAI: 'openai',
  Azure: 'azure',
  Anthropic: 'claude',
  Google: 'gemini',
};

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (!isRecord(part)) return '';
      if (ownField(part, 'type') === 'text') return String(ownField(part, 'text') ?? '');
      return ownField(part, 'type') === 'image_url' ? '[image]' : '';
    })
    .filter(Boolean)
    .join('\n\n');
}

/**
 * A reply's plugin calls, each with its result when it ran (a call still pending has none), then
 * its text: NextChat keeps the text of all the reply's rounds as one, so where the calls came in
 * it is not known, and they go first, as NextChat shows them. Null when it called none.
 */
function toolParts(tools: unknown, text: string): ImportedPart[] | null {
  if (!Array.isArray(tools)) return null;
  const reply = newReply();
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const call = ownField(tool, 'function');
    const name = isRecord(call) ? ownField(call, 'name') : undefined;
    const args = isRecord(call) ? ownField(call, 'arguments') : undefined;
    const callId = addCall(reply, ownField(tool, 'id'), name, typeof args === 'string' ? args : '{}');
    if (callId === null) continue;
    const isError = ownField(tool, 'isError');
    const output = ownField(tool, isError === true ? 'errorMsg' : 'content');
    if (isError === true || isError === false)
      addResult(reply, typeof output === 'string' ? [{ type: 'text', text: output }] : [], isError, {
        callId,
      });
  }
  if (!usedTools(reply)) return null;
  addText(reply, text);
  return reply.parts;
}

function readSession(entry: unknown, index: number): ImportedChat | null {
  if (!isRecord(entry)) return null;
  const messagesField = ownField(entry, 'messages');
  const updatedAt = isoFrom(ownField(entry, 'lastUpdate'));
  if (!Array.isArray(messagesField) || !updatedAt) return null;
  const mask = ownField(entry, 'mask');
  const modelConfig = isRecord(mask) ? ownField(mask, 'modelConfig') : undefined;
  const providerName = isRecord(modelConfig) ? ownField(modelConfig, 'providerName') : undefined;
  const context = isRecord(mask) ? ownField(mask, 'context') : undefined;
  const sourceId = ownField(entry, 'id');
  const id = `nextchat-${typeof sourceId === 'string' && sourceId ? sourceId : index}`;
  const all = [...(Array.isArray(context) ? context : []), ...messagesField].filter(isRecord);
  const messages: ImportedMessage[] = [];
  const seen = new Set<string>();
  let system: string | undefined;
  all.forEach((item: JsonRecord, position) => {
    const role = ownField(item, 'role');
    const text = contentText(ownField(item, 'content')).trim();
    const parts = role === 'assistant' ? toolParts(ownField(item, 'tools'), text) : null;
    if (text === '' && !parts) return;
    if (role === 'system') {
      if (messages.length === 0) system = system === undefined ? text : `${system}\n\n${text}`;
      return;
    }
    if (role !== 'user' && role !== 'assistant') return;
    const own = ownField(item, 'id');
    let messageId = typeof own === 'string' && own ? own : `${id}:${position}`;
    if (seen.has(messageId)) messageId = `${messageId}:${position}`;
    seen.add(messageId);
    const message: ImportedMessage = { id: messageId, parentId: messages.at(-1)?.id ?? null, role, text };
    if (parts) message.parts = parts;
    const at = isoFrom(ownField(item, 'date'));
    if (at) message.createdAt = at;
    const model = ownField(item, 'model');
    if (role === 'assistant' && typeof model === 'string') message.model = model;
    messages.push(message);
  });
  const times = messages.flatMap((message) => (message.createdAt ? [message.createdAt] : []));
  const topic = ownField(entry, 'topic');
  const chat: ImportedChat = {
    id,
    name: typeof topic === 'string' ? topic : '',
    createdAt: times.reduce((first, at) => (at < first ? at : first), updatedAt),
    updatedAt,
    provider: (typeof providerName === 'string' && providers[providerName]) || 'openai',
    messages,
  };
  if (system !== undefined) chat.system = system;
  return chat;
}

export function readNextChatBackup(sessions: unknown[]): OtherAppExport {
  return readEntries('NextChat backup', sessions, readSession);
}
