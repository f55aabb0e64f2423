import type { CreateChatProvider } from '../providers/types.ts';
import type { BackupRunner } from './backup-runner.ts';
import type { ImportWorker } from './import-runner.ts';
import type { ConversationStore } from '../storage/conversation-store.ts';
import type { TabSync } from '../storage/tab-sync.ts';
import type { ChatState, ChatStore } from './chat-store.ts';
import type { Notifier } from './notify.ts';

/** What the chat controller is made with: the browser's real ones in the app, fakes in tests. */
export interface ChatDependencies {
  createProvider: CreateChatProvider;
  /** Opens where conversations are kept; never rejects (see openConversationDb). */
  openConversationStore(): Promise<ConversationStore>;
  tabSync: TabSync;
  notify: Notifier;
  now(): Date;
  newId(): string;
  /** Takes a backup in a worker (backup-runner.ts); without it (tests) none is taken. */
  runBackup?: BackupRunner;
  /** Starts the import worker; without it, import.worker.ts (tests run its work on their thread). */
  startImportWorker?: () => ImportWorker;
}

/** What every command module shares: the state, the dependencies and the opened storage. */
export interface ChatContext extends Omit<
  ChatDependencies,
  'openConversationStore' | 'runBackup' | 'startImportWorker'
> {
  store: ChatStore;
  get(): ChatState;
  /** The conversation storage; set by boot before any command runs. */
  db(): ConversationStore;
}
