import type { AttachmentPart } from './attachments.ts';
import type { CodeRunPart } from './code-runs.ts';
import type { ProviderId } from './config.ts';
import type { ReasoningEffort } from './provider-definitions/capabilities.ts';
import type { ReplyStats } from './reply-stats.ts';
import type { WebResearch } from './web-search.ts';
import type { ToolCallPart, ToolResultPart } from './tools.ts';

export const roles = ['system', 'user', 'assistant'] as const;
export type Role = (typeof roles)[number];

export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * A model's thinking before its answer: shown apart, never copied as the answer, and sent back
 * only to the provider and model that wrote it (docs/decisions.md#reasoning).
 */
export interface ReasoningPart {
  type: 'reasoning';
  /** Readable thinking (a summary for OpenAI and newer Claude models); empty when redacted. */
  text: string;
  /**
   * What the provider needs back unchanged on the next turn: Claude's signature (or, redacted,
   * the block's data), OpenAI's encrypted reasoning.
   */
  signature?: string;
  /** Claude redacted this thinking: there is no text, only `signature` to send back. */
  redacted?: true;
}

/**
 * What a message is made of: a user's files come before their text, a reply's thinking before its
 * answer. A reply that used tools is one assistant message whose parts keep the order they came in:
 * thinking, text, the calls the model asked for, then their results (each after its call), then
 * more thinking and text as the model goes on (docs/behaviour.md#tool-calls-in-a-reply).
 */
export type MessagePart =
  TextPart | ReasoningPart | AttachmentPart | ToolCallPart | ToolResultPart | CodeRunPart;

export interface Message {
  /** Unique within its conversation, stable for the message's life (React key, merge key). */
  id: string;
  /** Null only for the root: the conversation's system message. */
  parentId: string | null;
  role: Role;
  parts: MessagePart[];
  /** ISO timestamp; siblings are ordered by it. */
  createdAt: string;
  /** Set when the content was replaced in place (the system prompt): the newer edit wins a merge. */
  editedAt?: string;
  /** Assistant replies: who wrote them. */
  provider?: ProviderId;
  model?: string;
  /**
   * Set on an assistant reply that stopped before it finished: 'interrupted' by an error (with
   * `error` saying why) or 'stopped' by the user. Absent on a complete reply.
   */
  status?: 'interrupted' | 'stopped';
  /** Why a reply was interrupted; on a question left unanswered, why its request failed. */
  error?: string;
  /** How the reply was obtained, when the user should know (a field the model refused was left out). */
  notices?: string[];
  /** Assistant replies: the provider's token counts, timings and how the reply ended. */
  stats?: ReplyStats;
  /** Assistant replies that searched the web (the provider's own search): searches, sources, citations. */
  web?: WebResearch;
  /** A question asked of several models at once (domain/compare.ts): its replies shown side by side. */
  compared?: ComparedTurn;
  /** A reply that merged compared replies ('Fuse'): the ids of the replies it came from. */
  fusedFrom?: string[];
}

/**
 * The replies of a compared question, in column order (a fused reply after them), and whether the
 * user has continued with one of them (the columns then fold into the usual versions).
 */
export interface ComparedTurn {
  replyIds: string[];
  chosen?: true;
}

export interface ModelPin {
  provider: ProviderId;
  model: string;
  /** For an OpenAI-compatible endpoint: which one. */
  endpointId?: string;
}

/**
 * A tree of messages with one active leaf. What the list shows, what is sent, copied and
 * exported as "the messages" is the path from the root to that leaf (see message-tree.ts).
 */
export interface Conversation {
  id: string;
  name: string;
  /** Every message of every branch, the root system message first. */
  messages: Message[];
  activeLeafId: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  /**
   * When it was last written in (a message added, a reply finished): the list's order and date
   * groups. Absent: updatedAt (data of earlier releases, a conversation never touched since).
   */
  activeAt?: string;
  /** When the name was last set by a rename: of two copies, the later rename wins a merge. */
  renamedAt?: string;
  /** The provider at the last update. */
  provider: ProviderId;
  /**
   * The provider and model this conversation asks, chosen in its model picker. Without one it
   * follows the saved configuration (docs/behaviour.md#model-per-conversation).
   */
  pin?: ModelPin;
  /** When the pin or the compare set was last chosen: of two copies, the later choice wins a merge. */
  pinnedAt?: string;
  /**
   * 'Compare': the 2 to 4 models each new message is asked of at once, until one model is chosen
   * again (domain/compare.ts). Absent: the conversation asks one model.
   */
  compare?: ModelPin[];
  /** 'Reasoning effort' in 'Conversation settings'; absent: the model's own default. */
  effort?: ReasoningEffort;
  /** When the effort was last chosen: of two copies, the later choice wins a merge. */
  effortAt?: string;
  /**
   * Tool sources switched on or off in this conversation, by source id (ToolSource.id). Absent:
   * the built-in tools are off, every connected server's are on.
   */
  toolSwitches?: Record<string, boolean>;
  /** When a source was last switched here: of two copies, the later change wins a merge. */
  toolSwitchesAt?: string;
  /**
   * Versions of artifacts the user edited and saved ('Save as version' in the artifact panel),
   * each placed after the reply whose version it was made from (domain/artifacts.ts). Merged
   * between copies by id, like messages.
   */
  artifactEdits?: ArtifactEdit[];
  /**
   * Roots of deleted subtrees: a copy still holding them (another tab) merges without bringing
   * them back. Their descendants go with them, since a message without its parent is dropped.
   */
  deletedIds?: string[];
  /** The order it was stored in, which exports keep (the sidebar orders by activeAt). */
  order: number;
  /** Pinned to the top of the list, or archived (hidden from it, still found); absent: neither. */
  place?: ConversationPlace;
  /** When it was last pinned, archived or put back: of two copies, the later change wins a merge. */
  placedAt?: string;
  /** The project it belongs to (at most one: domain/projects.ts); absent: none. */
  projectId?: string;
  /** When it was last moved into or out of a project: of two copies, the later move wins a merge. */
  projectAt?: string;
}

/** An artifact's version the user wrote (see Conversation.artifactEdits). */
export interface ArtifactEdit {
  id: string;
  /** The artifact's key (its folded name). */
  key: string;
  language: string;
  code: string;
  /** The reply whose version it was made from: it comes after that reply's versions. */
  afterMessageId: string;
  /** ISO timestamp; edits after the same reply are in this order. */
  savedAt: string;
}

export type ConversationPlace = 'pinned' | 'archived';
export const conversationPlaces: readonly ConversationPlace[] = ['pinned', 'archived'];

export const defaultSystemPrompt = 'You are a helpful assistant.';

/**
 * The text of a message, its answer without any reasoning or tool: its text parts, joined. Where
 * other parts come between two texts (a reply that called tools and went on), a blank line goes
 * between them, so the answer reads as paragraphs rather than run-on sentences.
 */
export function messageText(message: Pick<Message, 'parts'>): string {
  let text = '';
  let apart = false;
  for (const part of message.parts) {
    if (part.type !== 'text') {
      apart = true;
    } else if (part.text !== '') {
      text += apart && text !== '' ? `\n\n${part.text}` : part.text;
      apart = false;
    }
  }
  return text;
}

/**
 * Whether anything is there: text, reasoning (text, or a signature to send back), a file, or a
 * tool call or result (a reply that only called tools has said something).
 */
export function hasContent(message: Pick<Message, 'parts'>): boolean {
  return message.parts.some((part) => {
    switch (part.type) {
      case 'text':
        return part.text !== '';
      case 'reasoning':
        return part.text !== '' || Boolean(part.signature);
      case 'attachment':
      case 'tool-call':
      case 'tool-result':
      case 'code-run':
        return true;
    }
  });
}

export function reasoningParts(message: Pick<Message, 'parts'>): ReasoningPart[] {
  return message.parts.filter((part) => part.type === 'reasoning');
}

export function attachmentParts(message: Pick<Message, 'parts'>): AttachmentPart[] {
  return message.parts.filter((part) => part.type === 'attachment');
}

/** The provider's own code runs in a reply, in order. */
export function codeRunParts(message: Pick<Message, 'parts'>): CodeRunPart[] {
  return message.parts.filter((part) => part.type === 'code-run');
}

/** The calls a reply asked for, in order. */
export function toolCallParts(message: Pick<Message, 'parts'>): ToolCallPart[] {
  return message.parts.filter((part) => part.type === 'tool-call');
}

/** What came back for a reply's calls, in order. */
export function toolResultParts(message: Pick<Message, 'parts'>): ToolResultPart[] {
  return message.parts.filter((part) => part.type === 'tool-result');
}

/** The stored files a part refers to: a user's file, a drawn picture, a run's files, a tool's images. */
function partFileIds(part: MessagePart): string[] {
  if (part.type === 'attachment') return [part.id];
  if (part.type === 'code-run') return part.files.map((file) => file.id);
  if (part.type !== 'tool-result') return [];
  return part.content.flatMap((item) => (item.type === 'image' ? [item.attachmentId] : []));
}

/**
 * Every file the conversation's messages hold, on any branch, tools' images included: what its
 * stored bytes must match (storage deletes the rest, an export carries these).
 */
export function attachmentIds(conversation: Pick<Conversation, 'messages'>): Set<string> {
  const ids = new Set<string>();
  for (const message of conversation.messages)
    for (const part of message.parts) for (const id of partFileIds(part)) ids.add(id);
  return ids;
}

/**
 * The message with the files it refers to renamed (`ids`: old id → new id; others stay): for a
 * copy that stores its own files (a branch).
 */
export function withFileIds(message: Message, ids: ReadonlyMap<string, string>): Message {
  if (!message.parts.some((part) => partFileIds(part).some((id) => ids.has(id)))) return message;
  return {
    ...message,
    parts: message.parts.map((part): MessagePart => {
      if (part.type === 'attachment') return { ...part, id: ids.get(part.id) ?? part.id };
      if (part.type === 'code-run')
        return { ...part, files: part.files.map((file) => ({ ...file, id: ids.get(file.id) ?? file.id })) };
      if (part.type !== 'tool-result') return part;
      return {
        ...part,
        content: part.content.map((item) =>
          item.type === 'image'
            ? { ...item, attachmentId: ids.get(item.attachmentId) ?? item.attachmentId }
            : item,
        ),
      };
    }),
  };
}

export function textParts(text: string): MessagePart[] {
  return [{ type: 'text', text }];
}
