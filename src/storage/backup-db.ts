import { wrap, type IDBPDatabase } from 'idb';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { storageKeys } from './keys.ts';
import { storageFailure, storageOk, type StorageResult } from './result.ts';

const { name, version, infoStore, dataStore } = storageKeys.backupDatabase;

/** Why a backup was taken: the day's first, before the database changed shape, or asked for. */
export type BackupReason = 'daily' | 'upgrade' | 'manual';

export interface BackupInfo {
  id: string;
  /** ISO time. */
  takenAt: string;
  reason: BackupReason;
  conversations: number;
  /** Size of the stored (gzipped) export. */
  bytes: number;
  /** Of what it holds, whenever taken: the same conversations and settings, the same fingerprint. */
  fingerprint: string;
}

/** How many backups are kept, and how much room they may take together. */
export const backupPolicy = { keep: 5, maxBytes: 100 * 1024 * 1024 };

const reasons: readonly BackupReason[] = ['daily', 'upgrade', 'manual'];

function readInfo(value: unknown): BackupInfo | undefined {
  if (!isRecord(value)) return undefined;
  const [id, takenAt, reason, conversations, bytes, fingerprint] = [
    'id',
    'takenAt',
    'reason',
    'conversations',
    'bytes',
    'fingerprint',
  ].map((key) => ownField(value, key));
  if (
    typeof id !== 'string' ||
    typeof takenAt !== 'string' ||
    Number.isNaN(Date.parse(takenAt)) ||
    !reasons.includes(reason as BackupReason) ||
    typeof conversations !== 'number' ||
    typeof bytes !== 'number' ||
    typeof fingerprint !== 'string'
  )
    return undefined;
  return { id, takenAt, reason: reason as BackupReason, conversations, bytes, fingerprint };
}

const newestFirst = (a: BackupInfo, b: BackupInfo) => Date.parse(b.takenAt) - Date.parse(a.takenAt);

/**
 * The backups to drop once `added` is stored: going from the newest, each is kept while fewer
 * than `keep` are and it still fits in `maxBytes` with those kept; the rest go. The one just added
 * always stays (the caller checks it fits alone).
 */
export function backupsToDrop(
  existing: readonly BackupInfo[],
  added: BackupInfo,
  policy = backupPolicy,
): string[] {
  let total = added.bytes;
  let kept = 1;
  const drop: string[] = [];
  for (const info of [...existing].sort(newestFirst)) {
    if (kept < policy.keep && total + info.bytes <= policy.maxBytes) {
      kept++;
      total += info.bytes;
    } else drop.push(info.id);
  }
  return drop;
}

/** Whether a backup was taken on `now`'s day (local time) already. */
export function takenToday(backups: readonly BackupInfo[], now: Date): boolean {
  return backups.some((info) => new Date(info.takenAt).toDateString() === now.toDateString());
}

export interface BackupDb {
  /** Newest first; entries that do not read are left out. */
  list(): Promise<BackupInfo[]>;
  /** The gzipped export; undefined when it is gone. */
  read(id: string): Promise<Blob | undefined>;
  /** Stores a backup and drops what the policy no longer keeps, in one transaction. */
  save(info: BackupInfo, data: Blob, policy?: typeof backupPolicy): Promise<StorageResult>;
  close(): void;
}

type Database = IDBPDatabase<{
  backups: { key: string; value: unknown };
  'backup-data': { key: string; value: { id: string; data: Blob } };
}>;

/** The backup database, or null when IndexedDB cannot be opened here (then nothing is backed up). */
export async function openBackupDb(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<BackupDb | null> {
  if (!factory) return null;
  let db: Database;
  try {
    const request = factory.open(name, version);
    request.addEventListener('upgradeneeded', () => {
      const stores = request.result.objectStoreNames;
      if (!stores.contains(infoStore)) request.result.createObjectStore(infoStore, { keyPath: 'id' });
      if (!stores.contains(dataStore)) request.result.createObjectStore(dataStore, { keyPath: 'id' });
    });
    db = await (wrap(request) as unknown as Promise<Database>);
    db.onversionchange = () => db.close();
  } catch (error) {
    console.warn('Could not open the backup database', error);
    return null;
  }

  async function list(): Promise<BackupInfo[]> {
    const values = await db.getAll(infoStore);
    return values.flatMap((value) => readInfo(value) ?? []).sort(newestFirst);
  }

  return {
    list,
    async read(id) {
      return (await db.get(dataStore, id))?.data;
    },
    async save(info, data, policy = backupPolicy) {
      try {
        const tx = db.transaction([infoStore, dataStore], 'readwrite');
        const existing = (await tx.objectStore(infoStore).getAll()).flatMap((value) => readInfo(value) ?? []);
        const writes: Promise<unknown>[] = [
          tx.objectStore(dataStore).put({ id: info.id, data }),
          tx.objectStore(infoStore).put(info),
        ];
        for (const id of backupsToDrop(existing, info, policy))
          writes.push(tx.objectStore(infoStore).delete(id), tx.objectStore(dataStore).delete(id));
        await Promise.all([...writes, tx.done]);
        return storageOk();
      } catch (error) {
        return storageFailure(error);
      }
    },
    close: () => db.close(),
  };
}
