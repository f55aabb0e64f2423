// @ts-check
/**
 * Images and files in requests (docs/providers.md#attachments): data URLs, base64, magic numbers, image
 * sizes read from the file headers, what each wire format's user message carried, and the reply of
 * the `attachments` scenario.
 */

import { isRecord } from './wire.mjs';

/**
 * One thing a user message carried, in the order it came.
 * @typedef {{ kind: 'text', text: string }
 *   | { kind: 'image', mime: string, bytes: Buffer }
 *   | { kind: 'pdf', name?: string, bytes: Buffer }
 *   | { kind: 'file', name?: string, mime?: string, bytes: Buffer }
 *   | { kind: 'text-file', name: string }
 *   | { kind: 'image-ref' | 'file-ref', ref: string }} Attachment
 */

/** The image types every provider takes (OpenAI, Anthropic; Gemini adds HEIC/HEIF). */
export const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export const MB = 1024 * 1024;

/**
 * Decodes standard base64 (RFC 4648 §4, padded), or undefined when it is not that. Google's proto
 * JSON also takes the URL-safe alphabet and leaves padding optional: `lenient`.
 * One character class and a length check, not a grouped regex, so a 30 MB string is cheap.
 * @param {unknown} text @param {{ lenient?: boolean }} [options]
 * @returns {Buffer | undefined}
 */
export function decodeBase64(text, { lenient = false } = {}) {
  if (typeof text !== 'string') return undefined;
  if (lenient) {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
    const bare = text.replace(/=+$/, '');
    if (bare.length % 4 === 1) return undefined;
    return Buffer.from(bare.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  return Buffer.from(text, 'base64');
}

/**
 * A `data:<mime>[;param]*;base64,<data>` URL, split; `problem` says why a value is not one.
 * @param {string} url
 * @returns {{ mime: string, data: string } | { problem: 'prefix' | 'not-base64' }}
 */
export function parseDataUrl(url) {
  if (!url.startsWith('data:')) return { problem: 'prefix' };
  const comma = url.indexOf(',');
  if (comma === -1) return { problem: 'not-base64' };
  const [mime = '', ...params] = url.slice(5, comma).split(';');
  if (!params.some((param) => param.trim().toLowerCase() === 'base64')) return { problem: 'not-base64' };
  return { mime: mime.trim().toLowerCase(), data: url.slice(comma + 1) };
}

/** @param {Buffer} bytes @param {number} at @param {string} text */
const startsWithAt = (bytes, at, text) =>
  bytes.length >= at + text.length && bytes.subarray(at, at + text.length).toString('latin1') === text;

/**
 * The type the first bytes announce: PNG 89 50 4E 47, JPEG FF D8 FF, GIF `GIF8`, WEBP
 * `RIFF....WEBP`, PDF `%PDF-`, and a ZIP container (docx, pptx, xlsx) `PK\x03\x04`.
 * @param {Buffer} bytes @returns {string | undefined}
 */
export function magicType(bytes) {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (startsWithAt(bytes, 0, 'GIF8')) return 'image/gif';
  if (startsWithAt(bytes, 0, 'RIFF') && startsWithAt(bytes, 8, 'WEBP')) return 'image/webp';
  if (startsWithAt(bytes, 0, '%PDF-')) return 'application/pdf';
  if (startsWithAt(bytes, 0, 'PK\x03\x04')) return 'application/zip';
  return undefined;
}

/** JPEG start-of-frame markers (SOF0, SOF2 and the rarer ones), which carry the size. */
const jpegFrames = [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf];

/** @param {Buffer} bytes @returns {{ width: number, height: number } | undefined} */
function jpegSize(bytes) {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes, and markers that stand alone (TEM, RSTn, SOI).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame
    const length = bytes.readUInt16BE(at + 2);
    if (jpegFrames.includes(marker)) {
      if (at + 9 > bytes.length) return undefined;
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** @param {Buffer} bytes @returns {{ width: number, height: number } | undefined} */
function webpSize(bytes) {
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X' && bytes.length >= 30) {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  // Lossy: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height.
  if (chunk === 'VP8 ' && bytes.length >= 30 && bytes.readUIntBE(23, 3) === 0x9d012a) {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return undefined;
}

/**
 * The pixel size in an image's header: PNG IHDR, JPEG SOFn, GIF logical screen, WEBP VP8/VP8L/VP8X.
 * Undefined when the bytes are not that type or the header is cut short.
 * @param {Buffer} bytes @param {string} mime
 * @returns {{ width: number, height: number } | undefined}
 */
export function imageSize(bytes, mime) {
  if (magicType(bytes) !== mime) return undefined;
  switch (mime) {
    case 'image/png':
      return bytes.length >= 24 && startsWithAt(bytes, 12, 'IHDR')
        ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
        : undefined;
    case 'image/jpeg':
      return jpegSize(bytes);
    case 'image/gif':
      return bytes.length >= 10 ? { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) } : undefined;
    case 'image/webp':
      return webpSize(bytes);
    default:
      return undefined;
  }
}

/** Whether bytes are a PNG, JPEG, GIF or WEBP of the declared type whose size can be read. @param {Buffer} bytes @param {string} mime */
export const isImageOf = (bytes, mime) => imageSize(bytes, mime) !== undefined;

/** A PDF's page count: its `/Type /Page` objects (not `/Pages`). @param {Buffer} bytes */
export function pdfPageCount(bytes) {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

/** @param {unknown} value */
export const typeName = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** @param {unknown} value */
const stringOr = (value, fallback = '') => (typeof value === 'string' ? value : fallback);

/** An image or file given as a data URL: its bytes and type, or a reference when it is a URL. @param {string} url */
function fromUrl(url) {
  const parsed = parseDataUrl(url);
  if ('problem' in parsed) return undefined;
  const bytes = decodeBase64(parsed.data);
  return bytes ? { mime: parsed.mime, bytes } : undefined;
}

/** @param {string} url @returns {Attachment} */
function imageFromUrl(url) {
  const data = fromUrl(url);
  return data ? { kind: 'image', ...data } : { kind: 'image-ref', ref: url };
}

/**
 * A file given as data: a PDF, or another file.
 * @param {{ mime: string, bytes: Buffer }} data @param {string | undefined} name @returns {Attachment}
 */
function fileOf({ mime, bytes }, name) {
  return mime === 'application/pdf'
    ? { kind: 'pdf', ...(name && { name }), bytes }
    : { kind: 'file', ...(name && { name }), mime, bytes };
}

/**
 * What a Chat Completions user message carried: text, image_url and file parts.
 * @param {unknown} content @returns {Attachment[]}
 */
export function chatAttachments(content) {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((part) => {
    if (part.type === 'text') return [{ kind: 'text', text: stringOr(part.text) }];
    if (part.type === 'image_url' && isRecord(part.image_url))
      return [imageFromUrl(stringOr(part.image_url.url))];
    if (part.type === 'file' && isRecord(part.file)) {
      const name = typeof part.file.filename === 'string' ? part.file.filename : undefined;
      const data = fromUrl(stringOr(part.file.file_data));
      if (data) return [fileOf(data, name)];
      return [{ kind: 'file-ref', ref: stringOr(part.file.file_id, name ?? 'file') }];
    }
    return [];
  });
}

/**
 * What a Responses user message carried: input_text, input_image and input_file parts.
 * @param {unknown} content @returns {Attachment[]}
 */
export function responsesAttachments(content) {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((part) => {
    if (part.type === 'input_text') return [{ kind: 'text', text: stringOr(part.text) }];
    if (part.type === 'input_image') {
      if (typeof part.image_url === 'string') return [imageFromUrl(part.image_url)];
      return [{ kind: 'image-ref', ref: stringOr(part.file_id, 'image') }];
    }
    if (part.type === 'input_file') {
      const name = typeof part.filename === 'string' ? part.filename : undefined;
      const data = fromUrl(stringOr(part.file_data));
      if (data) return [fileOf(data, name)];
      return [{ kind: 'file-ref', ref: stringOr(part.file_url, stringOr(part.file_id, name ?? 'file')) }];
    }
    return [];
  });
}

/**
 * What an Anthropic user message carried: text, image and document blocks. A plain-text document
 * is described as a text file is, by its title.
 * @param {unknown} content @returns {Attachment[]}
 */
export function anthropicAttachments(content) {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((block) => {
    if (block.type === 'text') return [{ kind: 'text', text: stringOr(block.text) }];
    const source = isRecord(block.source) ? block.source : {};
    const title = typeof block.title === 'string' ? block.title : undefined;
    if (block.type === 'image') {
      const bytes = source.type === 'base64' ? decodeBase64(source.data) : undefined;
      if (bytes) return [{ kind: 'image', mime: stringOr(source.media_type), bytes }];
      return [{ kind: 'image-ref', ref: stringOr(source.url, stringOr(source.file_id, 'image')) }];
    }
    if (block.type === 'document') {
      const bytes = source.type === 'base64' ? decodeBase64(source.data) : undefined;
      if (bytes) return [fileOf({ mime: stringOr(source.media_type), bytes }, title)];
      if (source.type === 'text') return [{ kind: 'text-file', name: title ?? 'text/plain' }];
      return [{ kind: 'file-ref', ref: stringOr(source.url, stringOr(source.file_id, title ?? 'document')) }];
    }
    return [];
  });
}

/**
 * What a Gemini user turn carried: text parts, inlineData (no file names on this wire) and fileData.
 * @param {unknown} turn @returns {Attachment[]}
 */
export function geminiAttachments(turn) {
  const parts = isRecord(turn) && Array.isArray(turn.parts) ? turn.parts.filter(isRecord) : [];
  return parts.flatMap((part) => {
    if (typeof part.text === 'string') return [{ kind: 'text', text: part.text }];
    const inline = part.inlineData ?? part.inline_data;
    if (isRecord(inline)) {
      const mime = stringOr(inline.mimeType ?? inline.mime_type);
      const bytes = decodeBase64(inline.data, { lenient: true }) ?? Buffer.alloc(0);
      return [
        mime.startsWith('image/') ? { kind: 'image', mime, bytes } : fileOf({ mime, bytes }, undefined),
      ];
    }
    const file = part.fileData ?? part.file_data;
    if (isRecord(file)) return [{ kind: 'file-ref', ref: stringOr(file.fileUri ?? file.file_uri, 'file') }];
    return [];
  });
}

/** `<file name="NAME" …>…</file>` blocks inside message text. */
const fileBlock = /<file\s+name="([^"]*)"[^>]*>[\s\S]*?<\/file>/g;

/**
 * The `attachments` scenario's reply: `Received:`, then one line per thing the last user message
 * carried, in order, then the user's own text with the file blocks taken out.
 * @param {Attachment[]} attachments
 */
export function attachmentsReply(attachments) {
  const lines = ['Received:'];
  const texts = [];
  for (const item of attachments) {
    switch (item.kind) {
      case 'text':
        for (const match of item.text.matchAll(fileBlock)) lines.push(`- text ${match[1] ?? ''}`);
        texts.push(item.text.replace(fileBlock, ''));
        break;
      case 'image': {
        const size = imageSize(item.bytes, item.mime);
        lines.push(`- image ${item.mime} ${size ? `${size.width}×${size.height}` : '?×?'}`);
        break;
      }
      case 'pdf':
        lines.push(`- pdf ${item.name ?? 'application/pdf'} ${item.bytes.length} bytes`);
        break;
      case 'file':
        lines.push(
          `- file ${item.name ?? item.mime ?? 'application/octet-stream'} ${item.bytes.length} bytes`,
        );
        break;
      case 'text-file':
        lines.push(`- text ${item.name}`);
        break;
      case 'image-ref':
        lines.push(`- image ${item.ref}`);
        break;
      case 'file-ref':
        lines.push(`- file ${item.ref}`);
        break;
    }
  }
  lines.push(`- message: ${texts.join('\n').trim()}`);
  return lines.join('\n');
}
