import { isRecord, ownField, type JsonRecord } from '../json-guards.ts';
import {
  isoFrom,
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type OtherAppExport,
} from './imported-chat.ts';

/**
 * Claude.ai's data export: `conversations.json`, an array of conversations with `chat_messages`
 * (sender 'human' or 'assistant', `content` blocks or a plain `text`). Messages may name their
 * `parent_message_uuid` (branches); without it the list is one line. The export names no active
 * branch, so the newest leaf is shown. A file's extracted text is kept in its message.
 */

export function isClaudeAiExport(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.some((entry) => isRecord(entry) && Array.isArray(ownField(entry, 'chat_messages')))
  );
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function blocks(message: JsonRecord): { text: string; thinking: string } {
  const content = ownField(message, 'content');
  const texts: string[] = [];
  const thinking: string[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isRecord(block)) continue;
      const type = ownField(block, 'type');
      if (type === 'text') texts.push(str(ownField(block, 'text')) ?? '');
      if (type === 'thinking') thinking.push(str(ownField(block, 'thinking')) ?? '');
    }
  }
  let text = texts.join('\n\n').trim();
  if (text === '') text = (str(ownField(message, 'text')) ?? '').trim();
  return { text, thinking: thinking.join('\n\n').trim() };
}

/** Files whose text the export extracted, as the app sends text files: one <file> block each. */
function attachedText(message: JsonRecord): string {
  const attachments = ownField(message, 'attachments');
  if (!Array.isArray(attachments)) return '';
  return attachments
    .flatMap((attachment) => {
      if (!isRecord(attachment)) return [];
      const extracted = str(ownField(attachment, 'extracted_content'));
      if (!extracted) return [];
      const name = str(ownField(attachment, 'file_name')) ?? 'file';
      return [`<file name="${name.replace(/"/g, "'")}">\n${extracted}\n</file>`];
    })
    .join('\n\n');
}

function readConversation(entry: unknown): ImportedChat | null {
  if (!isRecord(entry)) return null;
  const uuid = str(ownField(entry, 'uuid'));
  const list = ownField(entry, 'chat_messages');
  const createdAt = isoFrom(ownField(entry, 'created_at'));
  if (!uuid || !Array.isArray(list) || !createdAt) return null;
  const records = list.filter(isRecord);
  const ids = new Set(records.map((message) => str(ownField(message, 'uuid'))).filter(Boolean));
  const branched = records.some((message) => ids.has(str(ownField(message, 'parent_message_uuid'))));
  const messages: ImportedMessage[] = [];
  const seen = new Set<string>();
  let previous: string | null = null;
  records.forEach((record, index) => {
    const sender = ownField(record, 'sender');
    const role = sender === 'human' ? 'user' : sender === 'assistant' ? 'assistant' : null;
    if (!role) return;
    const { text, thinking } = blocks(record);
    const files = attachedText(record);
    const body = [files, text].filter(Boolean).join('\n\n');
    if (body === '') return;
    let id = str(ownField(record, 'uuid')) ?? `${uuid}:${index}`;
    if (seen.has(id)) id = `${id}:${index}`;
    seen.add(id);
    const parent = str(ownField(record, 'parent_message_uuid'));
    const message: ImportedMessage = {
      id,
      parentId: branched ? (parent !== undefined && ids.has(parent) ? parent : null) : previous,
      role,
      text: body,
    };
    if (thinking) message.reasoning = thinking;
    const at = isoFrom(ownField(record, 'created_at'));
    if (at) message.createdAt = at;
    messages.push(message);
    previous = id;
  });
  return {
    id: `claude-${uuid}`,
    name: str(ownField(entry, 'name')) ?? '',
    createdAt,
    updatedAt: isoFrom(ownField(entry, 'updated_at')) ?? createdAt,
    provider: 'claude',
    messages,
  };
}

export function readClaudeAiExport(entries: unknown[]): OtherAppExport {
  return readEntries('Claude.ai export', entries, readConversation);
}
