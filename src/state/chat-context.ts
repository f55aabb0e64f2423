import type { CreateChatProvider } from '../providers/types.ts';
import type { BackupRunner } from './backup-runner.ts';
import type { ImportWorker } from './import-runner.ts';
import type { ConversationStore } from '../storage/conversation-store.ts';
import type { LocalSettings } from '../storage/local-settings.ts';
import type { TabSync } from '../storage/tab-sync.ts';
import type { ChatState, ChatStore } from './chat-store.ts';
import type { Notifier } from './notify.ts';
import type { FocusRequests, ViewStore } from './view-store.ts';
import type { ToolSource } from '../tools/tool-source.ts';

/** What the page tells the controller: the browser's events in the app (browser-page.ts), fakes in tests. */
export interface PageEvents {
  /** Another tab changed the stored settings. */
  onSettingsChanged(listener: () => void): void;
  /** The page is going away (the tab closed, a navigation): only writes issued at once land. */
  onClose(listener: () => void): void;
  /** The page was hidden (another tab, the app switched): it may be closed without another word. */
  onHidden(listener: () => void): void;
}

/** What the chat controller is made with: the browser's real ones in the app, fakes in tests. */
export interface ChatDependencies {
  createProvider: CreateChatProvider;
  /** Opens where conversations are kept; never rejects (see openConversationDb). */
  openConversationStore(): Promise<ConversationStore>;
  /** The configuration, keys, theme and drafts kept in this browser profile. */
  settings: LocalSettings;
  page: PageEvents;
  tabSync: TabSync;
  notify: Notifier;
  now(): Date;
  newId(): string;
  /** Takes a backup in a worker (backup-runner.ts); without it (tests) none is taken. */
  runBackup?: BackupRunner;
  /** Starts the import worker; without it, import.worker.ts (tests run its work on their thread). */
  startImportWorker?: () => ImportWorker;
  /** The tools that need no server; without it, the built-in ones (builtin-source.ts). */
  toolSources?: readonly ToolSource[];
}

/** What every command module shares: the state, the dependencies and the opened storage. */
export interface ChatContext extends Omit<
  ChatDependencies,
  'openConversationStore' | 'page' | 'runBackup' | 'startImportWorker' | 'toolSources'
> {
  store: ChatStore;
  get(): ChatState;
  /** The screen's chrome: a command may open an overlay or reveal a message. */
  view: ViewStore;
  focus: FocusRequests;
  /** The conversation storage; set by boot before any command runs. */
  db(): ConversationStore;
}
