import { describe, expect, it } from 'vitest';
import { decryptText, deriveKey, encryptText, importRawKey, randomBytes } from './passphrase-crypto.ts';

describe('passphrase crypto', () => {
  const salt = randomBytes(16);

  it('decrypts with the same passphrase and salt, and refuses another passphrase, salt or altered data', async () => {
    const key = await deriveKey('right', salt, 1000);
    const { iv, data } = await encryptText(key, '{"openai":"sk-1"}');
    expect(new TextDecoder().decode(data)).not.toContain('sk-1');
    expect(await decryptText(await deriveKey('right', salt, 1000), iv, data)).toBe('{"openai":"sk-1"}');
    expect(await decryptText(await deriveKey('wrong', salt, 1000), iv, data)).toBeNull();
    expect(await decryptText(await deriveKey('right', randomBytes(16), 1000), iv, data)).toBeNull();
    expect(await decryptText(await deriveKey('right', salt, 1001), iv, data)).toBeNull();
    const altered = data.slice();
    altered[0] = (altered[0] ?? 0) ^ 1;
    expect(await decryptText(key, iv, altered)).toBeNull();
  });

  it('uses a new IV each time', async () => {
    const key = await deriveKey('right', salt, 1000);
    const first = await encryptText(key, 'same');
    const second = await encryptText(key, 'same');
    expect(first.iv).not.toEqual(second.iv);
    expect(await decryptText(key, second.iv, second.data)).toBe('same');
  });

  it('derives a key no script can read out, which still works once cloned (kept, or sent to a tab)', async () => {
    const key = await deriveKey('right', salt, 1000);
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('jwk', key)).rejects.toThrow();
    const { iv, data } = await encryptText(key, 'same');
    const copy = structuredClone(key);
    await expect(crypto.subtle.exportKey('raw', copy)).rejects.toThrow();
    expect(await decryptText(copy, iv, data)).toBe('same');
  });

  it('imports an earlier release’s raw session key as one that cannot be read out', async () => {
    const raw = randomBytes(32);
    const key = await importRawKey(raw);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const { iv, data } = await encryptText(key, 'same');
    const original = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
    expect(await decryptText(original, iv, data)).toBe('same');
  });
});
