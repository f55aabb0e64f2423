import { wrap, type IDBPDatabase } from 'idb';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { storageKeys } from './keys.ts';

const { name, version, snapshotStore, snapshotKey } = storageKeys.searchDatabase;

/** A saved search index: the library's serialized form and the text key of each conversation in it. */
export interface IndexSnapshot {
  /** Changes when what is indexed or how does: a snapshot of another format is rebuilt. */
  format: number;
  index: string;
  keys: Record<string, string>;
}

export interface SnapshotStore {
  /** Undefined when none is saved, or it cannot be read. */
  load(): Promise<IndexSnapshot | undefined>;
  /** A failed save is only a slower next start: it never throws. */
  save(snapshot: IndexSnapshot): Promise<void>;
  close(): void;
}

function readSnapshot(value: unknown): IndexSnapshot | undefined {
  if (!isRecord(value)) return undefined;
  const format = ownField(value, 'format');
  const index = ownField(value, 'index');
  const keys = ownField(value, 'keys');
  if (typeof format !== 'number' || typeof index !== 'string' || !isRecord(keys)) return undefined;
  const checked: Record<string, string> = {};
  for (const [id, key] of Object.entries(keys)) if (typeof key === 'string') checked[id] = key;
  return { format, index, keys: checked };
}

/** The snapshot database; a store that keeps nothing when IndexedDB cannot be opened. */
export async function openSnapshotStore(
  factory: IDBFactory | undefined = globalThis.indexedDB,
): Promise<SnapshotStore> {
  const nothing: SnapshotStore = {
    load: async () => undefined,
    save: async () => undefined,
    close: () => undefined,
  };
  if (!factory) return nothing;
  try {
    const request = factory.open(name, version);
    request.addEventListener('upgradeneeded', () => {
      if (!request.result.objectStoreNames.contains(snapshotStore))
        request.result.createObjectStore(snapshotStore);
    });
    const db = await (wrap(request) as unknown as Promise<IDBPDatabase>);
    db.onversionchange = () => db.close();
    return {
      async load() {
        try {
          return readSnapshot(await db.get(snapshotStore, snapshotKey));
        } catch {
          return undefined;
        }
      },
      async save(snapshot) {
        try {
          await db.put(snapshotStore, snapshot, snapshotKey);
        } catch (error) {
          console.warn('Could not save the search index', error);
        }
      },
      close: () => db.close(),
    };
  } catch (error) {
    console.warn('Could not open the search index database', error);
    return nothing;
  }
}
