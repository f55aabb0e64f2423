import { describe, expect, it } from 'vitest';
import {
  decryptText,
  deriveKey,
  encryptText,
  exportRawKey,
  importRawKey,
  randomBytes,
} from './passphrase-crypto.ts';

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

  it('uses a new IV each time, and a key survives export and import (the session keeps it)', async () => {
    const key = await deriveKey('right', salt, 1000);
    const first = await encryptText(key, 'same');
    const second = await encryptText(key, 'same');
    expect(first.iv).not.toEqual(second.iv);
    const again = await importRawKey(await exportRawKey(key));
    expect(await decryptText(again, first.iv, first.data)).toBe('same');
  });
});
