import { describe, expect, it } from 'vitest';
import {
  canSendAsIs,
  carriesMetadata,
  declaredSize,
  encodingsFor,
  fitWithin,
  nextEdge,
  sniffImageType,
} from './image-resize-plan.ts';

const limits = { maxEdge: 2048, maxBytes: 5_000_000 };
const bytes = (...values: (number | string)[]) =>
  new Uint8Array(
    values.flatMap((value) => (typeof value === 'string' ? [...value].map((c) => c.charCodeAt(0)) : [value])),
  );

describe('sniffImageType', () => {
  it('knows each type by its signature, whatever the file is called', () => {
    expect(sniffImageType(bytes(0x89, 'PNG\r\n\x1a\n', 0, 0, 0, 13))).toBe('image/png');
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', 0x10, 0, 0, 0, 'WEBP'))).toBe('image/webp');
  });

  it('does not know other or too short content', () => {
    expect(sniffImageType(bytes('RIFF', 0x10, 0, 0, 0, 'WAVE'))).toBeNull();
    expect(sniffImageType(bytes('BM'))).toBeNull();
    expect(sniffImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe('canSendAsIs', () => {
  it('keeps a PNG, JPEG or WebP within both limits', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp'] as const) {
      expect(canSendAsIs(type, { width: 2048, height: 100 }, 5_000_000, limits)).toBe(true);
    }
  });

  it('re-encodes one over either limit, a GIF, or an unknown type', () => {
    expect(canSendAsIs('image/png', { width: 100, height: 2049 }, 1000, limits)).toBe(false);
    expect(canSendAsIs('image/jpeg', { width: 100, height: 100 }, 5_000_001, limits)).toBe(false);
    expect(canSendAsIs('image/gif', { width: 10, height: 10 }, 100, limits)).toBe(false);
    expect(canSendAsIs(null, { width: 10, height: 10 }, 100, limits)).toBe(false);
  });
});

describe('fitWithin', () => {
  it('scales the long side down to maxEdge, keeping the aspect ratio', () => {
    expect(fitWithin({ width: 4000, height: 3000 }, 2048)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin({ width: 3000, height: 4000 }, 2048)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin({ width: 3001, height: 1999 }, 1000)).toEqual({ width: 1000, height: 666 });
  });

  it('never scales up', () => {
    expect(fitWithin({ width: 640, height: 480 }, 2048)).toEqual({ width: 640, height: 480 });
  });

  it('keeps a sliver at least one pixel wide', () => {
    expect(fitWithin({ width: 10_000, height: 2 }, 100)).toEqual({ width: 100, height: 1 });
  });
});

describe('encodingsFor', () => {
  it('keeps a photo a JPEG', () => {
    expect(encodingsFor('image/jpeg')).toEqual([{ type: 'image/jpeg', quality: 0.85 }]);
  });

  it('makes anything else a PNG, then a WebP', () => {
    for (const type of ['image/png', 'image/gif', 'image/webp', null] as const) {
      expect(encodingsFor(type)).toEqual([{ type: 'image/png' }, { type: 'image/webp', quality: 0.9 }]);
    }
  });
});

describe('nextEdge', () => {
  it('shrinks by a quarter a few times, then gives up', () => {
    const edges = [2048];
    for (let round = 0; ; round++) {
      const next = nextEdge(edges[edges.length - 1] ?? 0, round);
      if (next === null) break;
      edges.push(next);
    }
    expect(edges).toEqual([2048, 1536, 1152, 864]);
  });

  it('gives up at one pixel', () => {
    expect(nextEdge(1, 0)).toBeNull();
    expect(nextEdge(2, 0)).toBe(1);
  });
});

describe('carriesMetadata', () => {
  const be16 = (value: number) => [value >> 8, value & 0xff];
  const be32 = (value: number) => [value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
  const le32 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24];
  const jfif = [0xff, 0xe0, ...be16(16), 'JFIF\0', 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const exif = [0xff, 0xe1, ...be16(14), 'Exif\0\0', 'MM\0*', 0, 0];
  const scan = [0xff, 0xda, ...be16(8), 1, 2, 3, 4, 5, 6];

  it('finds JPEG EXIF after other segments, and stops at the image data', () => {
    expect(carriesMetadata('image/jpeg', bytes(0xff, 0xd8, ...jfif, ...exif, ...scan))).toBe(true);
    expect(carriesMetadata('image/jpeg', bytes(0xff, 0xd8, ...jfif, ...scan))).toBe(false);
    // 'Exif' inside the compressed data is not metadata.
    expect(carriesMetadata('image/jpeg', bytes(0xff, 0xd8, ...scan, ...exif))).toBe(false);
  });

  it("finds PNG's eXIf chunk before the image data", () => {
    const chunk = (type: string, data: number[]) => [...be32(data.length), type, ...data, 0, 0, 0, 0];
    const signature = [0x89, 'PNG\r\n\x1a\n'];
    const header = chunk('IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
    expect(
      carriesMetadata(
        'image/png',
        bytes(...signature, ...header, ...chunk('eXIf', [1, 2]), ...chunk('IDAT', [9])),
      ),
    ).toBe(true);
    expect(
      carriesMetadata(
        'image/png',
        bytes(...signature, ...header, ...chunk('IDAT', [9]), ...chunk('eXIf', [1])),
      ),
    ).toBe(false);
  });

  it("finds WebP's EXIF chunk", () => {
    const chunk = (type: string, data: number[]) => [
      type,
      ...le32(data.length),
      ...data,
      ...(data.length % 2 ? [0] : []),
    ];
    const head = [
      'RIFF',
      ...le32(40),
      'WEBP',
      ...chunk('VP8X', [8, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      ...chunk('EXIF', [1, 2, 3]),
    ];
    expect(carriesMetadata('image/webp', bytes(...head))).toBe(true);
    expect(
      carriesMetadata('image/webp', bytes('RIFF', ...le32(20), 'WEBP', ...chunk('VP8 ', [1, 2, 3, 4]))),
    ).toBe(false);
  });
});

describe('declaredSize', () => {
  const pad = (head: Uint8Array) => {
    const padded = new Uint8Array(64);
    padded.set(head);
    return padded;
  };
  const be32 = (value: number) => [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

  it('reads PNG, GIF, WebP and JPEG headers before anything is decoded', () => {
    const png = pad(
      bytes(0x89, 'PNG\r\n', 0x1a, '\n', 0, 0, 0, 13, 'IHDR', ...be32(50_000), ...be32(40_000)),
    );
    expect(declaredSize('image/png', png)).toEqual({ width: 50_000, height: 40_000 });
    const gif = pad(bytes('GIF89a', 0x20, 0x03, 0x58, 0x02));
    expect(declaredSize('image/gif', gif)).toEqual({ width: 800, height: 600 });
    const riff = (chunk: string, ...rest: number[]) => pad(bytes('RIFF', 0, 0, 0, 0, 'WEBP', chunk, ...rest));
    // VP8: frame tag and start code, then 14-bit sizes.
    const lossy = riff('VP8 ', 0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01);
    expect(declaredSize('image/webp', lossy)).toEqual({ width: 640, height: 480 });
    // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each.
    const bits = 1023 | (767 << 14);
    const lossless = riff(
      'VP8L',
      0,
      0,
      0,
      0,
      0x2f,
      bits & 255,
      (bits >>> 8) & 255,
      (bits >>> 16) & 255,
      bits >>> 24,
    );
    expect(declaredSize('image/webp', lossless)).toEqual({ width: 1024, height: 768 });
    const extended = riff('VP8X', 0, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0x9c, 0x00, 0x1f, 0x4e, 0x00);
    expect(declaredSize('image/webp', extended)).toEqual({ width: 40_000, height: 20_000 });
    // JPEG: an APP0 segment, then the frame header (SOF2, progressive).
    const jpeg = pad(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 11, 8, 0x75, 0x30, 0x9c, 0x40));
    expect(declaredSize('image/jpeg', jpeg)).toEqual({ width: 40_000, height: 30_000 });
  });

  it('says nothing when the head does not hold the size', () => {
    expect(declaredSize('image/jpeg', pad(bytes(0xff, 0xd8, 0xff, 0xda, 0, 4)))).toBeNull();
    expect(declaredSize('image/png', bytes(0x89, 'PNG'))).toBeNull();
    expect(declaredSize(null, pad(bytes('hello')))).toBeNull();
  });
});
