/**
 * The pure decisions behind image preparation (see image-resize.worker.ts), kept apart so they can
 * be tested without a browser.
 */

export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

export interface ImageLimits {
  /** The longest side allowed, in pixels. */
  maxEdge: number;
  maxBytes: number;
}

export interface PreparedImage {
  blob: Blob;
  mimeType: ImageMimeType;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Encoding {
  type: 'image/png' | 'image/jpeg' | 'image/webp';
  quality?: number;
}

/** Each failed round of encoding shrinks the long edge by this much, up to this many rounds. */
const shrinkFactor = 0.75;
const maxRounds = 4;

/**
 * The type the bytes really are: a file's own type comes from its name, and a provider rejects an
 * image whose declared type does not match its content. `head` is the file's first 12 bytes.
 */
export function sniffImageType(head: Uint8Array): ImageMimeType | null {
  const startsWith = (bytes: number[], offset = 0) => bytes.every((byte, i) => head[offset + i] === byte);
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(ascii('GIF8'))) return 'image/gif';
  if (startsWith(ascii('RIFF')) && startsWith(ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/**
 * Images larger than this are refused before they are decoded: a few KB of PNG can declare
 * 50,000 × 50,000 pixels, 10 GB once decoded. 120 megapixels holds the photos of today's largest
 * phone sensors in their usual modes.
 */
export const maxDecodedPixels = 120_000_000;

/**
 * The size an image declares in its header (PNG's IHDR, GIF's screen, WebP's VP8/VP8L/VP8X, JPEG's
 * frame header), read before decoding; null when the head does not say.
 */
export function declaredSize(type: ImageMimeType | null, head: Uint8Array): Size | null {
  const byte = (at: number) => head[at] ?? 0;
  const be16 = (at: number) => (byte(at) << 8) | byte(at + 1);
  const le16 = (at: number) => byte(at) | (byte(at + 1) << 8);
  const le24 = (at: number) => le16(at) | (byte(at + 2) << 16);
  const fourCc = (at: number) => String.fromCharCode(byte(at), byte(at + 1), byte(at + 2), byte(at + 3));
  if (head.length < 30) return null;
  if (type === 'image/png')
    return { width: be16(16) * 65536 + be16(18), height: be16(20) * 65536 + be16(22) };
  if (type === 'image/gif') return { width: le16(6), height: le16(8) };
  if (type === 'image/webp') {
    const chunk = fourCc(12);
    if (chunk === 'VP8 ') return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = byte(21) | (byte(22) << 8) | (byte(23) << 16) | (byte(24) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { width: le24(24) + 1, height: le24(27) + 1 };
    return null;
  }
  if (type === 'image/jpeg') {
    for (let at = 2; at + 9 <= head.length && byte(at) === 0xff; at += 2 + be16(at + 2)) {
      const marker = byte(at + 1);
      // Start of frame: every 0xC0–0xCF but DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { width: be16(at + 7), height: be16(at + 5) };
      if (marker === 0xda) return null;
    }
  }
  return null;
}

/** How much of a file's start `carriesMetadata` reads: EXIF lives in the first segments. */
export const metadataHeadBytes = 64 * 1024;

/**
 * Whether the image carries EXIF metadata (the camera, the time, often where it was taken) in its
 * first `metadataHeadBytes`: JPEG's APP1 'Exif' segment, PNG's eXIf chunk, WebP's EXIF chunk. Such
 * a file is re-encoded, which drops it: a photo attached to a question should not tell the
 * provider where the user lives.
 */
export function carriesMetadata(type: ImageMimeType | null, head: Uint8Array): boolean {
  const text = (offset: number, length: number) =>
    String.fromCharCode(...head.subarray(offset, offset + length));
  if (type === 'image/jpeg') {
    for (let at = 2; at + 4 <= head.length && head[at] === 0xff;) {
      const marker = head[at + 1] ?? 0;
      if (marker === 0xda) return false; // The image data starts: no more metadata segments.
      if (marker === 0xe1 && text(at + 4, 6) === 'Exif\0\0') return true;
      at += 2 + (((head[at + 2] ?? 0) << 8) | (head[at + 3] ?? 0));
    }
    return false;
  }
  if (type === 'image/png') {
    for (let at = 8; at + 8 <= head.length;) {
      const length = new DataView(head.buffer, head.byteOffset + at, 4).getUint32(0);
      const chunk = text(at + 4, 4);
      if (chunk === 'eXIf') return true;
      if (chunk === 'IDAT') return false;
      at += 12 + length;
    }
    return false;
  }
  if (type === 'image/webp') {
    for (let at = 12; at + 8 <= head.length;) {
      if (text(at, 4) === 'EXIF') return true;
      const length = new DataView(head.buffer, head.byteOffset + at + 4, 4).getUint32(0, true);
      at += 8 + length + (length % 2);
    }
  }
  return false;
}

/**
 * Whether the original file can be sent as it is. A GIF never is: providers want a still image,
 * and it may be animated.
 */
export function canSendAsIs(
  type: ImageMimeType | null,
  size: Size,
  bytes: number,
  limits: ImageLimits,
): type is 'image/png' | 'image/jpeg' | 'image/webp' {
  return (
    (type === 'image/png' || type === 'image/jpeg' || type === 'image/webp') &&
    Math.max(size.width, size.height) <= limits.maxEdge &&
    bytes <= limits.maxBytes
  );
}

/** `size` scaled down, keeping its aspect ratio, so its long side is at most `maxEdge`; never up. */
export function fitWithin(size: Size, maxEdge: number): Size {
  const scale = Math.min(1, maxEdge / Math.max(size.width, size.height));
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

/**
 * The encodings to try, in order, until one fits the byte limit. A photo stays a JPEG; anything
 * else becomes a lossless PNG, then a WebP, which is smaller and still keeps transparency.
 */
export function encodingsFor(type: ImageMimeType | null): Encoding[] {
  if (type === 'image/jpeg') return [{ type: 'image/jpeg', quality: 0.85 }];
  return [{ type: 'image/png' }, { type: 'image/webp', quality: 0.9 }];
}

/**
 * The long edge to try after round `round` (from 0) at `edge` came out over the byte limit, or
 * null to give up.
 */
export function nextEdge(edge: number, round: number): number | null {
  if (round + 1 >= maxRounds || edge <= 1) return null;
  return Math.max(1, Math.floor(edge * shrinkFactor));
}
