import { describe, expect, it } from 'vitest';
import { base64Of, blobOfBase64 } from './base64.ts';

describe('base64', () => {
  it('round-trips every byte value, across slice boundaries', async () => {
    const bytes = new Uint8Array(0x8000 * 2 + 7).map((_, index) => (index * 31) % 256);
    const data = await base64Of(new Blob([bytes]));
    expect(data).toBe(Buffer.from(bytes).toString('base64'));
    const back = blobOfBase64(data, 'image/png');
    expect(back.type).toBe('image/png');
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(bytes);
  });

  it('refuses text that is not base64', () => {
    expect(() => blobOfBase64('not base64!', 'image/png')).toThrow();
  });
});
