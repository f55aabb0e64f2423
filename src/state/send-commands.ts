import type { Conversation, Message } from '../domain/conversation.ts';
import { providerLabel } from '../domain/provider-catalog.ts';
import { createFrameBatcher, createThrottle } from '../lib/frame-batcher.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import type { ChatMessage } from '../providers/types.ts';
import { commitConversation, getState, setState } from './chat-store.ts';
import { ensureLoaded } from './conversation-commands.ts';
import { notify } from './notify.ts';
import { persistConversation, persistMessages } from './persistence.ts';

/** While streaming, the reply is saved at most this often (and on page hide). */
const streamingSaveIntervalMs = 1000;
/** Streamed text is shown at most every 25 ms: each other frame at 60 Hz, 40 times a second at 120 Hz. */
const streamedTextIntervalMs = 25;

interface ActiveStream {
  conversationId: string;
  controller: AbortController;
  /** Saves the reply as it stands now (page hide). */
  saveNow(): void;
}

let activeStream: ActiveStream | null = null;

/**
 * Sends the composer's text. Returns true when the message was taken (the composer then clears);
 * false leaves the draft where it is.
 */
export async function sendMessage(text: string): Promise<boolean> {
  const content = text.trim();
  const { activeId, service, config, isLoading } = getState();
  if (!content || !activeId || isLoading) return false;
  if (!service) {
    notify.error(`Please configure ${providerLabel(config.provider)} settings first`);
    return false;
  }
  const conversation = await ensureLoaded(activeId);
  if (!conversation) return false;
  const withUser = touch(conversation, [...conversation.messages, { role: 'user', content }]);
  commitConversation(withUser);
  void saveMessages(withUser);
  void streamReply(withUser);
  return true;
}

/** Asks again for the reply to the last user message, replacing an interrupted reply. */
export async function retryLastReply(conversationId: string): Promise<void> {
  const { service, config, isLoading } = getState();
  if (isLoading) return;
  if (!service) {
    notify.error(`Please configure ${providerLabel(config.provider)} settings first`);
    return;
  }
  const conversation = await ensureLoaded(conversationId);
  const last = conversation?.messages.at(-1);
  if (!conversation || !last) return;
  const messages = last.role === 'assistant' ? conversation.messages.slice(0, -1) : conversation.messages;
  if (messages.at(-1)?.role !== 'user') return;
  const base = touch(conversation, messages);
  commitConversation(base);
  await streamReply(base);
}

/** Stop: aborts the request and keeps what had arrived. */
export function stopReply(): void {
  activeStream?.controller.abort();
}

/** Saves a reply that is still streaming (the page is being hidden or closed). */
export function saveStreamingReply(): void {
  activeStream?.saveNow();
}

/** Saves our messages; a name given in another tab meanwhile is kept, here too. */
async function saveMessages(conversation: Conversation): Promise<void> {
  const name = await persistMessages(conversation);
  const local = getState().loaded[conversation.id];
  if (local && local.name !== name) commitConversation({ ...local, name });
}

function touch(conversation: Conversation, messages: Message[]): Conversation {
  return {
    ...conversation,
    messages,
    updatedAt: new Date().toISOString(),
    provider: getState().config.provider,
  };
}

function toChatMessages(messages: readonly Message[]): ChatMessage[] {
  return messages.map(({ role, content }) => ({ role, content }));
}

async function streamReply(base: Conversation): Promise<void> {
  const service = getState().service;
  if (!service) return;
  const providerName = providerLabel(service.id);
  const history = toChatMessages(base.messages);
  const controller = new AbortController();
  let text = '';

  // The latest conversation, with the reply as it stands; storage and screen read it from here.
  const current = (reply: Message | null): Conversation => {
    const latest = getState().loaded[base.id] ?? base;
    return { ...latest, messages: reply ? [...base.messages, reply] : base.messages };
  };
  const render = createFrameBatcher(
    () => commitConversation(current({ role: 'assistant', content: text })),
    streamedTextIntervalMs,
  );
  const partial = () => current({ role: 'assistant', content: text, status: 'interrupted' });
  const periodicSave = createThrottle(() => void saveMessages(partial()), streamingSaveIntervalMs);
  // The page is going away: one plain write, issued at once (no read first), so it lands.
  const saveNow = () => void persistConversation(partial());

  activeStream = { conversationId: base.id, controller, saveNow };
  commitConversation(current({ role: 'assistant', content: '' }));
  setState({ isLoading: true, streamingId: base.id });

  let final: Message | null;
  try {
    for await (const part of service.chat({ messages: history, signal: controller.signal })) {
      if (part.type !== 'text-delta') continue;
      text += part.text;
      render.schedule();
      periodicSave.call();
    }
    final = { role: 'assistant', content: text };
  } catch (error) {
    const aborted = controller.signal.aborted || (isProviderError(error) && error.kind === 'aborted');
    if (aborted) {
      final = text ? { role: 'assistant', content: text, status: 'stopped' } : null;
    } else {
      console.error(`Error calling ${providerName} API`, error);
      const description = isProviderError(error)
        ? describeProviderError(error)
        : error instanceof Error
          ? error.message
          : String(error);
      notify.error(`Error calling ${providerName} API`, description, {
        label: 'Retry',
        onClick: () => void retryLastReply(base.id),
      });
      final = text ? { role: 'assistant', content: text, status: 'interrupted', error: description } : null;
    }
  } finally {
    periodicSave.cancel();
  }
  // The final state is committed below in one render.
  render.cancel();
  const done = current(final);
  commitConversation(done);
  // Until the final save has landed, a page hide writes the finished reply at once.
  const stream = activeStream;
  if (stream) stream.saveNow = () => void persistConversation(done);
  setState({ isLoading: false, streamingId: null });
  await saveMessages(done);
  if (activeStream === stream) activeStream = null;
}
