import { crc32, deflateSync } from 'node:zlib';

/** PNG files built byte by byte (the test files, the app's icons): nothing drawn by a library. */

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of `width`×`height` whose pixel `(x, y)` is `pixel(x, y)`: three channels (RGB) or four
 * (RGBA). `extra` chunks (an eXIf) go before the image data.
 */
export function encodePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly number[],
  { channels = 3, extra = [] }: { channels?: 3 | 4; extra?: [type: string, data: Buffer][] } = {},
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * channels);
    for (let x = 0; x < width; x++) row.set(pixel(x, y), 1 + x * channels);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...extra.map(([type, data]) => chunk(type, data)),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
