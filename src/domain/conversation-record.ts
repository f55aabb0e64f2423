import { messageText, type Conversation, type Message } from './conversation.ts';
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
}

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
  renamedAt?: string;
  deletedIds?: string[];
  pin?: Conversation['pin'];
  pinnedAt?: string;
}

function messageRecord(message: Message, onPath: boolean): MessageRecord {
  const { id, role, createdAt, editedAt, provider, model, status, error, notices, parentId } = message;
  const record: MessageRecord = { id, role, content: messageText(message), createdAt };
  if (!onPath && parentId !== null) record.parentId = parentId;
  if (editedAt) record.editedAt = editedAt;
  if (provider) record.provider = provider;
  if (model) record.model = model;
  if (status) record.status = status;
  if (error !== undefined) record.error = error;
  if (notices?.length) record.notices = [...notices];
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
  if (renamedAt) record.renamedAt = renamedAt;
  if (conversation.pin) record.pin = { ...conversation.pin };
  if (conversation.pinnedAt) record.pinnedAt = conversation.pinnedAt;
  if (deletedIds && deletedIds.length > 0) record.deletedIds = deletedIds;
  return record;
}
