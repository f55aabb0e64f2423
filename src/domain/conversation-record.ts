import type { AttachmentPart } from './attachments.ts';
import type { CodeRunPart, ProducedFile } from './code-runs.ts';
import {
  attachmentParts,
  messageText,
  reasoningParts,
  type ArtifactEdit,
  type Conversation,
  type Message,
  type MessagePart,
  type ReasoningPart,
} from './conversation.ts';
import type { ProviderData, ToolResultContent } from './tools.ts';
import { timingFields, usageFields, type ReplyStats } from './reply-stats.ts';
import type { WebResearch } from './web-search.ts';
import { conversationFormatVersion } from './conversation-validation.ts';
import { activePath, findMessage, newestLeafUnder, pathTo, rootMessage } from './message-tree.ts';

/** A message as written: role and content first, as a 2.0 reader expects them. */
export interface MessageRecord {
  id: string;
  role: Message['role'];
  content: string;
  /** Only on messages off the active path: the path's own links follow from its order. */
  parentId?: string;
  createdAt: string;
  editedAt?: string;
  provider?: Message['provider'];
  model?: string;
  status?: Message['status'];
  error?: string;
  notices?: string[];
  /** Assistant replies: the thinking before `content`, in order (a 2.0 reader ignores it). */
  reasoning?: { text: string; signature?: string; redacted?: true }[];
  stats?: Message['stats'];
  /** User messages: the files sent with `content`, in order; their bytes are kept apart. */
  attachments?: AttachmentRecord[];
  /** Assistant replies that searched the web: searches, sources, and citations at offsets in `content`. */
  web?: WebResearch;
  /** A question asked of several models at once: its replies' ids, and whether one was chosen. */
  compared?: Message['compared'];
  /** A fused reply: the ids of the replies it merged. */
  fusedFrom?: string[];
  /**
   * Assistant replies whose parts `reasoning` and `content` cannot hold in order (one that called
   * tools): every part, in order, and then no `reasoning`. `content` still holds the answer text
   * (messageText), which is all a 2.0 reader takes; this release reads `parts` instead.
   */
  parts?: PartRecord[];
}

/** A reply's part as written in `parts` (see MessageRecord.parts). */
export type PartRecord =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature?: string; redacted?: true }
  | {
      type: 'tool-call';
      callId: string;
      name: string;
      server?: string;
      arguments: string;
      providerData?: ProviderData;
    }
  | {
      type: 'tool-result';
      callId: string;
      name: string;
      content: ToolResultContentRecord[];
      isError?: true;
    }
  /** A picture the reply drew (an export adds its bytes as `data`). */
  | ({ type: 'attachment' } & AttachmentRecord)
  /** A code run; each file's bytes as `data` in an export. */
  | (Omit<CodeRunPart, 'running' | 'files'> & { files: (ProducedFile & { data?: string })[] });

/**
 * A piece of a tool's result as written: an image names its stored file, as an attachment does,
 * and an export adds the bytes as base64 `data`.
 */
export type ToolResultContentRecord =
  | Extract<ToolResultContent, { type: 'text' }>
  | (Extract<ToolResultContent, { type: 'image' }> & { data?: string });

/** A file as written: what it is, not its bytes (an export adds them as base64 `data`). */
export type AttachmentRecord = Omit<AttachmentPart, 'type'> & { data?: string };

/**
 * A conversation as written to storage and to an export file (see conversation-validation.ts for
 * the reading side): `messages` is the active path, `otherMessages` every other branch.
 */
export interface ConversationRecord {
  formatVersion: number;
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  provider: Conversation['provider'];
  order: number;
  messages: MessageRecord[];
  otherMessages?: MessageRecord[];
  activeAt?: string;
  renamedAt?: string;
  deletedIds?: string[];
  pin?: Conversation['pin'];
  pinnedAt?: string;
  compare?: Conversation['compare'];
  effort?: Conversation['effort'];
  effortAt?: string;
  toolSwitches?: Conversation['toolSwitches'];
  toolSwitchesAt?: string;
  place?: Conversation['place'];
  placedAt?: string;
  projectId?: string;
  projectAt?: string;
  artifactEdits?: ArtifactEdit[];
}

/** The figures in one fixed order, however they were gathered: a record reads back as written. */
function statsRecord({ usage, finishReason, ...timings }: ReplyStats): ReplyStats {
  const record: ReplyStats = {};
  if (usage)
    record.usage = Object.fromEntries(
      usageFields.flatMap((field) => (usage[field] === undefined ? [] : [[field, usage[field]]])),
    );
  for (const field of timingFields) if (timings[field] !== undefined) record[field] = timings[field];
  if (finishReason) record.finishReason = finishReason;
  return record;
}

/** The fields in one fixed order; nothing that marks a search as still running. */
function webRecord({ searches, sources, citations, suggestions }: WebResearch): WebResearch {
  return {
    searches: searches.map(({ query, failed }) => ({ query, ...(failed && { failed }) })),
    sources: sources.map(({ url, title }) => ({ url, ...(title && { title }) })),
    citations: citations.map(({ at, source, citedText }) => ({
      at,
      source,
      ...(citedText && { citedText }),
    })),
    ...(suggestions !== undefined && { suggestions }),
  };
}

/** The fields in one fixed order; nothing that marks a picture as still being drawn. */
function attachmentRecord({
  id,
  kind,
  name,
  mimeType,
  size,
  width,
  height,
  providerData,
}: AttachmentPart): AttachmentRecord {
  return {
    id,
    kind,
    name,
    mimeType,
    size,
    ...(width !== undefined && height !== undefined && { width, height }),
    ...(providerData && { providerData: providerDataRecord(providerData) }),
  };
}

function providerDataRecord({ provider, model, data }: ProviderData): ProviderData {
  return { provider, ...(model !== undefined && { model }), data: { ...data } };
}

/**
 * Whether `reasoning` and `content` hold the reply as it is: its thinking, then one text. Any
 * other order (tool calls and results between them, text before thinking) is written as `parts`.
 */
function fitsContent(parts: readonly MessagePart[]): boolean {
  const last = parts.length - 1;
  return parts.every((part, index) => (index === last ? part.type === 'text' : part.type === 'reasoning'));
}

/** A part in `parts`, its fields in one fixed order (a user's files are in `attachments`). */
function partRecord(part: MessagePart): PartRecord {
  switch (part.type) {
    case 'attachment':
      return { type: 'attachment', ...attachmentRecord(part) };
    case 'code-run': {
      const { id, language, code, output, stderr, failed, files } = part;
      return {
        type: 'code-run',
        id,
        language,
        code,
        output,
        ...(stderr !== undefined && { stderr }),
        ...(failed !== undefined && { failed }),
        files: files.map(({ id: fileId, name, mimeType, size }) => ({ id: fileId, name, mimeType, size })),
      };
    }
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', ...reasoningRecord(part) };
    case 'tool-call': {
      const { callId, name, server, providerData } = part;
      return {
        type: 'tool-call',
        callId,
        name,
        ...(server !== undefined && { server }),
        arguments: part.arguments,
        ...(providerData && { providerData: providerDataRecord(providerData) }),
      };
    }
    case 'tool-result':
      return {
        type: 'tool-result',
        callId: part.callId,
        name: part.name,
        content: part.content.map((item) =>
          item.type === 'text'
            ? { type: 'text', text: item.text }
            : { type: 'image', attachmentId: item.attachmentId, mimeType: item.mimeType },
        ),
        ...(part.isError && { isError: true }),
      };
  }
}

function reasoningRecord({
  text,
  signature,
  redacted,
}: ReasoningPart): NonNullable<MessageRecord['reasoning']>[number] {
  return { text, ...(signature && { signature }), ...(redacted && { redacted }) };
}

function messageRecord(message: Message, onPath: boolean): MessageRecord {
  const { id, role, createdAt, editedAt, provider, model, status, error, notices, stats, parentId } = message;
  const record: MessageRecord = { id, role, content: messageText(message), createdAt };
  if (!onPath && parentId !== null) record.parentId = parentId;
  if (editedAt) record.editedAt = editedAt;
  if (provider) record.provider = provider;
  if (model) record.model = model;
  if (status) record.status = status;
  if (error !== undefined) record.error = error;
  if (notices?.length) record.notices = [...notices];
  if (role === 'assistant' && !fitsContent(message.parts)) {
    record.parts = message.parts.map(partRecord);
  } else {
    const reasoning = reasoningParts(message);
    if (reasoning.length > 0) record.reasoning = reasoning.map(reasoningRecord);
  }
  if (stats) record.stats = statsRecord(stats);
  if (message.web) record.web = webRecord(message.web);
  if (message.compared) record.compared = { ...message.compared, replyIds: [...message.compared.replyIds] };
  if (message.fusedFrom) record.fusedFrom = [...message.fusedFrom];
  // A reply's pictures are among its parts, in order.
  const attachments = role === 'assistant' ? [] : attachmentParts(message);
  if (attachments.length > 0) record.attachments = attachments.map(attachmentRecord);
  return record;
}

export function conversationRecord(conversation: Conversation): ConversationRecord {
  const root = rootMessage(conversation);
  // A leaf that names no message (never made by this app) must not make the record unreadable.
  const path =
    findMessage(conversation, conversation.activeLeafId) || !root
      ? activePath(conversation)
      : pathTo(conversation, newestLeafUnder(conversation, root.id));
  const onPath = new Set(path);
  const others = conversation.messages.filter((message) => !onPath.has(message));
  const { id, name, createdAt, updatedAt, provider, order, renamedAt, deletedIds } = conversation;
  const record: ConversationRecord = {
    formatVersion: conversationFormatVersion,
    id,
    name,
    createdAt,
    updatedAt,
    provider,
    order,
    messages: path.map((message) => messageRecord(message, true)),
  };
  if (others.length > 0) record.otherMessages = others.map((message) => messageRecord(message, false));
  if (conversation.activeAt) record.activeAt = conversation.activeAt;
  if (renamedAt) record.renamedAt = renamedAt;
  if (conversation.pin) record.pin = { ...conversation.pin };
  if (conversation.pinnedAt) record.pinnedAt = conversation.pinnedAt;
  if (conversation.compare) record.compare = conversation.compare.map((pin) => ({ ...pin }));
  if (conversation.effort) record.effort = conversation.effort;
  if (conversation.effortAt) record.effortAt = conversation.effortAt;
  if (conversation.toolSwitches) record.toolSwitches = { ...conversation.toolSwitches };
  if (conversation.toolSwitchesAt) record.toolSwitchesAt = conversation.toolSwitchesAt;
  if (conversation.place) record.place = conversation.place;
  if (conversation.placedAt) record.placedAt = conversation.placedAt;
  if (conversation.projectId) record.projectId = conversation.projectId;
  if (conversation.projectAt) record.projectAt = conversation.projectAt;
  if (conversation.artifactEdits?.length)
    record.artifactEdits = conversation.artifactEdits.map(
      ({ id, key, language, code, afterMessageId, savedAt }) => ({
        id,
        key,
        language,
        code,
        afterMessageId,
        savedAt,
      }),
    );
  if (deletedIds && deletedIds.length > 0) record.deletedIds = deletedIds;
  return record;
}
