import { isProviderId, providerIds, type ProviderId } from './config.ts';
import type { Conversation, Message, Role } from './conversation.ts';
import { describeType, isIsoTimestamp, isRecord, ownField, quote, type Validated } from './json-guards.ts';

export interface ConversationReadOptions {
  /** Replaces a missing timestamp. */
  now: Date;
  /** Used when a conversation carries no provider. */
  fallbackProvider: ProviderId;
}

const roles: readonly Role[] = ['system', 'user', 'assistant'];

function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

/** A fresh message with known fields only; a bad optional status or error is dropped, not fatal. */
export function validateMessage(value: unknown, path: string): Validated<Message> {
  if (!isRecord(value))
    return { ok: false, problem: `${path} must be an object (found ${describeType(value)})` };
  const role = ownField(value, 'role');
  if (!isRole(role)) return { ok: false, problem: `${path}.role must be system, user or assistant` };
  const content = ownField(value, 'content');
  if (typeof content !== 'string') {
    return { ok: false, problem: `${path}.content must be a string (found ${describeType(content)})` };
  }
  const message: Message = { role, content };
  const status = ownField(value, 'status');
  if (status === 'interrupted' || status === 'stopped') message.status = status;
  const error = ownField(value, 'error');
  if (typeof error === 'string') message.error = error;
  return { ok: true, value: message };
}

function readTimestamp(value: unknown, path: string, now: Date): Validated<string> {
  if (value === undefined || value === null) return { ok: true, value: now.toISOString() };
  if (isIsoTimestamp(value)) return { ok: true, value };
  return { ok: false, problem: `${path} must be an ISO timestamp` };
}

/** A fresh conversation copied field by field from untrusted data, or the first problem found. */
export function validateConversation(
  value: unknown,
  path: string,
  options: ConversationReadOptions,
): Validated<Conversation> {
  if (!isRecord(value))
    return { ok: false, problem: `${path} must be an object (found ${describeType(value)})` };
  const id = ownField(value, 'id');
  if (typeof id !== 'string' || id === '')
    return { ok: false, problem: `${path}.id must be a non-empty string` };
  const name = ownField(value, 'name');
  if (typeof name !== 'string') {
    return { ok: false, problem: `${path}.name must be a string (found ${describeType(name)})` };
  }
  const rawMessages = ownField(value, 'messages');
  if (!Array.isArray(rawMessages)) {
    return { ok: false, problem: `${path}.messages must be a list (found ${describeType(rawMessages)})` };
  }
  const messages: Message[] = [];
  for (let index = 0; index < rawMessages.length; index++) {
    const message = validateMessage(rawMessages[index], `${path}.messages[${index}]`);
    if (!message.ok) return message;
    messages.push(message.value);
  }
  const createdAt = readTimestamp(ownField(value, 'createdAt'), `${path}.createdAt`, options.now);
  if (!createdAt.ok) return createdAt;
  const updatedAt = readTimestamp(ownField(value, 'updatedAt'), `${path}.updatedAt`, options.now);
  if (!updatedAt.ok) return updatedAt;
  const rawProvider = ownField(value, 'provider');
  let provider = options.fallbackProvider;
  if (rawProvider !== undefined && rawProvider !== null) {
    if (!isProviderId(rawProvider)) {
      return { ok: false, problem: `${path}.provider must be one of ${providerIds.join(', ')}` };
    }
    provider = rawProvider;
  }
  return {
    ok: true,
    value: { id, name, messages, createdAt: createdAt.value, updatedAt: updatedAt.value, provider },
  };
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
