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
