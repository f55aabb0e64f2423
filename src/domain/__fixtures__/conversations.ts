import type { AttachmentPart } from '../attachments.ts';
import type { ProviderId } from '../config.ts';
import {
  defaultSystemPrompt,
  messageText,
  textParts,
  type Conversation,
  type Message,
  type Role,
} from '../conversation.ts';
import { activePath } from '../message-tree.ts';
import type { ToolCallPart, ToolResultContent, ToolResultPart } from '../tools.ts';

/**
 * One builder for conversations and messages in tests. Messages are the new model's (id, parentId,
 * parts); `legacyRecord` gives the first release's written form (role and content, no ids).
 */

export const defaultCreatedAt = '2024-01-01T00:00:00.000Z';

/** `minutes` after 2024-01-01T00:00Z, as an ISO timestamp: distinct, ordered creation times. */
export function minute(minutes: number): string {
  return new Date(Date.parse(defaultCreatedAt) + minutes * 60_000).toISOString();
}

/** A message; `createdAt` defaults to 2024-01-01T00:00Z. */
export function message(
  id: string,
  parentId: string | null,
  role: Role,
  text: string,
  extra: Partial<Omit<Message, 'id' | 'parentId' | 'role' | 'parts'>> = {},
): Message {
  return { id, parentId, role, parts: textParts(text), createdAt: defaultCreatedAt, ...extra };
}

/** A file part: a small PNG unless told otherwise. */
export function attachment(
  id: string,
  extra: Partial<Omit<AttachmentPart, 'type' | 'id'>> = {},
): AttachmentPart {
  return {
    type: 'attachment',
    id,
    kind: 'image',
    name: `${id}.png`,
    mimeType: 'image/png',
    size: 68,
    width: 1,
    height: 1,
    ...extra,
  };
}

/** The message with these files before its text, as a user's message holds them. */
export function withFiles(message: Message, ...files: AttachmentPart[]): Message {
  return { ...message, parts: [...files, ...message.parts] };
}

/** A tool call part; arguments default to `{}`. */
export function toolCall(
  callId: string,
  name: string,
  args = '{}',
  extra: Partial<Pick<ToolCallPart, 'server' | 'providerData'>> = {},
): ToolCallPart {
  return { type: 'tool-call', callId, name, arguments: args, ...extra };
}

/** A tool result part: a text, or the given pieces. */
export function toolResult(
  callId: string,
  name: string,
  content: string | ToolResultContent[],
  extra: Partial<Pick<ToolResultPart, 'isError'>> = {},
): ToolResultPart {
  const pieces = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
  return { type: 'tool-result', callId, name, content: pieces, ...extra };
}

/**
 * A reply that used tools, as the tool loop writes one: thinking, text, two calls, their results
 * (the second failed, with an image), then more thinking and the answer.
 */
export function toolReply(id: string, parentId: string, extra: Partial<Message> = {}): Message {
  return {
    ...message(id, parentId, 'assistant', '', { provider: 'gemini', model: 'gemini-2.5-pro' }),
    parts: [
      { type: 'reasoning', text: 'I need the weather.', signature: 'sig-1' },
      { type: 'text', text: 'Let me look that up.' },
      toolCall('call-1', 'get_weather', '{"city":"Lisbon"}', {
        server: 'builtin',
        providerData: { provider: 'gemini', model: 'gemini-2.5-pro', data: { thoughtSignature: 'abc' } },
      }),
      toolCall('call-2', 'get_map', '{"city":"Lisbon", oops'),
      toolResult('call-1', 'get_weather', '18 °C and sunny'),
      toolResult(
        'call-2',
        'get_map',
        [
          { type: 'text', text: 'Arguments were not JSON' },
          { type: 'image', attachmentId: 'tool-img-1', mimeType: 'image/png' },
        ],
        { isError: true },
      ),
      { type: 'reasoning', text: 'Now answer.' },
      { type: 'text', text: 'It is 18 °C and sunny in Lisbon.' },
    ],
    ...extra,
  };
}

/** A reply that ran code (a plot and a CSV) and drew a picture it can edit, on OpenAI. */
export function codeAndPictureReply(id: string, parentId: string, extra: Partial<Message> = {}): Message {
  return {
    ...message(id, parentId, 'assistant', '', { provider: 'openai', model: 'gpt-5' }),
    parts: [
      { type: 'text', text: 'Let me compute.' },
      {
        type: 'code-run',
        id: 'ci_1',
        language: 'python',
        code: 'print(sum(i*i for i in range(6)))',
        output: '55\n',
        files: [
          { id: 'run-plot', name: 'plot.png', mimeType: 'image/png', size: 8 },
          { id: 'run-csv', name: 'squares.csv', mimeType: 'text/csv', size: 6 },
        ],
      },
      {
        type: 'code-run',
        id: 'ci_2',
        language: 'python',
        code: '1/0',
        output: '',
        stderr: 'ZeroDivisionError',
        failed: 'failed',
        files: [],
      },
      {
        type: 'attachment',
        id: 'drawn-1',
        kind: 'image',
        name: 'image-1.png',
        mimeType: 'image/png',
        size: 8,
        providerData: { provider: 'openai', model: 'gpt-5', data: { imageCallId: 'ig_1' } },
      },
      { type: 'text', text: 'The sum is 55.' },
    ],
    ...extra,
  };
}

export interface ConversationOptions {
  name?: string;
  createdAt?: string;
  /** Defaults to createdAt. */
  updatedAt?: string;
  provider?: ProviderId;
  /** Defaults to 0. */
  order?: number;
  renamedAt?: string;
  deletedIds?: string[];
}

function shell(id: string, options: ConversationOptions): Omit<Conversation, 'messages' | 'activeLeafId'> {
  const createdAt = options.createdAt ?? defaultCreatedAt;
  const conversation: Omit<Conversation, 'messages' | 'activeLeafId'> = {
    id,
    name: options.name ?? `Chat ${id}`,
    createdAt,
    updatedAt: options.updatedAt ?? createdAt,
    provider: options.provider ?? 'openai',
    order: options.order ?? 0,
  };
  if (options.renamedAt !== undefined) conversation.renamedAt = options.renamedAt;
  if (options.deletedIds !== undefined) conversation.deletedIds = options.deletedIds;
  return conversation;
}

/** A turn of a linear conversation: its text, or its text with the message's other fields. */
export type Turn =
  | string
  | ({ text: string; role?: 'user' | 'assistant' } & Partial<
      Pick<Message, 'status' | 'error' | 'provider' | 'model' | 'notices'>
    >);

export interface LinearOptions extends ConversationOptions {
  /**
   * The root system prompt (default: the default prompt). Null: the first release's conversation
   * without a system message, as it reads today: an empty root `${id}:root` before the turns.
   */
  system?: string | null;
}

/**
 * A conversation without branches, exactly as a first-release record of it reads: ids
 * `${id}:${index}` (the system message is index 0), every message created with the conversation,
 * the active leaf its last message. Turns alternate user and assistant unless a role is given.
 */
export function linearConversation(
  id: string,
  turns: readonly Turn[] = [],
  options: LinearOptions = {},
): Conversation {
  const base = shell(id, options);
  const at = base.createdAt;
  const system = options.system === undefined ? defaultSystemPrompt : options.system;
  const messages: Message[] = [];
  const offset = system === null ? 0 : 1;
  if (system === null) messages.push(message(`${id}:root`, null, 'system', '', { createdAt: at }));
  else messages.push(message(`${id}:0`, null, 'system', system, { createdAt: at }));
  turns.forEach((turn, index) => {
    const { text, role, ...extra } = typeof turn === 'string' ? { text: turn } : turn;
    const parentId = (messages.at(-1) as Message).id;
    const fallbackRole = index % 2 === 0 ? 'user' : 'assistant';
    messages.push(
      message(`${id}:${index + offset}`, parentId, role ?? fallbackRole, text, { createdAt: at, ...extra }),
    );
  });
  return { ...base, messages, activeLeafId: (messages.at(-1) as Message).id };
}

/** A row of `treeConversation`: id, parent id, role, text and optionally more fields. */
export type Row = [
  id: string,
  parentId: string | null,
  role: Role,
  text: string,
  extra?: Partial<Omit<Message, 'id' | 'parentId' | 'role' | 'parts'>>,
];

/**
 * A conversation from rows in creation order: the n-th row (from 0) is created `n + 1` minutes
 * after 2024-01-01T00:00Z unless it says otherwise. The active leaf defaults to the last row.
 */
export function treeConversation(
  id: string,
  rows: readonly Row[],
  options: ConversationOptions & { activeLeafId?: string } = {},
): Conversation {
  const messages = rows.map(([messageId, parentId, role, text, extra], index) =>
    message(messageId, parentId, role, text, { createdAt: minute(index + 1), ...extra }),
  );
  const activeLeafId = options.activeLeafId ?? (messages.at(-1) as Message).id;
  return { ...shell(id, options), messages, activeLeafId };
}

/**
 * The conversation as the first release wrote it (to its database, its localStorage key and its
 * exports): the active path as role and content, with status and error; no ids, no order.
 */
export function legacyRecord(conversation: Conversation): Record<string, unknown> {
  const path = activePath(conversation).filter(
    (item) => !(item.parentId === null && item.id === `${conversation.id}:root`),
  );
  return {
    id: conversation.id,
    name: conversation.name,
    messages: path.map((item) => {
      const written: Record<string, unknown> = { role: item.role, content: messageText(item) };
      if (item.status) written.status = item.status;
      if (item.error !== undefined) written.error = item.error;
      return written;
    }),
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    provider: conversation.provider,
  };
}

/** The messages sorted by id: to compare trees whatever order their messages are listed in. */
export function byIdOrder(messages: readonly Message[]): Message[] {
  return [...messages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The conversation with its messages sorted by id (see byIdOrder). */
export function normalized(conversation: Conversation): Conversation {
  return { ...conversation, messages: byIdOrder(conversation.messages) };
}

/** The texts of messages, in order. */
export function texts(messages: readonly Message[]): string[] {
  return messages.map(messageText);
}

/** The ids of messages, in order. */
export function ids(messages: readonly Message[]): string[] {
  return messages.map((item) => item.id);
}

/** A counter for fresh ids: `${prefix}1`, `${prefix}2`, ... */
export function idCounter(prefix = 'new-'): () => string {
  let count = 0;
  return () => `${prefix}${++count}`;
}
