import { readSyncSettings, type SyncSettings } from '../domain/sync-settings.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { storageKeys } from './keys.ts';
import { parsed, storeJson } from './local-settings.ts';

/** Sync's set-up and progress in localStorage (docs/sync.md); a failed write lasts this visit. */

export const loadSyncSettings = (): SyncSettings => readSyncSettings(parsed(storageKeys.sync));

export const saveSyncSettings = (settings: SyncSettings): boolean => storeJson(storageKeys.sync, settings).ok;

export interface SyncProgress {
  /** The server's changes feed position (its database and address with it: a new server starts over). */
  server: string;
  since: string;
  /** Conversations deleted here whose deletion has not reached the server yet. */
  deletions: string[];
  /** Each conversation's `updatedAt` when it was last sent: one saved since is sent at start. */
  sent: Record<string, string>;
}

export function loadSyncProgress(server: string): SyncProgress {
  const fresh: SyncProgress = { server, since: '0', deletions: [], sent: {} };
  const value = parsed(storageKeys.syncProgress);
  if (!isRecord(value) || ownField(value, 'server') !== server) return fresh;
  const since = ownField(value, 'since');
  const deletions = ownField(value, 'deletions');
  const sent = ownField(value, 'sent');
  return {
    server,
    since: typeof since === 'string' && since.length <= 1000 ? since : '0',
    deletions: Array.isArray(deletions)
      ? deletions.filter((id): id is string => typeof id === 'string').slice(0, 100_000)
      : [],
    sent: isRecord(sent)
      ? Object.fromEntries(
          Object.entries(sent).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : {},
  };
}

export const saveSyncProgress = (progress: SyncProgress): boolean =>
  storeJson(storageKeys.syncProgress, progress).ok;
