import type { AttachmentPart } from '../attachments.ts';
import type { ProviderId } from '../config.ts';
import {
  defaultSystemPrompt,
  textParts,
  type Conversation,
  type Message,
  type MessagePart,
} from '../conversation.ts';

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
  text: string;
  /**
   * The images it showed, by the id the export names each with (ChatGPT's pointers). Those whose
   * files came with the export become attachments; the others read '[image]'.
   */
  images?: string[];
  /** A reply's thinking, when the export holds it. */
  reasoning?: string;
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
}

/** What reading an export gave: the app it came from, its chats, and the entries that could not be read. */
export interface OtherAppExport {
  app: string;
  chats: ImportedChat[];
  skipped: number;
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

/**
 * The chat as a conversation: the system message as root, then every message under its parent,
 * parents first, siblings by time. A message whose parent is missing hangs under the root. The
 * images whose files came with the export are in `images`, by the id the messages name them with.
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
    const shown = (message.images ?? []).map((image) => images.get(image) ?? null);
    const missing = shown.filter((part) => part === null).map(() => '[image]');
    const parts: MessagePart[] = [
      ...(message.reasoning ? [{ type: 'reasoning' as const, text: message.reasoning }] : []),
      ...shown.filter((part) => part !== null),
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
