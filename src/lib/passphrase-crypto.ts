/**
 * Encryption under a passphrase, with the browser's WebCrypto: a key derived with
 * PBKDF2-SHA-256 (600,000 iterations, OWASP's figure for it, and a random salt), then AES-GCM
 * with a random 96-bit IV per encryption. AES-GCM authenticates: a wrong passphrase does not
 * decrypt to garbage, it fails.
 */

export const passphraseIterations = 600_000;
export const saltBytes = 16;
const ivBytes = 12;

/**
 * The AES-GCM key of a passphrase and salt. Not extractable unless asked: it can be used, kept
 * (IndexedDB) and handed to another tab (structured clone), but no script can read its bytes.
 */
export async function deriveKey(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations = passphraseIterations,
  { extractable = false } = {},
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    extractable,
    ['encrypt', 'decrypt'],
  );
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

export async function encryptText(
  key: CryptoKey,
  text: string,
): Promise<{ iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer> }> {
  const iv = randomBytes(ivBytes);
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(text));
  return { iv, data: new Uint8Array(data) };
}

/** The text, or null when the key is not the one it was encrypted with (or the data was altered). */
export async function decryptText(
  key: CryptoKey,
  iv: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<string | null> {
  try {
    return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, data));
  } catch {
    return null;
  }
}

/** A raw AES-GCM key (an earlier release's session kept one) as a key that cannot be read out. */
export function importRawKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}
