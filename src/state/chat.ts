import { createChatProvider } from '../providers/registry.ts';
import { openConversationDb } from '../storage/conversation-db.ts';
import { createTabSync } from '../storage/tab-sync.ts';
import { createChatController } from './chat-controller.ts';
import { notify } from './notify.ts';

/** The app's one chat controller, made with the browser's real dependencies. */
export const chat = createChatController({
  createProvider: createChatProvider,
  openConversationStore: () => openConversationDb(),
  tabSync: createTabSync(),
  notify,
  now: () => new Date(),
  newId: () => crypto.randomUUID(),
});

export type { ChatState, ConversationListItem, Theme } from './chat-store.ts';
