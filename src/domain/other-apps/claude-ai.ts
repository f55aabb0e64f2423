import { isRecord, ownField, type JsonRecord } from '../json-guards.ts';
import {
  isoFrom,
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type ImportedProject,
  type ImportedProjectFile,
  type OtherAppExport,
} from './imported-chat.ts';
import { importedProjectFile, importedProjectId, withProjects } from './imported-projects.ts';
import { projectLimits } from '../projects.ts';
import {
  addCall,
  addReasoning,
  addResult,
  addText,
  newReply,
  usedTools,
  type ImportedPart,
  type ImportedResultPiece,
} from './imported-reply.ts';

/**
 * Claude.ai's data export: `conversations.json`, an array of conversations with `chat_messages`
 * (sender 'human' or 'assistant', `content` blocks or a plain `text`). Messages may name their
 * `parent_message_uuid` (branches); without it the list is one line. The export names no active
 * branch, so the newest leaf is shown. A file's extracted text is kept in its message. A reply
 * that used tools (web search and fetch, the analysis tool, artifacts, connectors) holds them as
 * blocks among its text and thinking, in order: `tool_use` (`id`, `name`, `input`) and
 * `tool_result` (`tool_use_id`, `content`, `is_error`); older exports give neither id.
 *
 * Projects come in the ZIP beside it: `projects.json` (a list), or in newer exports
 * `projects/*.json` (one each): `uuid`, `name`, `prompt_template` (its instructions), `docs[]`
 * (`uuid`, `filename`, `content`: its knowledge, as text), `is_starter_project`, ISO `created_at`.
 * The export's conversations do not say which project they were in; a conversation that names
 * one by `project_uuid` (as Claude.ai's own API writes it) is put into it.
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

/**
 * What a tool returned: its text blocks, and the pages a search or fetch found (`knowledge`:
 * title, address and text). An image's bytes are not in the export: it is named.
 */
function resultPieces(content: unknown): ImportedResultPiece[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block): ImportedResultPiece[] => {
    if (!isRecord(block)) return [];
    const type = ownField(block, 'type');
    const text = str(ownField(block, 'text')) ?? '';
    if (type === 'knowledge') {
      const source = [str(ownField(block, 'title')), str(ownField(block, 'url'))].filter(Boolean).join('\n');
      return [{ type: 'text', text: [source, text.trim()].filter(Boolean).join('\n\n') }];
    }
    if (type === 'image') return [{ type: 'text', text: '[image]' }];
    return text ? [{ type: 'text', text }] : [];
  });
}

/**
 * A reply's blocks in order, when it used a tool: its thinking, texts, calls and their results
 * (each result after the call it answers, by `tool_use_id`, or in order when there is none). A
 * block Claude.ai hides in the chat (`hidden_in_chat`) stays hidden, and so does a result whose
 * call is not there. Null for a reply without tools, which reads as before: thinking, then text.
 */
function toolParts(message: JsonRecord, files: string): ImportedPart[] | null {
  const content = ownField(message, 'content');
  if (!Array.isArray(content)) return null;
  const reply = newReply();
  addText(reply, files);
  let texts = 0;
  for (const block of content) {
    if (!isRecord(block) || ownField(block, 'hidden_in_chat') === true) continue;
    const type = ownField(block, 'type');
    if (type === 'thinking') addReasoning(reply, (str(ownField(block, 'thinking')) ?? '').trim());
    if (type === 'text') {
      const text = (str(ownField(block, 'text')) ?? '').trim();
      addText(reply, text);
      if (text !== '') texts++;
    }
    if (type === 'tool_use') {
      const input = ownField(block, 'input');
      addCall(reply, ownField(block, 'id'), ownField(block, 'name'), JSON.stringify(input ?? {}));
    }
    if (type === 'tool_result') {
      const callId = str(ownField(block, 'tool_use_id'));
      const name = str(ownField(block, 'name'));
      addResult(reply, resultPieces(ownField(block, 'content')), ownField(block, 'is_error') === true, {
        ...(callId !== undefined && { callId }),
        ...(name && { name }),
      });
    }
  }
  if (!usedTools(reply)) return null;
  // An export whose text is only in `text` (no text blocks): the answer, after the tools.
  if (texts === 0) addText(reply, (str(ownField(message, 'text')) ?? '').trim());
  return reply.parts;
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
    const parts = role === 'assistant' ? toolParts(record, files) : null;
    const body = parts
      ? parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n')
      : [files, text].filter(Boolean).join('\n\n');
    if (body === '' && !parts) return;
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
    if (parts) message.parts = parts;
    else if (thinking) message.reasoning = thinking;
    const at = isoFrom(ownField(record, 'created_at'));
    if (at) message.createdAt = at;
    messages.push(message);
    previous = id;
  });
  const chat: ImportedChat = {
    id: `claude-${uuid}`,
    name: str(ownField(entry, 'name')) ?? '',
    createdAt,
    updatedAt: isoFrom(ownField(entry, 'updated_at')) ?? createdAt,
    provider: 'claude',
    messages,
  };
  const project = importedProjectId(projectPrefix, ownField(entry, 'project_uuid'));
  if (project) chat.project = project;
  return chat;
}

const projectPrefix = 'claude-project-';

/** A project's knowledge: its docs' texts as files, as many as a project holds. */
function projectDocs(projectId: string, docs: unknown): ImportedProjectFile[] {
  if (!Array.isArray(docs)) return [];
  const files: ImportedProjectFile[] = [];
  for (const [index, doc] of docs.slice(0, projectLimits.files * 5).entries()) {
    if (files.length >= projectLimits.files) break;
    if (!isRecord(doc)) continue;
    const content = str(ownField(doc, 'content'));
    const docId = str(ownField(doc, 'uuid'));
    const id = `${projectId}:${docId !== undefined && docId.length <= 100 ? docId : index}`;
    const file =
      content === undefined ? null : importedProjectFile(id, str(ownField(doc, 'filename')) ?? '', content);
    if (file && !files.some((known) => known.id === file.id)) files.push(file);
  }
  return files;
}

/** One entry of the projects file, or null when it names no project; `starter`: Claude.ai's example. */
function readProject(entry: unknown): { project: ImportedProject; starter: boolean } | null {
  if (!isRecord(entry)) return null;
  const id = importedProjectId(projectPrefix, ownField(entry, 'uuid'));
  if (!id) return null;
  const uuid = id.slice(projectPrefix.length);
  const project: ImportedProject = {
    id,
    name: str(ownField(entry, 'name'))?.trim() || `Claude.ai project ${uuid.slice(0, 8)}`,
  };
  const instructions = str(ownField(entry, 'prompt_template'))?.trim();
  if (instructions) project.instructions = instructions;
  const files = projectDocs(id, ownField(entry, 'docs'));
  if (files.length > 0) project.files = files;
  const createdAt = isoFrom(ownField(entry, 'created_at'));
  if (createdAt) project.createdAt = createdAt;
  return { project, starter: ownField(entry, 'is_starter_project') === true };
}

/**
 * The conversations, and the projects: every one the projects file lists (Claude.ai's example
 * project only when a conversation is in it), then any a conversation names that it does not.
 * `projects`: the entries of the export's projects file(s), if it had any.
 */
export function readClaudeAiExport(entries: unknown[], projects: readonly unknown[] = []): OtherAppExport {
  const result = readEntries('Claude.ai export', entries, readConversation);
  const used = new Set(result.chats.flatMap((chat) => chat.project ?? []));
  const listed = new Map<string, ImportedProject>();
  // Twice the limit read at most, as readProjects does: a hostile file's millions cost nothing.
  for (const entry of projects.slice(0, projectLimits.projects * 2)) {
    const read = readProject(entry);
    if (read && !listed.has(read.project.id) && (!read.starter || used.has(read.project.id)))
      listed.set(read.project.id, read.project);
  }
  for (const id of used)
    if (!listed.has(id))
      listed.set(id, {
        id,
        name: `Claude.ai project ${id.slice(projectPrefix.length, projectPrefix.length + 8)}`,
      });
  return withProjects(result, [...listed.values()]);
}
