import type { Conversation } from '../domain/conversation.ts';
import {
  clearConversation as clearRule,
  conversationAsText,
  createConversation,
  pickActiveId,
  renameConversation as renameRule,
} from '../domain/conversation-rules.ts';
import { saveActiveId } from '../storage/local-settings.ts';
import { commitConversation, forgetConversation, getState, setState } from './chat-store.ts';
import { notify } from './notify.ts';
import { broadcast, db, persistConversation, reportWrite } from './persistence.ts';

function newId(): string {
  return crypto.randomUUID();
}

export function setActive(id: string | null): void {
  setState({ activeId: id });
  saveActiveId(id);
  broadcast({ type: 'active-changed', id });
  if (id) void ensureLoaded(id);
}

/** The conversation's messages, loading them from storage the first time it is opened. */
export async function ensureLoaded(id: string): Promise<Conversation | undefined> {
  const cached = getState().loaded[id];
  if (cached) return cached;
  const stored = await db().get(id);
  if (stored && !getState().loaded[id]) commitConversation(stored);
  return getState().loaded[id];
}

export async function newConversation(): Promise<void> {
  const { list, config } = getState();
  const conversation = createConversation({
    existingCount: list.length,
    provider: config.provider,
    now: new Date(),
    id: newId(),
  });
  commitConversation(conversation);
  setActive(conversation.id);
  await persistConversation(conversation);
}

export function selectConversation(id: string): void {
  if (getState().activeId !== id) setActive(id);
}

/**
 * Applies a change to the latest stored copy, so a change made here does not overwrite what
 * another tab wrote meanwhile (e.g. a reply streaming there).
 */
async function mutateConversation(id: string, change: (conversation: Conversation) => Conversation) {
  const latest = (await db().get(id)) ?? (await ensureLoaded(id));
  if (!latest) return;
  const local = getState().loaded[id];
  // A reply streaming in this tab is newer than storage: keep our messages.
  const base = local && getState().streamingId === id ? { ...latest, messages: local.messages } : latest;
  const next = change(base);
  if (next === base) return;
  commitConversation(next);
  await persistConversation(next);
}

export async function renameConversation(id: string, name: string): Promise<void> {
  await mutateConversation(id, (conversation) => renameRule(conversation, name, new Date()));
}

export async function clearConversation(id: string): Promise<void> {
  if (getState().streamingId === id) return;
  await mutateConversation(id, (conversation) => clearRule(conversation, new Date()));
  notify.success('Conversation cleared');
}

export async function deleteConversation(id: string): Promise<void> {
  const { activeId } = getState();
  forgetConversation(id);
  if (activeId === id) setActive(pickActiveId(getState().list, null));
  if (reportWrite(await db().delete(id))) broadcast({ type: 'conversation-deleted', id });
}

export async function copyConversation(id: string): Promise<void> {
  const conversation = await ensureLoaded(id);
  if (!conversation) return;
  try {
    await navigator.clipboard.writeText(conversationAsText(conversation));
    notify.success('Conversation copied to clipboard');
  } catch (error) {
    console.error('Clipboard write failed', error);
    notify.error('Could not copy to the clipboard', 'The browser refused clipboard access.');
  }
}
