import type { AttachmentPart } from '../attachments.ts';
import type { ProviderId } from '../config.ts';
import {
  defaultSystemPrompt,
  textParts,
  type Conversation,
  type Message,
  type MessagePart,
} from '../conversation.ts';
import type { ToolResultContent } from '../tools.ts';
import { missingImageText, resultImages, type ImportedPart } from './imported-reply.ts';

/**
 * A chat read from another app's export, before it becomes a conversation: each reader (chatgpt.ts,
 * claude-ai.ts, better-chatgpt.ts, nextchat.ts) fills this in, and `toConversation` makes the tree.
 */
export interface ImportedMessage {
  /** Unique within its chat. */
  id: string;
  /** The message before it; null for the first (it hangs under the system message). */
  parentId: string | null;
  role: 'user' | 'assistant';
  /** Its text; for a reply with `parts`, the texts among them, joined. */
  text: string;
  /**
   * The images it showed, by the id the export names each with (ChatGPT's pointers), its tools'
   * included: the files the import stores. Those whose files came with the export become
   * attachments (or, when a tool returned them, images of that result); the others read '[image]'.
   */
  images?: string[];
  /** A reply's thinking, when the export holds it. */
  reasoning?: string;
  /**
   * A reply that used tools, as it went: texts, thinking, each call and then its result, in order
   * (imported-reply.ts puts them together). When present, it is the reply, and `reasoning` is not
   * read; absent, the reply is its `reasoning` and `text`.
   */
  parts?: ImportedPart[];
  /** ISO; absent when the export has none. */
  createdAt?: string;
  model?: string;
}

export interface ImportedChat {
  /** Already prefixed by the app (`chatgpt-…`), so two apps' ids never meet. */
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  provider: ProviderId;
  /** The chat's own system prompt, if it had one; ours otherwise. */
  system?: string;
  messages: ImportedMessage[];
  /** The message the chat was showing last; the newest leaf when absent or unknown. */
  activeLeafId?: string;
  /** The `id` of the export's project (OtherAppExport.projects) it belongs to. */
  project?: string;
}

/** A text file an app keeps with a project (Claude.ai's project knowledge). */
export interface ImportedProjectFile {
  /** The attachment id its bytes are stored under: unique across apps and projects. */
  id: string;
  name: string;
  text: string;
}

/**
 * A project of another app, before it becomes one of ours (domain/projects.ts): the import
 * creates it, or puts its conversations into a project of the same name already here.
 */
export interface ImportedProject {
  /** Already prefixed by the app (`chatgpt-project-…`), so two apps' ids never meet; a project id (isProjectId). */
  id: string;
  name: string;
  /** Sent before each of its conversations' own prompt (Claude.ai's `prompt_template`); absent: none. */
  instructions?: string;
  files?: ImportedProjectFile[];
  /** ISO, when the export has them. */
  createdAt?: string;
  updatedAt?: string;
}

/** What reading an export gave: the app it came from, its chats, and the entries that could not be read. */
export interface OtherAppExport {
  app: string;
  chats: ImportedChat[];
  skipped: number;
  /** The projects its chats belong to (and, for Claude.ai, those its projects file lists); absent: none. */
  projects?: ImportedProject[];
}

/** An app's export read entry by entry: an entry `read` cannot make a chat of is counted, not fatal. */
export function readEntries(
  app: string,
  entries: readonly unknown[],
  read: (entry: unknown, index: number) => ImportedChat | null,
): OtherAppExport {
  const chats: ImportedChat[] = [];
  let skipped = 0;
  entries.forEach((entry, index) => {
    const chat = read(entry, index);
    if (chat) chats.push(chat);
    else skipped++;
  });
  return { app, chats, skipped };
}

/** ISO from seconds or milliseconds since 1970 (apps use both), or from a date string; undefined if none. */
export function isoFrom(value: unknown, unit: 'seconds' | 'ms' = 'ms'): string | undefined {
  let time = Number.NaN;
  if (typeof value === 'number') time = unit === 'seconds' ? value * 1000 : value;
  else if (typeof value === 'string' && value.trim() !== '') time = Date.parse(value);
  // Years 1990 to 2200: anything else is not a date this app could have written.
  if (!Number.isFinite(time) || time < 631152000000 || time > 7258118400000) return undefined;
  return new Date(time).toISOString();
}

/** The attachment id of an image a chat's messages show: one per image and conversation. */
export function importedImageId(chat: ImportedChat, image: string): string {
  return `${chat.id}:${image}`;
}

/** A reply's imported parts as message parts: a tool's image whose file is not here is named. */
function replyParts(
  parts: readonly ImportedPart[],
  images: ReadonlyMap<string, AttachmentPart>,
): MessagePart[] {
  return parts.map((part): MessagePart => {
    if (part.type !== 'tool-result') return { ...part };
    const content = part.content.map((piece): ToolResultContent => {
      if (piece.type === 'text') return { ...piece };
      const image = images.get(piece.image);
      return image
        ? { type: 'image', attachmentId: image.id, mimeType: image.mimeType }
        : { type: 'text', text: missingImageText };
    });
    return { ...part, content };
  });
}

/**
 * The chat as a conversation: the system message as root, then every message under its parent,
 * parents first, siblings by time. A message whose parent is missing hangs under the root. The
 * images whose files came with the export are in `images`, by the id the messages name them with.
 * A reply that used tools keeps its parts in their order, its calls with neither server nor
 * provider data (docs/behaviour.md#tool-calls-in-a-reply).
 */
export function toConversation(
  chat: ImportedChat,
  order: number,
  images: ReadonlyMap<string, AttachmentPart> = new Map(),
): Conversation {
  const rootId = `${chat.id}:root`;
  const known = new Set(chat.messages.map((message) => message.id));
  const messages: Message[] = chat.messages.map((message) => {
    // Files first, as a message written here holds them; an image whose file is not here is named.
    // The images a tool returned are in its result instead.
    const ofTools = new Set(message.parts ? resultImages(message.parts) : []);
    const shown = (message.images ?? [])
      .filter((image) => !ofTools.has(image))
      .map((image) => images.get(image) ?? null);
    const missing = shown.filter((part) => part === null).map(() => '[image]');
    const files = shown.filter((part) => part !== null);
    let parts: MessagePart[];
    if (message.parts) {
      const own = replyParts(message.parts, images);
      const first = own[0];
      if (missing.length > 0 && first?.type === 'text')
        own[0] = { type: 'text', text: [...missing, first.text].join('\n\n') };
      else if (missing.length > 0) own.unshift(...textParts(missing.join('\n\n')));
      parts = [...files, ...own];
    } else
      parts = [
        ...(message.reasoning ? [{ type: 'reasoning' as const, text: message.reasoning }] : []),
        ...files,
        ...textParts([...missing, message.text].filter((text) => text !== '').join('\n\n')),
      ];
    const built: Message = {
      id: message.id,
      parentId: message.parentId !== null && known.has(message.parentId) ? message.parentId : rootId,
      role: message.role,
      parts,
      // Missing times are set below, from the parent's.
      createdAt: message.createdAt ?? '',
    };
    if (message.model) built.model = message.model;
    return built;
  });
  const children = new Map<string, Message[]>();
  for (const message of messages) {
    const list = children.get(message.parentId ?? rootId) ?? [];
    list.push(message);
    children.set(message.parentId ?? rootId, list);
  }
  const root: Message = {
    id: rootId,
    parentId: null,
    role: 'system',
    parts: textParts(chat.system ?? defaultSystemPrompt),
    createdAt: chat.createdAt,
  };
  // Parents first: a walk from the root (a cycle in the export is never reached, so dropped). A
  // message without a time is a millisecond after its parent, or its elder sibling without one.
  const ordered: Message[] = [root];
  for (let at = 0; at < ordered.length; at++) {
    const parent = ordered[at] as Message;
    const below = children.get(parent.id) ?? [];
    below.forEach((message, index) => {
      if (message.createdAt === '')
        message.createdAt = new Date(Date.parse(parent.createdAt) + index + 1).toISOString();
    });
    below.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    // One by one: spread into push, a huge sibling list would overflow the call stack.
    for (const message of below) ordered.push(message);
  }
  const reached = new Set(ordered.map((message) => message.id));
  const leaves = ordered.filter((message) => !children.has(message.id));
  const newestLeaf = leaves.reduce(
    (newest, leaf) => (leaf.createdAt >= newest.createdAt ? leaf : newest),
    root,
  );
  const activeLeafId =
    chat.activeLeafId !== undefined && reached.has(chat.activeLeafId) ? chat.activeLeafId : newestLeaf.id;
  return {
    id: chat.id,
    name: chat.name.replace(/\s+/g, ' ').trim() || 'Imported conversation',
    messages: ordered,
    activeLeafId,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    provider: chat.provider,
    order,
  };
}
