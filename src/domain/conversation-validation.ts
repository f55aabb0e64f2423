import { isAttachmentKind, sentImageTypes, type AttachmentPart } from './attachments.ts';
import { codeRunLimits, keptFileName, type CodeRunPart, type ProducedFile } from './code-runs.ts';
import { isProviderId, providerIds, type ProviderId } from './config.ts';
import { compareSize, distinctPins } from './compare.ts';
import {
  conversationPlaces,
  messageText,
  roles,
  textParts,
  type ArtifactEdit,
  type Conversation,
  type ConversationPlace,
  type Message,
  type MessagePart,
  type ModelPin,
  type ReasoningPart,
  type Role,
} from './conversation.ts';
import { reasoningEfforts, type ReasoningEffort } from './provider-definitions/capabilities.ts';
import { finishReasons, timingFields, usageFields, type ReplyStats, type Usage } from './reply-stats.ts';
import { readOrder } from './conversation-summary.ts';
import { isProjectId } from './projects.ts';
import { readWebResearch } from './web-search.ts';
import type { ProviderData, ToolCallPart, ToolResultContent, ToolResultPart } from './tools.ts';
import {
  describeType,
  isIsoTimestamp,
  isRecord,
  ownField,
  quote,
  type JsonRecord,
  type Validated,
} from './json-guards.ts';

/**
 * Reads a conversation from its written form: a stored record or an entry of an export file.
 * Both are the export's 2.0 shape: `messages` is the active path, root first, as role and content
 * (a 2.0 reader needs nothing more); since this release each also has an `id`, and the messages
 * off that path travel in `otherMessages`, each naming its `parentId`. A conversation without
 * ids (the first release, a hand-written file) becomes a linear chain with ids derived from its
 * own id and positions, so two tabs reading the same old record agree on them. A reply that used
 * tools also has `parts`, every part in order, which this release reads instead of `reasoning` and
 * `content` (see readParts).
 */

export interface ConversationReadOptions {
  /** Replaces a missing timestamp. */
  now: Date;
  /** Used when a conversation carries no provider. */
  fallbackProvider: ProviderId;
}

/** The version of the written form; a record of a later one is left alone as unreadable. */
export const conversationFormatVersion = 2;

function isRole(value: unknown): value is Role {
  return (roles as readonly unknown[]).includes(value);
}

function readTimestamp(value: unknown, path: string, fallback: string): Validated<string> {
  if (value === undefined || value === null) return { ok: true, value: fallback };
  if (isIsoTimestamp(value)) return { ok: true, value };
  return { ok: false, problem: `${path} must be an ISO timestamp` };
}

interface ReadMessage {
  message: Message;
  /** As written: undefined when the file gave none. */
  id: string | undefined;
  parentId: string | undefined;
}

/** A fresh message with known fields only; a bad optional field is dropped, not fatal. */
function readMessage(value: unknown, path: string, fallbackTime: string): Validated<ReadMessage> {
  if (!isRecord(value))
    return { ok: false, problem: `${path} must be an object (found ${describeType(value)})` };
  const role = ownField(value, 'role');
  if (!isRole(role)) return { ok: false, problem: `${path}.role must be system, user or assistant` };
  const content = ownField(value, 'content');
  if (typeof content !== 'string') {
    return { ok: false, problem: `${path}.content must be a string (found ${describeType(content)})` };
  }
  const id = ownField(value, 'id');
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    return { ok: false, problem: `${path}.id must be a non-empty string` };
  }
  const parentId = ownField(value, 'parentId');
  if (parentId !== undefined && parentId !== null && (typeof parentId !== 'string' || parentId === '')) {
    return { ok: false, problem: `${path}.parentId must be a non-empty string` };
  }
  const createdAt = readTimestamp(ownField(value, 'createdAt'), `${path}.createdAt`, fallbackTime);
  if (!createdAt.ok) return createdAt;
  const message: Message = {
    id: id ?? '',
    parentId: null,
    role,
    parts: textParts(content),
    createdAt: createdAt.value,
  };
  const editedAt = ownField(value, 'editedAt');
  if (isIsoTimestamp(editedAt)) message.editedAt = editedAt;
  const provider = ownField(value, 'provider');
  if (isProviderId(provider)) message.provider = provider;
  const model = ownField(value, 'model');
  if (typeof model === 'string' && model !== '') message.model = model;
  const status = ownField(value, 'status');
  if (status === 'interrupted' || status === 'stopped') message.status = status;
  const error = ownField(value, 'error');
  if (typeof error === 'string') message.error = error;
  const notices = ownField(value, 'notices');
  if (Array.isArray(notices)) {
    const texts = notices.filter((notice): notice is string => typeof notice === 'string' && notice !== '');
    if (texts.length > 0) message.notices = texts;
  }
  if (role === 'user') {
    message.parts = [...readAttachments(ownField(value, 'attachments')), ...message.parts];
    const compared = readCompared(ownField(value, 'compared'));
    if (compared) message.compared = compared;
  }
  if (role === 'assistant') {
    const parts = readParts(ownField(value, 'parts'));
    message.parts =
      parts.length > 0 ? parts : [...readReasoning(ownField(value, 'reasoning')), ...message.parts];
    const stats = readStats(ownField(value, 'stats'));
    if (stats) message.stats = stats;
    const web = readWebResearch(ownField(value, 'web'), messageText(message).length);
    if (web) message.web = web;
    const fusedFrom = readIds(ownField(value, 'fusedFrom'));
    if (fusedFrom) message.fusedFrom = fusedFrom;
  }
  return { ok: true, value: { message, id, parentId: parentId ?? undefined } };
}

/** Reasoning blocks as written; a malformed block is dropped (it is never worth refusing a file over). */
function readReasoning(value: unknown): ReasoningPart[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((block: unknown) => {
    const part = readReasoningBlock(block);
    return part ? [part] : [];
  });
}

function readReasoningBlock(block: unknown): ReasoningPart | null {
  if (!isRecord(block)) return null;
  const text = ownField(block, 'text');
  if (typeof text !== 'string') return null;
  const part: ReasoningPart = { type: 'reasoning', text };
  const signature = ownField(block, 'signature');
  if (typeof signature === 'string' && signature !== '') part.signature = signature;
  if (ownField(block, 'redacted') === true && part.signature) part.redacted = true;
  return part.text !== '' || part.signature ? part : null;
}

/**
 * How much of a reply's tool calls and results is read, so a hostile record costs bounded work and
 * the screen bounded cards. Each is far past what a reply holds (a model writes at most a few
 * hundred thousand characters of arguments; the tool loop stores results within these); past a
 * limit, a text is cut to it and further parts or pieces are left out.
 */
export const toolPartLimits = {
  /** Entries of `parts` read: a reply of a hundred tool rounds has some hundreds. */
  parts: 2000,
  /** A call's id, a tool's name, its server, a result image's file id, a provider's model. */
  nameLength: 256,
  /** A call's arguments (JSON text), in characters. */
  argumentsLength: 1_000_000,
  /** All the text of one result, in characters. */
  resultLength: 1_000_000,
  /** Pieces of one result (texts and images). */
  resultPieces: 100,
  /** Entries of a call's provider data, and the characters of each. */
  providerDataEntries: 16,
  providerDataLength: 1_000_000,
} as const;

/** A string no longer than `max`, never ending in half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= toolPartLimits.nameLength;

/** Provider data as written: a known provider and its string entries, or nothing. */
function readProviderData(value: unknown): ProviderData | undefined {
  if (!isRecord(value)) return undefined;
  const provider = ownField(value, 'provider');
  const data = ownField(value, 'data');
  if (!isProviderId(provider) || !isRecord(data)) return undefined;
  const entries = Object.entries(data)
    .filter(
      ([key, item]) =>
        // A `__proto__` entry made by assigning would set the prototype: no provider has one.
        key !== '__proto__' &&
        key.length <= toolPartLimits.nameLength &&
        typeof item === 'string' &&
        item.length <= toolPartLimits.providerDataLength,
    )
    .slice(0, toolPartLimits.providerDataEntries);
  if (entries.length === 0) return undefined;
  const read: ProviderData = { provider, data: Object.fromEntries(entries) as Record<string, string> };
  const model = ownField(value, 'model');
  if (isName(model)) read.model = model;
  return read;
}

function readToolCall(entry: JsonRecord): ToolCallPart | null {
  const callId = ownField(entry, 'callId');
  const name = ownField(entry, 'name');
  const args = ownField(entry, 'arguments');
  if (!isName(callId) || !isName(name) || typeof args !== 'string') return null;
  const part: ToolCallPart = {
    type: 'tool-call',
    callId,
    name,
    arguments: cut(args, toolPartLimits.argumentsLength),
  };
  const server = ownField(entry, 'server');
  if (isName(server)) part.server = server;
  const providerData = readProviderData(ownField(entry, 'providerData'));
  if (providerData) part.providerData = providerData;
  return part;
}

function readToolResult(entry: JsonRecord): ToolResultPart | null {
  const callId = ownField(entry, 'callId');
  const name = ownField(entry, 'name');
  const rawContent = ownField(entry, 'content');
  if (!isName(callId) || !isName(name) || !Array.isArray(rawContent)) return null;
  const content: ToolResultContent[] = [];
  let room: number = toolPartLimits.resultLength;
  for (const item of rawContent.slice(0, toolPartLimits.resultPieces) as unknown[]) {
    if (!isRecord(item)) continue;
    const type = ownField(item, 'type');
    const text = ownField(item, 'text');
    if (type === 'text' && typeof text === 'string' && room > 0) {
      const kept = cut(text, room);
      room -= kept.length;
      content.push({ type: 'text', text: kept });
    }
    const attachmentId = ownField(item, 'attachmentId');
    const mimeType = ownField(item, 'mimeType');
    // Shown from its bytes, as a user's image is: only the raster types the app stores.
    if (
      type === 'image' &&
      isName(attachmentId) &&
      typeof mimeType === 'string' &&
      sentImageTypes.includes(mimeType)
    )
      content.push({ type: 'image', attachmentId, mimeType });
  }
  const part: ToolResultPart = { type: 'tool-result', callId, name, content };
  if (ownField(entry, 'isError') === true) part.isError = true;
  return part;
}

/**
 * A reply's parts as written in `parts` (conversation-record.ts): text, reasoning, tool calls and
 * results in order. A malformed entry is dropped, and so is a call whose id an earlier call has, a
 * result that answers no earlier call of the reply, and a second result for a call: each kept
 * result follows its call, as the tool loop writes them and every API takes them.
 */
function readParts(value: unknown): MessagePart[] {
  if (!Array.isArray(value)) return [];
  const parts: MessagePart[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  const runs = new Set<string>();
  for (const entry of value.slice(0, toolPartLimits.parts) as unknown[]) {
    if (!isRecord(entry)) continue;
    switch (ownField(entry, 'type')) {
      case 'text': {
        const text = ownField(entry, 'text');
        if (typeof text === 'string') parts.push({ type: 'text', text });
        break;
      }
      case 'reasoning': {
        const part = readReasoningBlock(entry);
        if (part) parts.push(part);
        break;
      }
      case 'tool-call': {
        const part = readToolCall(entry);
        if (part && !calls.has(part.callId)) {
          calls.add(part.callId);
          parts.push(part);
        }
        break;
      }
      case 'tool-result': {
        const part = readToolResult(entry);
        if (part && calls.has(part.callId) && !answered.has(part.callId)) {
          answered.add(part.callId);
          parts.push(part);
        }
        break;
      }
      case 'attachment': {
        const part = readDrawnImage(entry);
        if (part) parts.push(part);
        break;
      }
      case 'code-run': {
        const part = readCodeRun(entry);
        if (part && runs.size < codeRunLimits.runs && !runs.has(part.id)) {
          runs.add(part.id);
          parts.push(part);
        }
        break;
      }
    }
  }
  return parts;
}

/**
 * Files as written; a malformed entry is dropped. Bytes an export carries (`data`) are not part of
 * the message: the import reads them apart (see export-format.ts).
 */
function readAttachments(value: unknown): AttachmentPart[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const part = isRecord(entry) ? readAttachment(entry) : null;
    return part ? [part] : [];
  });
}

export function readAttachment(entry: JsonRecord): AttachmentPart | null {
  const id = ownField(entry, 'id');
  const kind = ownField(entry, 'kind');
  const name = ownField(entry, 'name');
  const mimeType = ownField(entry, 'mimeType');
  const size = ownField(entry, 'size');
  if (typeof id !== 'string' || id === '' || !isAttachmentKind(kind)) return null;
  if (typeof name !== 'string' || typeof mimeType !== 'string' || !isCount(size)) return null;
  // An image is shown from its bytes: only the raster types the app itself stores (never HTML
  // or SVG under an image's name). A PDF is a PDF whatever the file says.
  if (kind === 'image' && !sentImageTypes.includes(mimeType)) return null;
  const part: AttachmentPart = {
    type: 'attachment',
    id,
    kind,
    name,
    mimeType: kind === 'pdf' ? 'application/pdf' : mimeType,
    size,
  };
  const width = ownField(entry, 'width');
  const height = ownField(entry, 'height');
  if (isCount(width) && isCount(height)) Object.assign(part, { width, height });
  return part;
}

/** A picture a reply drew, as written among its parts: an image, with what its provider needs back. */
function readDrawnImage(entry: JsonRecord): AttachmentPart | null {
  const part = readAttachment(entry);
  if (part?.kind !== 'image') return null;
  const providerData = readProviderData(ownField(entry, 'providerData'));
  if (providerData) part.providerData = providerData;
  return part;
}

/** A code run as written: bounded texts, and the files it produced that name their stored bytes. */
function readCodeRun(entry: JsonRecord): CodeRunPart | null {
  const id = ownField(entry, 'id');
  const language = ownField(entry, 'language');
  const code = ownField(entry, 'code');
  const output = ownField(entry, 'output');
  if (!isName(id) || typeof language !== 'string' || typeof code !== 'string' || typeof output !== 'string')
    return null;
  const files = ownField(entry, 'files');
  const part: CodeRunPart = {
    type: 'code-run',
    id,
    language: cut(language, codeRunLimits.language),
    code: cut(code, codeRunLimits.code),
    output: cut(output, codeRunLimits.output),
    files: (Array.isArray(files) ? (files.slice(0, codeRunLimits.files) as unknown[]) : []).flatMap(
      (file): ProducedFile[] => {
        if (!isRecord(file)) return [];
        const fileId = ownField(file, 'id');
        const name = ownField(file, 'name');
        const mimeType = ownField(file, 'mimeType');
        const size = ownField(file, 'size');
        if (!isName(fileId) || typeof name !== 'string' || !isName(mimeType) || !isCount(size)) return [];
        return [{ id: fileId, name: keptFileName(name), mimeType, size }];
      },
    ),
  };
  const stderr = ownField(entry, 'stderr');
  if (typeof stderr === 'string') part.stderr = cut(stderr, codeRunLimits.output);
  const failed = ownField(entry, 'failed');
  if (typeof failed === 'string' && failed !== '') part.failed = cut(failed, codeRunLimits.failed);
  return part;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A reply's figures as written: only known fields with sane values. */
function readStats(value: unknown): ReplyStats | undefined {
  if (!isRecord(value)) return undefined;
  const stats: ReplyStats = {};
  const usage = ownField(value, 'usage');
  if (isRecord(usage)) {
    const read: Usage = {};
    for (const field of usageFields) {
      const figure = ownField(usage, field);
      if (isCount(figure)) read[field] = figure;
    }
    if (Object.keys(read).length > 0) stats.usage = read;
  }
  for (const field of timingFields) {
    const ms = ownField(value, field);
    if (isCount(ms)) stats[field] = ms;
  }
  const finishReason = ownField(value, 'finishReason');
  if (finishReason !== 'stop' && (finishReasons as readonly unknown[]).includes(finishReason))
    stats.finishReason = finishReason as ReplyStats['finishReason'];
  return Object.keys(stats).length > 0 ? stats : undefined;
}

function readList(value: unknown, path: string, fallbackTime: string): Validated<ReadMessage[]> {
  if (value === undefined) return { ok: true, value: [] };
  if (!Array.isArray(value)) {
    return { ok: false, problem: `${path} must be a list (found ${describeType(value)})` };
  }
  const read: ReadMessage[] = [];
  for (let index = 0; index < value.length; index++) {
    const message = readMessage(value[index], `${path}[${index}]`, fallbackTime);
    if (!message.ok) return message;
    read.push(message.value);
  }
  return { ok: true, value: read };
}

/** An id no message has: for the empty system message put before a path that lacks one. */
function freeId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * The tree from the path and the other messages: ids unique, each other message's parent known,
 * every message reachable from the root (no cycle). The root is a system message: a path that
 * starts otherwise gets an empty one, which sends nothing, as before.
 */
function buildTree(
  conversationId: string,
  path: ReadMessage[],
  others: ReadMessage[],
  at: string,
  createdAt: string,
): Validated<{ messages: Message[]; activeLeafId: string }> {
  const withIds = path.some((item) => item.id !== undefined) || others.length > 0;
  const firstIndex = new Map<string, string>();
  const claim = (id: string, where: string): Validated<null> => {
    const earlier = firstIndex.get(id);
    if (earlier !== undefined)
      return { ok: false, problem: `${where}.id ${quote(id)} is already used by ${earlier}` };
    firstIndex.set(id, where);
    return { ok: true, value: null };
  };

  const messages: Message[] = [];
  let parentId: string | null = null;
  for (let index = 0; index < path.length; index++) {
    const item = path[index] as ReadMessage;
    const where = `${at}.messages[${index}]`;
    let id = item.id;
    if (id === undefined) {
      if (withIds) return { ok: false, problem: `${where}.id must be a non-empty string` };
      id = `${conversationId}:${index}`;
    }
    if (
      item.parentId !== undefined &&
      item.parentId !== parentId &&
      !(index === 0 && item.parentId === null)
    ) {
      return { ok: false, problem: `${where}.parentId must be the id of the message before it` };
    }
    const claimed = claim(id, where);
    if (!claimed.ok) return claimed;
    messages.push({ ...item.message, id, parentId });
    parentId = id;
  }
  for (let index = 0; index < others.length; index++) {
    const item = others[index] as ReadMessage;
    const where = `${at}.otherMessages[${index}]`;
    if (item.id === undefined) return { ok: false, problem: `${where}.id must be a non-empty string` };
    if (item.parentId === undefined)
      return { ok: false, problem: `${where}.parentId must be a non-empty string` };
    const claimed = claim(item.id, where);
    if (!claimed.ok) return claimed;
    messages.push({ ...item.message, id: item.id, parentId: item.parentId });
  }

  const byId = new Map(messages.map((message) => [message.id, message]));
  // Messages known to lead to the root: each chain is walked once.
  const rooted = new Set<string>();
  for (let index = 0; index < others.length; index++) {
    const where = `${at}.otherMessages[${index}]`;
    const message = byId.get(others[index]?.id as string) as Message;
    if (!byId.has(message.parentId as string)) {
      const named = quote(message.parentId as string);
      return { ok: false, problem: `${where}.parentId ${named} names no message of this conversation` };
    }
    const chain = new Set<string>();
    for (let step: Message | undefined = message; step && !rooted.has(step.id);) {
      if (step.parentId === null) break;
      if (chain.has(step.id)) return { ok: false, problem: `${where}: its parents form a cycle` };
      chain.add(step.id);
      step = byId.get(step.parentId);
    }
    for (const id of chain) rooted.add(id);
  }

  const activeLeafId = messages[path.length - 1]?.id;
  const first = messages[0];
  if (first?.role === 'system')
    return { ok: true, value: { messages, activeLeafId: activeLeafId as string } };
  // No system message first: an empty one as the root, which sends nothing, as before.
  const rootId = freeId(`${conversationId}:root`, new Set(byId.keys()));
  const root: Message = { id: rootId, parentId: null, role: 'system', parts: textParts(''), createdAt };
  if (first) messages[0] = { ...first, parentId: rootId };
  return { ok: true, value: { messages: [root, ...messages], activeLeafId: activeLeafId ?? rootId } };
}

/** A fresh conversation copied field by field from untrusted data, or the first problem found. */
/** Tool sources switched in a conversation: own keys of bounded length with boolean values, at most 100. */
/** How many saved artifact versions a conversation keeps, and the characters of each. */
export const artifactEditLimits = { edits: 500, code: 1_000_000 } as const;

/** The user's saved artifact versions as written: bounded, each whole or left out, each id once. */
function readArtifactEdits(value: unknown): ArtifactEdit[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const edits: ArtifactEdit[] = [];
  for (const entry of value.slice(0, artifactEditLimits.edits) as unknown[]) {
    if (!isRecord(entry)) continue;
    const [id, key, language, code, afterMessageId, savedAt] = (
      ['id', 'key', 'language', 'code', 'afterMessageId', 'savedAt'] as const
    ).map((field) => ownField(entry, field));
    if (!isName(id) || !isName(key) || typeof language !== 'string' || language.length > 64) continue;
    if (typeof code !== 'string' || code.length > artifactEditLimits.code) continue;
    if (!isName(afterMessageId) || !isIsoTimestamp(savedAt) || seen.has(id)) continue;
    seen.add(id);
    edits.push({ id, key, language, code, afterMessageId, savedAt });
  }
  return edits;
}

/** A pinned model as written; one this release cannot use (an unknown provider, no model) is none. */
export function readPin(value: unknown): ModelPin | undefined {
  if (!isRecord(value)) return undefined;
  const provider = ownField(value, 'provider');
  const model = ownField(value, 'model');
  const endpointId = ownField(value, 'endpointId');
  if (!isProviderId(provider) || typeof model !== 'string' || model.trim() === '') return undefined;
  const pin: ModelPin = { provider, model };
  if (typeof endpointId === 'string' && endpointId !== '') pin.endpointId = endpointId;
  return pin;
}

/** Message ids as written (a compare's columns and its fused replies: never many); none: undefined. */
function readIds(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids = value
    .slice(0, 1000)
    .filter((id): id is string => typeof id === 'string' && id !== '' && id.length <= 256);
  const distinct = [...new Set(ids)].slice(0, 64);
  return distinct.length > 0 ? distinct : undefined;
}

/** A compared question's columns; a reply id that names no reply is left for the tree to ignore. */
function readCompared(value: unknown): Message['compared'] | undefined {
  if (!isRecord(value)) return undefined;
  const replyIds = readIds(ownField(value, 'replyIds'));
  if (!replyIds) return undefined;
  return ownField(value, 'chosen') === true ? { replyIds, chosen: true } : { replyIds };
}

/** A compare set as written: 2 to 4 usable pins, each once; anything else is no compare set. */
function readCompareSet(value: unknown): ModelPin[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const pins = distinctPins(value.slice(0, 16).flatMap((item: unknown) => readPin(item) ?? []));
  return pins.length >= compareSize.min ? pins : undefined;
}

export function readToolSwitches(value: unknown): Record<string, boolean> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.keys(value)
    .filter((key) => key !== '__proto__' && key.length <= 256 && typeof value[key] === 'boolean')
    .slice(0, 100)
    .map((key) => [key, value[key] as boolean] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

export function validateConversation(
  value: unknown,
  path: string,
  options: ConversationReadOptions,
): Validated<Conversation> {
  if (!isRecord(value))
    return { ok: false, problem: `${path} must be an object (found ${describeType(value)})` };
  const version = ownField(value, 'formatVersion');
  if (version !== undefined && (typeof version !== 'number' || version > conversationFormatVersion)) {
    return { ok: false, problem: `${path}.formatVersion ${String(version)} is newer than this app reads` };
  }
  const id = ownField(value, 'id');
  if (typeof id !== 'string' || id === '')
    return { ok: false, problem: `${path}.id must be a non-empty string` };
  const name = ownField(value, 'name');
  if (typeof name !== 'string') {
    return { ok: false, problem: `${path}.name must be a string (found ${describeType(name)})` };
  }
  const now = options.now.toISOString();
  const createdAt = readTimestamp(ownField(value, 'createdAt'), `${path}.createdAt`, now);
  if (!createdAt.ok) return createdAt;
  const updatedAt = readTimestamp(ownField(value, 'updatedAt'), `${path}.updatedAt`, now);
  if (!updatedAt.ok) return updatedAt;

  const rawMessages = ownField(value, 'messages');
  if (!Array.isArray(rawMessages)) {
    return { ok: false, problem: `${path}.messages must be a list (found ${describeType(rawMessages)})` };
  }
  const pathMessages = readList(rawMessages, `${path}.messages`, createdAt.value);
  if (!pathMessages.ok) return pathMessages;
  const otherMessages = readList(ownField(value, 'otherMessages'), `${path}.otherMessages`, createdAt.value);
  if (!otherMessages.ok) return otherMessages;
  const tree = buildTree(id, pathMessages.value, otherMessages.value, path, createdAt.value);
  if (!tree.ok) return tree;

  const rawProvider = ownField(value, 'provider');
  let provider = options.fallbackProvider;
  if (rawProvider !== undefined && rawProvider !== null) {
    if (!isProviderId(rawProvider)) {
      return { ok: false, problem: `${path}.provider must be one of ${providerIds.join(', ')}` };
    }
    provider = rawProvider;
  }
  const conversation: Conversation = {
    id,
    name,
    messages: tree.value.messages,
    activeLeafId: tree.value.activeLeafId,
    createdAt: createdAt.value,
    updatedAt: updatedAt.value,
    provider,
    order: readOrder(ownField(value, 'order'), createdAt.value),
  };
  const activeAt = ownField(value, 'activeAt');
  if (isIsoTimestamp(activeAt)) conversation.activeAt = activeAt;
  const renamedAt = ownField(value, 'renamedAt');
  if (isIsoTimestamp(renamedAt)) conversation.renamedAt = renamedAt;
  // A pin this release cannot use (an unknown provider, no model) is dropped: the conversation then
  // follows the saved configuration, as it did before pins existed.
  const pin = readPin(ownField(value, 'pin'));
  if (pin) conversation.pin = pin;
  const pinnedAt = ownField(value, 'pinnedAt');
  if (isIsoTimestamp(pinnedAt)) conversation.pinnedAt = pinnedAt;
  const compare = readCompareSet(ownField(value, 'compare'));
  if (compare) conversation.compare = compare;
  const effort = ownField(value, 'effort');
  if ((reasoningEfforts as readonly unknown[]).includes(effort))
    conversation.effort = effort as ReasoningEffort;
  const effortAt = ownField(value, 'effortAt');
  if (isIsoTimestamp(effortAt)) conversation.effortAt = effortAt;
  const toolSwitches = readToolSwitches(ownField(value, 'toolSwitches'));
  if (toolSwitches) conversation.toolSwitches = toolSwitches;
  const toolSwitchesAt = ownField(value, 'toolSwitchesAt');
  if (isIsoTimestamp(toolSwitchesAt)) conversation.toolSwitchesAt = toolSwitchesAt;
  const artifactEdits = readArtifactEdits(ownField(value, 'artifactEdits'));
  if (artifactEdits.length > 0) conversation.artifactEdits = artifactEdits;
  const place = ownField(value, 'place');
  if ((conversationPlaces as readonly unknown[]).includes(place))
    conversation.place = place as ConversationPlace;
  const placedAt = ownField(value, 'placedAt');
  if (isIsoTimestamp(placedAt)) conversation.placedAt = placedAt;
  const projectId = ownField(value, 'projectId');
  if (isProjectId(projectId)) conversation.projectId = projectId;
  const projectAt = ownField(value, 'projectAt');
  if (isIsoTimestamp(projectAt)) conversation.projectAt = projectAt;
  const deletedIds = ownField(value, 'deletedIds');
  if (Array.isArray(deletedIds)) {
    // A deleted id that names a message here would delete it at the next save: it is not one.
    const present = new Set(tree.value.messages.map((message) => message.id));
    const ids = deletedIds.filter((item): item is string => typeof item === 'string' && !present.has(item));
    if (ids.length > 0) conversation.deletedIds = ids;
  }
  return { ok: true, value: conversation };
}

/** A list of conversations with unique ids; linear in the size of the input. */
export function validateConversationList(
  value: unknown,
  path: string,
  options: ConversationReadOptions,
): Validated<Conversation[]> {
  if (!Array.isArray(value))
    return { ok: false, problem: `${path} must be a list (found ${describeType(value)})` };
  const conversations: Conversation[] = [];
  const firstIndexById = new Map<string, number>();
  for (let index = 0; index < value.length; index++) {
    const itemPath = `${path}[${index}]`;
    const conversation = validateConversation(value[index], itemPath, options);
    if (!conversation.ok) return conversation;
    const { id } = conversation.value;
    const earlier = firstIndexById.get(id);
    if (earlier !== undefined) {
      return { ok: false, problem: `${itemPath}.id ${quote(id)} is already used by ${path}[${earlier}]` };
    }
    firstIndexById.set(id, index);
    conversations.push(conversation.value);
  }
  return { ok: true, value: conversations };
}
