import { isRecord, ownField } from './json-guards.ts';

/**
 * Sync through a CouchDB the user owns (docs/sync.md): where, as whom, and whether it runs. The
 * password is kept apart, like an API key (`syncPasswordKey`, kept-secrets.ts).
 */
export interface SyncSettings {
  /** The server: https, or http on this computer. */
  url: string;
  database: string;
  username: string;
  /** Sync is on (set up and tested). */
  on: boolean;
  /** On, but paused by the user. */
  paused: boolean;
  /**
   * Sealed end to end (docs/sync.md#end-to-end-encryption) with a key derived from the key lock's
   * passphrase, kept with the API keys (`syncKeyKey`).
   */
  encrypted: boolean;
  /** The API keys sync too, with their connections: only ever sealed (with `encrypted`). */
  syncKeys: boolean;
}

export { syncKeyKey, syncPasswordKey } from './kept-secrets.ts';

export const emptySyncSettings: SyncSettings = {
  url: '',
  database: 'byok-chat',
  username: '',
  on: false,
  paused: false,
  encrypted: false,
  syncKeys: false,
};

const loopback = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What is wrong with the address, database or user, in one sentence; null when nothing is. */
export function syncSettingsProblem({
  url,
  database,
  username,
}: Pick<SyncSettings, 'url' | 'database' | 'username'>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return 'The server must be a full address, such as https://couch.example.com or http://127.0.0.1:5984.';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback.has(parsed.hostname)))
    return 'The server must be https (or http on this computer: localhost, 127.0.0.1).';
  if (parsed.username || parsed.password)
    return 'Put the user and password in their own fields, not in the address.';
  // CouchDB's rule for database names.
  if (!/^[a-z][a-z0-9_$()+/-]{0,237}$/.test(database))
    return 'The database name starts with a lower-case letter, then lower-case letters, digits or _$()+-/ (at most 238).';
  if (username.trim() === '') return 'Give the user name the server knows you by.';
  return null;
}

/** Stored settings read back; what does not read is the empty set-up (sync off). */
export function readSyncSettings(value: unknown): SyncSettings {
  if (!isRecord(value)) return emptySyncSettings;
  const text = (name: string, max: number) => {
    const field = ownField(value, name);
    return typeof field === 'string' && field.length <= max ? field : undefined;
  };
  const settings: SyncSettings = {
    url: text('url', 2000) ?? '',
    database: text('database', 238) ?? emptySyncSettings.database,
    username: text('username', 500) ?? '',
    on: ownField(value, 'on') === true,
    paused: ownField(value, 'paused') === true,
    encrypted: ownField(value, 'encrypted') === true,
    syncKeys: ownField(value, 'encrypted') === true && ownField(value, 'syncKeys') === true,
  };
  // A set-up that does not hold together is not run.
  return settings.on && syncSettingsProblem(settings) !== null ? { ...settings, on: false } : settings;
}

/** Where sync stands, always shown while it is on. */
export type SyncStatus =
  /** `tooLarge`: records the server refused as too large, left on this device. */
  | { kind: 'synced'; tooLarge?: number }
  | { kind: 'syncing'; changes: number }
  | { kind: 'offline' }
  | { kind: 'paused' }
  | { kind: 'error'; message: string };

export function syncStatusText(status: SyncStatus): string {
  switch (status.kind) {
    case 'synced':
      return status.tooLarge
        ? `Synced, but ${status.tooLarge} ${status.tooLarge === 1 ? 'record is' : 'records are'} larger than the server takes and stay${status.tooLarge === 1 ? 's' : ''} on this device`
        : 'Synced';
    case 'syncing':
      return status.changes > 0
        ? `Syncing ${status.changes} change${status.changes === 1 ? '' : 's'}`
        : 'Syncing';
    case 'offline':
      return 'Offline: changes wait here until the server answers';
    case 'paused':
      return 'Sync paused';
    case 'error':
      return `Sync stopped: ${status.message}`;
  }
}
