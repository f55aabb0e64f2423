import { base64OfBytes, bytesOfBase64 } from '../lib/base64.ts';
import { deriveKey, passphraseIterations, randomBytes, saltBytes } from '../lib/passphrase-crypto.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import type { CouchClient, CouchDocument } from './couch-client.ts';

/**
 * How a record and a file's bytes are held in the server's documents (docs/sync.md#end-to-end-encryption):
 * in the clear (`{ type, data }`), or sealed with AES-GCM under a key derived from the key lock's
 * passphrase (`{ sealed }`: the server holds only ciphertext and the ids it needs to replicate).
 */
export interface Sealer {
  /** The fields of the document `id` that hold the value. */
  seal(id: string, type: string, value: unknown): Promise<Record<string, unknown>>;
  /** The value the document `id` holds; undefined when it holds none this device can read. */
  open(id: string, document: CouchDocument): Promise<unknown>;
  sealBytes(id: string, blob: Blob): Promise<Blob>;
  /** The file's bytes; null when this device cannot read them. */
  openBytes(id: string, blob: Blob): Promise<Blob | null>;
}

export const plainSealer: Sealer = {
  seal: async (_id, type, value) => ({ type, data: value }),
  open: async (_id, document) => ('sealed' in document ? undefined : document['data']),
  sealBytes: async (_id, blob) => blob,
  openBytes: async (_id, blob) => blob,
};

const ivBytes = 12;
const boundTo = (id: string) => new TextEncoder().encode(id);

/**
 * Sealed for one document: its id is authenticated with it (AES-GCM's additional data), so a
 * server cannot pass one document's ciphertext off as another's.
 */
async function encrypt(
  key: CryptoKey,
  plain: Uint8Array<ArrayBuffer>,
  id: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const iv = randomBytes(ivBytes);
  const data = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: boundTo(id) }, key, plain),
  );
  const sealed = new Uint8Array(ivBytes + data.length);
  sealed.set(iv);
  sealed.set(data, ivBytes);
  return sealed;
}

/** The plain bytes; null when the key is not the one they were sealed with, or they were altered. */
async function decrypt(
  key: CryptoKey,
  sealed: Uint8Array<ArrayBuffer>,
  id: string,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (sealed.length <= ivBytes) return null;
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: sealed.slice(0, ivBytes), additionalData: boundTo(id) },
        key,
        sealed.slice(ivBytes),
      ),
    );
  } catch {
    return null;
  }
}

/** Values as JSON, sealed; a file's bytes sealed after its type (two bytes of length, then the type). */
export function encryptedSealer(key: CryptoKey): Sealer {
  return {
    async seal(id, type, value) {
      const plain = new TextEncoder().encode(JSON.stringify({ type, data: value }));
      return { sealed: base64OfBytes(await encrypt(key, plain, id)) };
    },
    async open(id, document) {
      const sealed = document['sealed'];
      if (typeof sealed !== 'string') return undefined;
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = bytesOfBase64(sealed);
      } catch {
        return undefined;
      }
      const plain = await decrypt(key, bytes, id);
      if (!plain) return undefined;
      try {
        const value: unknown = JSON.parse(new TextDecoder().decode(plain));
        return isRecord(value) ? ownField(value, 'data') : undefined;
      } catch {
        return undefined;
      }
    },
    async sealBytes(id, blob) {
      const type = new TextEncoder().encode(blob.type.slice(0, 200));
      const plain = new Uint8Array(2 + type.length + blob.size);
      new DataView(plain.buffer).setUint16(0, type.length);
      plain.set(type, 2);
      plain.set(new Uint8Array(await blob.arrayBuffer()), 2 + type.length);
      return new Blob([await encrypt(key, plain, id)], { type: 'application/octet-stream' });
    },
    async openBytes(id, blob) {
      const plain = await decrypt(key, new Uint8Array(await blob.arrayBuffer()), id);
      if (!plain || plain.length < 2) return null;
      const typeLength = new DataView(plain.buffer).getUint16(0);
      if (plain.length < 2 + typeLength) return null;
      const type = new TextDecoder().decode(plain.subarray(2, 2 + typeLength));
      return new Blob([plain.subarray(2 + typeLength)], { type });
    },
  };
}

/**
 * The document that says a database is encrypted, and with what: the salt and iterations every
 * device derives the key with, and a known text sealed, which tells a wrong passphrase at once.
 */
export const encryptionMarkerId = 'sync:encryption';
const knownText = 'byok-chat sync';

export interface EncryptionMarker {
  salt: string;
  iterations: number;
  check: string;
}

export function readEncryptionMarker(document: CouchDocument | undefined): EncryptionMarker | null {
  if (!document || document._deleted) return null;
  const salt = ownField(document, 'salt');
  const iterations = ownField(document, 'iterations');
  const check = ownField(document, 'check');
  if (typeof salt !== 'string' || typeof check !== 'string') return null;
  if (
    typeof iterations !== 'number' ||
    !Number.isInteger(iterations) ||
    iterations < 100_000 ||
    iterations > 10_000_000
  )
    return null;
  return { salt, iterations, check };
}

/** The raw bytes of a sync key (kept sealed with the API keys, so another start needs no passphrase). */
export async function exportSyncKey(key: CryptoKey): Promise<string> {
  return base64OfBytes(new Uint8Array(await crypto.subtle.exportKey('raw', key)));
}

export function importSyncKey(raw: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytesOfBase64(raw), { name: 'AES-GCM' }, true, [
    'encrypt',
    'decrypt',
  ]);
}

/** Extractable: its bytes are kept with the API keys (sealed in the vault), not in the clear. */
const derive = (passphrase: string, salt: string, iterations: number): Promise<CryptoKey> =>
  deriveKey(passphrase, bytesOfBase64(salt), iterations, { extractable: true });

export type EncryptionKeyResult =
  | { ok: true; key: CryptoKey; created: boolean }
  | { ok: false; reason: 'wrong-passphrase' | 'unreadable-marker' };

/**
 * The database's key for this passphrase: derived with the salt its marker holds (and checked
 * against it), or, for a database not encrypted yet, with a new salt, the marker written.
 */
export async function encryptionKeyFor(
  client: CouchClient,
  passphrase: string,
): Promise<EncryptionKeyResult> {
  const document = await client.get(encryptionMarkerId);
  if (document && !document._deleted) {
    const marker = readEncryptionMarker(document);
    if (!marker) return { ok: false, reason: 'unreadable-marker' };
    let key: CryptoKey;
    let plain: Uint8Array | null;
    try {
      key = await derive(passphrase, marker.salt, marker.iterations);
      plain = await decrypt(key, bytesOfBase64(marker.check), encryptionMarkerId);
    } catch {
      return { ok: false, reason: 'unreadable-marker' };
    }
    return plain && new TextDecoder().decode(plain) === knownText
      ? { ok: true, key, created: false }
      : { ok: false, reason: 'wrong-passphrase' };
  }
  const salt = base64OfBytes(randomBytes(saltBytes));
  const key = await derive(passphrase, salt, passphraseIterations);
  const check = base64OfBytes(await encrypt(key, new TextEncoder().encode(knownText), encryptionMarkerId));
  await client.put({ _id: encryptionMarkerId, salt, iterations: passphraseIterations, check });
  return { ok: true, key, created: true };
}

/** Whether the database's documents are encrypted (its marker is there). */
export async function isEncrypted(client: CouchClient): Promise<boolean> {
  const document = await client.get(encryptionMarkerId);
  return Boolean(document && !document._deleted);
}
