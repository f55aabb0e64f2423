import { createChatProvider } from '../providers/registry.ts';
import { openConversationDb, pendingUpgrade } from '../storage/conversation-db.ts';
import { createLocalSettings } from '../storage/local-settings.ts';
import type { BackupRunner } from './backup-runner.ts';
import { browserPage } from './browser-page.ts';
import { createTabSync } from '../storage/tab-sync.ts';
import { createChatController } from './chat-controller.ts';
import { notify } from './notify.ts';

const settings = createLocalSettings();

/**
 * Backups are taken a minute after the start at the earliest (or before an upgrade): their
 * worker's starter loads then. A failed load rejects; backups.ts takes that as a failed backup.
 */
const runBackupWorker: BackupRunner = async (request) =>
  (await import('./backup-runner.ts')).runBackupWorker(request);

/** Opens the conversations; before an earlier release's data changes shape, a backup of it. */
async function openWithBackup() {
  // Unsure (the check failed), a backup is taken all the same.
  const legacyToMove = () =>
    settings.hasLegacyConversations() &&
    import('../storage/legacy-migration.ts')
      .then(({ legacyAwaitingMove }) => legacyAwaitingMove(globalThis.indexedDB, settings.storage ?? null))
      .catch(() => true);
  if ((await pendingUpgrade()) !== null || (await legacyToMove()))
    await import('./backups.ts')
      .then(({ backUpBeforeUpgrade }) => backUpBeforeUpgrade(runBackupWorker, settings, new Date()))
      .catch((error: unknown) => console.warn('No backup was taken before the upgrade', error));
  return openConversationDb();
}

/** The app's one chat controller, made with the browser's real dependencies. */
export const chat = createChatController({
  createProvider: createChatProvider,
  openConversationStore: openWithBackup,
  runBackup: runBackupWorker,
  settings,
  page: browserPage,
  tabSync: createTabSync(),
  notify,
  now: () => new Date(),
  newId: () => crypto.randomUUID(),
});

export type { ChatState, ConversationListItem, Theme } from './chat-store.ts';
export type { ViewState } from './view-store.ts';
