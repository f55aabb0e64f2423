import { readSyncSettings, type SyncSettings } from '../domain/sync-settings.ts';
import { isIsoTimestamp, isRecord, ownField } from '../domain/json-guards.ts';
import { storageKeys } from './keys.ts';
import { parsed, storeJson } from './local-settings.ts';

/** Sync's set-up and progress in localStorage (docs/sync.md); a failed write lasts this visit. */

export const loadSyncSettings = (): SyncSettings => readSyncSettings(parsed(storageKeys.sync));

export const saveSyncSettings = (settings: SyncSettings): boolean => storeJson(storageKeys.sync, settings).ok;

export interface SyncProgress {
  /** The server's changes feed position (its database and address with it: a new server starts over). */
  server: string;
  since: string;
  /** Records deleted here whose deletion has not reached the server yet, by document id (`{type}:{id}`). */
  deletions: string[];
  /** Each record's `updatedAt` when it was last sent, by document id: one changed since is sent at start. */
  sent: Record<string, string>;
  /** The files the server is known to have (their ids). */
  files: string[];
  /** Files larger than the server takes, left out of sync (their ids). */
  leftOut: string[];
  /** Records larger than the server takes (document ids): they stay on this device. */
  tooLarge: string[];
  /** The synced settings as last seen here (their stored text, keys out) and when they changed. */
  settings: { snapshot: string; at: string } | null;
}

export function loadSyncProgress(server: string): SyncProgress {
  const fresh: SyncProgress = {
    server,
    since: '0',
    deletions: [],
    sent: {},
    files: [],
    leftOut: [],
    tooLarge: [],
    settings: null,
  };
  const value = parsed(storageKeys.syncProgress);
  if (!isRecord(value) || ownField(value, 'server') !== server) return fresh;
  const since = ownField(value, 'since');
  const deletions = ownField(value, 'deletions');
  const sent = ownField(value, 'sent');
  const files = ownField(value, 'files');
  const leftOut = ownField(value, 'leftOut');
  const settings = ownField(value, 'settings');
  const snapshot = isRecord(settings) ? ownField(settings, 'snapshot') : undefined;
  const at = isRecord(settings) ? ownField(settings, 'at') : undefined;
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string').slice(0, 100_000) : [];
  return {
    server,
    since: typeof since === 'string' && since.length <= 1000 ? since : '0',
    deletions: strings(deletions),
    sent: isRecord(sent)
      ? Object.fromEntries(
          Object.entries(sent).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : {},
    files: strings(files),
    leftOut: strings(leftOut),
    tooLarge: strings(ownField(value, 'tooLarge')),
    settings: typeof snapshot === 'string' && isIsoTimestamp(at) ? { snapshot, at } : null,
  };
}

export const saveSyncProgress = (progress: SyncProgress): boolean =>
  storeJson(storageKeys.syncProgress, progress).ok;
