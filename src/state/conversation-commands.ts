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
import { broadcast, db, persistChange, persistConversation, unpersistConversation } from './persistence.ts';

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
  const stored = await db().read(id);
  if (getState().loaded[id]) return getState().loaded[id];
  if (stored.status === 'ok') {
    commitConversation(stored.conversation);
    return stored.conversation;
  }
  // Listed (its summary reads fine) but its record is gone or damaged: skip it, never a blank screen.
  const row = getState().list.find((item) => item.id === id);
  if (!row) return undefined;
  forgetConversation(id);
  if (getState().activeId === id) setActive(pickActiveId(getState().list, null));
  if (stored.status === 'unreadable') {
    // Later starts then count it as skipped instead of listing it; the record itself is kept.
    void db().dropSummary(id);
    notify.warning(
      '1 saved conversation could not be read and was skipped',
      `"${row.name}" is damaged in this browser's storage; your other conversations are fine.`,
    );
  }
  return undefined;
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
 * Applies a change to the latest stored copy, in one transaction, so a change made here does not
 * overwrite what another tab wrote meanwhile (e.g. a reply streaming there).
 */
async function mutateConversation(id: string, change: (conversation: Conversation) => Conversation) {
  const loaded = await ensureLoaded(id);
  if (!loaded) return;
  const next = await persistChange(id, (stored) => {
    const local = getState().loaded[id] ?? loaded;
    const latest = stored ?? local;
    // A reply streaming in this tab is newer than storage: keep our messages.
    const base = getState().streamingId === id ? { ...latest, messages: local.messages } : latest;
    const changed = change(base);
    return changed === base ? stored : changed;
  });
  if (!next) return;
  const local = getState().loaded[id];
  commitConversation(getState().streamingId === id && local ? { ...next, messages: local.messages } : next);
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
  await unpersistConversation(id);
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
