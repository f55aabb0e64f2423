// @ts-check
import { crc32, deflateSync } from 'node:zlib';

/**
 * PNG files built byte by byte (the test files, the app's icons, the mock providers' and MCP test
 * servers' pictures): nothing drawn by a library. Plain JavaScript, so node runs it as it is.
 */

/** @param {string} type @param {Buffer} data */
function chunk(type, data) {
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
 * @param {number} width
 * @param {number} height
 * @param {(x: number, y: number) => readonly number[]} pixel
 * @param {{ channels?: 3 | 4, extra?: [type: string, data: Buffer][] }} [options]
 * @returns {Buffer}
 */
export function encodePng(width, height, pixel, { channels = 3, extra = [] } = {}) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  const rows = [];
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

const quadrantColours = [
  [0xe1, 0x1d, 0x48],
  [0x25, 0x63, 0xeb],
  [0x16, 0xa3, 0x4a],
  [0xf5, 0x9e, 0x0b],
];

/**
 * The test picture: four coloured quadrants, red, blue, green, amber (top left, top right, bottom
 * left, bottom right), so a rendered image is visibly the right one; rows from `drawnRows` on are
 * left black (a partial image).
 */
export function quadrantsPng(width = 64, height = width, drawnRows = height) {
  return encodePng(width, height, (x, y) =>
    y >= drawnRows
      ? [0, 0, 0]
      : (quadrantColours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)] ?? [0, 0, 0]),
  );
}
