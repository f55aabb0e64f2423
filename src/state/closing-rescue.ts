import {
  attachmentIds,
  hasContent,
  messageText,
  type Conversation,
  type Message,
  type MessagePart,
} from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { findJsonHazard, isRecord, ownField } from '../domain/json-guards.ts';
import { appendMessage, findMessage, mergeConversations, replaceMessage } from '../domain/message-tree.ts';
import { readStoredConversation } from '../storage/conversation-store.ts';
import { storageKeys } from '../storage/keys.ts';
import type { StorageLike } from '../storage/local-settings.ts';
import type { ChatContext } from './chat-context.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { ReplyRunner } from './reply-runner.ts';

/**
 * The closing rescue. A write to IndexedDB issued as the page goes (`pagehide`) may never commit:
 * the browser may end the page's transactions first, and a tab closed mid-reply would come back
 * with the last periodic save, up to a second behind what it showed. A localStorage write is
 * synchronous, kept once `setItem` returns. So on close the replies not yet safely stored are also
 * written there, as a save would store them; the next start folds each into its stored
 * conversation through the usual read-merge-write (other tabs hear of it), then removes them.
 */

/** One reply as the closing page would have stored it, with its conversation (its parent is in it). */
export interface RescuedReply {
  conversationId: string;
  message: Message;
}

/**
 * Past these the rescue is not kept (it is read as nothing): localStorage holds about 5 MB for
 * everything of this site, and a reply this large still has its IndexedDB writes.
 */
export const rescueLimits = { chars: 1_000_000, replies: 20, idChars: 200 } as const;

const format = 1;

function serialize(entries: readonly string[]): string {
  return `{"format":${format},"replies":[${entries.join(',')}]}`;
}

/**
 * The reply as storage gives it back: written in the stored format and read as every stored
 * record is (under a stand-in root), so a malformed entry is refused or cleaned here and never
 * reaches a stored conversation. Null when it does not read.
 */
function asStored(message: Message): Message | null {
  const rootId = `${message.id}:root`;
  const at = message.createdAt;
  const probe: Conversation = {
    id: 'closing-rescue',
    name: '',
    messages: [
      { id: rootId, parentId: null, role: 'system', parts: [], createdAt: at },
      { ...message, parentId: rootId },
    ],
    activeLeafId: message.id,
    createdAt: at,
    updatedAt: at,
    provider: 'openai',
    order: 0,
  };
  try {
    const read = readStoredConversation(conversationRecord(probe));
    const reply = read && findMessage(read, message.id);
    return reply?.role === 'assistant' ? { ...reply, parentId: message.parentId } : null;
  } catch {
    return null;
  }
}

function readEntry(value: unknown): RescuedReply | null {
  if (!isRecord(value)) return null;
  const conversationId = ownField(value, 'conversationId');
  const message = ownField(value, 'message');
  const isId = (id: unknown): id is string =>
    typeof id === 'string' && id !== '' && id.length <= rescueLimits.idChars;
  if (!isId(conversationId) || !isRecord(message)) return null;
  if (!isId(ownField(message, 'id')) || !isId(ownField(message, 'parentId'))) return null;
  if (!Array.isArray(ownField(message, 'parts'))) return null;
  const stored = asStored(message as unknown as Message);
  return stored && { conversationId, message: stored };
}

/**
 * The rescued replies: null when there is no rescue; none when it is not one this release wrote
 * (not JSON, too large, another format). Malformed entries are left out.
 */
function readRescued(storage: StorageLike): RescuedReply[] | null {
  let raw: string | null;
  try {
    raw = storage.getItem(storageKeys.closingRescue);
  } catch {
    return null;
  }
  if (raw === null) return null;
  if (raw.length > rescueLimits.chars) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!isRecord(value) || findJsonHazard(value) || ownField(value, 'format') !== format) return [];
  const replies = ownField(value, 'replies');
  if (!Array.isArray(replies)) return [];
  return replies.slice(-rescueLimits.replies).flatMap((entry: unknown) => readEntry(entry) ?? []);
}

/**
 * Adds `replies` to the rescue, after those another tab closing left there (a reply kept again
 * replaces its earlier copy). Within the limits, the oldest go first; a reply too large alone is
 * not kept. False when nothing could be written (storage full or blocked): the page's IndexedDB
 * writes are then all there is.
 */
function keepRescued(storage: StorageLike, replies: readonly RescuedReply[]): boolean {
  const ids = new Set(replies.map((reply) => reply.message.id));
  const earlier = (readRescued(storage) ?? []).filter((reply) => !ids.has(reply.message.id));
  const entries = [...earlier, ...replies].map((reply) => JSON.stringify(reply));
  let chars = serialize(entries).length;
  while (entries.length > rescueLimits.replies || (entries.length > 0 && chars > rescueLimits.chars))
    chars -= (entries.shift() as string).length + 1;
  if (entries.length === 0) return false;
  try {
    storage.setItem(storageKeys.closingRescue, serialize(entries));
    return true;
  } catch {
    // QuotaExceededError, or storage blocked: never an error thrown as the page goes.
    return false;
  }
}

/**
 * Removes the replies folded in (and whatever of the rescue does not read). Read again first: a
 * tab closing meanwhile may have added its own, which stay for the next start.
 */
function forgetRescued(storage: StorageLike, settled: readonly RescuedReply[]): void {
  const done = new Set(settled.map((reply) => JSON.stringify(reply)));
  const left = (readRescued(storage) ?? [])
    .map((reply) => JSON.stringify(reply))
    .filter((entry) => !done.has(entry));
  try {
    if (left.length === 0) storage.removeItem(storageKeys.closingRescue);
    else storage.setItem(storageKeys.closingRescue, serialize(left));
  } catch {
    // Left for the next start, where it changes nothing already folded in.
  }
}

/**
 * The rescued reply without the files whose bytes were never stored (they were held in memory
 * until a write that did not land): no message refers to a file storage does not have.
 */
function withoutMissingFiles(message: Message, missing: ReadonlySet<string>): Message {
  if (missing.size === 0) return message;
  const parts = message.parts.flatMap((part): MessagePart[] => {
    if (part.type === 'attachment') return missing.has(part.id) ? [] : [part];
    if (part.type === 'code-run')
      return [{ ...part, files: part.files.filter((file) => !missing.has(file.id)) }];
    if (part.type === 'tool-result') {
      const content = part.content.filter((item) => item.type !== 'image' || !missing.has(item.attachmentId));
      return [{ ...part, content }];
    }
    return [part];
  });
  return { ...message, parts };
}

/**
 * Whether the rescued copy is the stored one further along: its text goes on from the stored
 * text, and it has every file the stored copy has. Otherwise the stored copy is another's (a tab
 * that continued the reply since) or already the further one, and it stays.
 */
function goesOn(rescued: Message, stored: Message): boolean {
  if (!messageText(rescued).startsWith(messageText(stored))) return false;
  const files = attachmentIds({ messages: [rescued] });
  return [...attachmentIds({ messages: [stored] })].every((id) => files.has(id));
}

/**
 * The stored conversation with the rescued reply (as readRescued gives it) folded in, or the
 * stored copy unchanged. A conversation no longer stored was deleted since, and stays deleted
 * (undefined: nothing written). The merge keeps every deletion (the reply, or the branch it is on,
 * deleted since stays deleted), drops a reply whose question is gone, and keeps the longer copy:
 * never a shorter one.
 */
function foldRescued(stored: Conversation | undefined, rescued: Message): Conversation | undefined {
  if (!stored) return undefined;
  const before = findMessage(stored, rescued.id);
  if (before && !goesOn(rescued, before)) return stored;
  const candidate = before ? replaceMessage(stored, rescued) : appendMessage(stored, rescued);
  const next = mergeConversations(stored, candidate);
  return findMessage(next, rescued.id) === rescued ? next : stored;
}

export function createClosingRescue({
  ctx,
  sync,
  replies,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  replies: ReplyRunner;
}) {
  /** Whether the bytes of a file are stored (nothing is held in memory yet at start). */
  async function isStored(id: string): Promise<boolean> {
    try {
      return (await ctx.db().readAttachment(id)) !== undefined;
    } catch {
      return false;
    }
  }

  return {
    /** The page is going away: the replies not yet safely stored, kept where the write lands. */
    keep(): void {
      const storage = ctx.settings.storage;
      // Not stored at all (private mode): there is nothing to fold them into.
      if (!storage || !ctx.get().persistent) return;
      const kept = replies.unsaved().flatMap(({ conversationId, replyId }) => {
        const message = sync.storedCopy(conversationId, replyId);
        return message ? [{ conversationId, message }] : [];
      });
      if (kept.length > 0) keepRescued(storage, kept);
    },

    /**
     * At start, before the conversations are read: each rescued reply folded into its stored
     * conversation, then removed. One whose write failed (storage full) stays for the next start.
     */
    async fold(): Promise<void> {
      const storage = ctx.settings.storage;
      const rescued = storage && readRescued(storage);
      if (!storage || !rescued) return;
      const settled: RescuedReply[] = [];
      for (const entry of rescued) {
        const ids = [...attachmentIds({ messages: [entry.message] })];
        const stored = await Promise.all(ids.map(isStored));
        const message = withoutMissingFiles(entry.message, new Set(ids.filter((_, index) => !stored[index])));
        // Nothing left but files that never landed: as a reply with nothing received, not stored.
        const folded =
          !hasContent(message) ||
          (await sync.saveStored(entry.conversationId, (copy) => foldRescued(copy, message)));
        if (folded) settled.push(entry);
      }
      forgetRescued(storage, settled);
    },
  };
}
