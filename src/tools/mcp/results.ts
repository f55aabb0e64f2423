import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { OfferedTool, ToolOutcome } from '../tool-source.ts';

/**
 * What an MCP server says becomes what the tool loop takes: its tools as offered tools (names a
 * model API accepts), its results as a tool outcome. Everything here is hostile input: a server
 * can send any size, any name, any content, so each piece is bounded and checked.
 */

/** At most this many tools of one server are offered. */
export const maxTools = 128;
/** A description longer than this is cut. */
const maxDescription = 4000;
/** A tool whose argument schema is larger than this (as JSON) is left out. */
const maxSchemaJson = 64_000;
/** At most this many pieces of a result are kept. */
export const maxBlocks = 32;
/** The text of one result, all pieces together, is cut at this many characters. */
export const maxResultText = 100_000;
/** An image larger than this is left out (with a line saying so). */
export const maxImageBytes = 10 * 1024 * 1024;
/** The images of one result together: past this, the rest are left out (each is stored like a file). */
export const maxResultImageBytes = 20 * 1024 * 1024;
/** Images a model can be shown, by their bytes (never by what the server says they are). */
const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Short fields (names, addresses, types) are cut at this many characters. */
const maxShort = 500;

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** `text` cut to `limit` characters, control characters but newlines and tabs taken out. */
function clean(text: string, limit: number): string {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  return plain.length > limit ? `${plain.slice(0, limit)}…` : plain;
}

/** A name a model API accepts: `a-zA-Z0-9_-`, 1 to 64 characters. */
export function sanitizeToolName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return replaced.length > 0 ? replaced : 'tool';
}

/** The tools as offered, each with the server's name for it (`names`: offered → real). */
export interface ListedTools {
  tools: OfferedTool[];
  names: Map<string, string>;
}

/**
 * A server's tools as the loop offers them: names made valid and unique within the server (the
 * real one kept for the call), the schema an object schema, hints shown but never trusted (only an
 * explicit `destructiveHint: true` counts as destructive).
 */
export function offeredTools(server: string, tools: readonly Tool[]): ListedTools {
  const names = new Map<string, string>();
  const offered: OfferedTool[] = [];
  // Names already valid keep their name whatever the order; the others take what is left.
  const valid = new Set(tools.map((tool) => tool.name).filter((name) => namePattern.test(name)));
  for (const tool of tools) {
    if (offered.length >= maxTools) break;
    if (typeof tool.name !== 'string' || names.has(tool.name)) continue;
    const parameters = objectSchema(tool.inputSchema);
    if (!parameters) {
      console.warn(`MCP server ${server}: the tool ${clean(tool.name, 64)} has an unreadable schema`);
      continue;
    }
    let name = namePattern.test(tool.name) ? tool.name : sanitizeToolName(tool.name);
    if (name !== tool.name || names.has(name)) {
      const base = name;
      for (let n = 2; names.has(name) || (name !== tool.name && valid.has(name)); n++) {
        const suffix = `_${n}`;
        name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
      }
    }
    names.set(name, tool.name);
    const title = tool.title ?? tool.annotations?.title;
    offered.push({
      server,
      definition: {
        name,
        description: clean(tool.description ?? title ?? '', maxDescription),
        parameters,
      },
      hints: {
        ...(typeof title === 'string' && title.trim() !== '' && { title: clean(title, 200) }),
        ...(typeof tool.annotations?.readOnlyHint === 'boolean' && {
          readOnly: tool.annotations.readOnlyHint,
        }),
        ...(tool.annotations?.destructiveHint === true && { destructive: true }),
      },
    });
  }
  return { tools: offered, names };
}

/** The tool's argument schema as a JSON Schema object (`type: 'object'`), or null when unusable. */
function objectSchema(schema: unknown): Record<string, unknown> | null {
  if (schema === undefined || schema === null) return { type: 'object', properties: {} };
  if (typeof schema !== 'object' || Array.isArray(schema)) return null;
  let json: string;
  try {
    json = JSON.stringify(schema);
  } catch {
    return null;
  }
  if (json.length > maxSchemaJson) return null;
  // A copy the server can no longer change, with the type every API requires.
  const copy = JSON.parse(json) as Record<string, unknown>;
  return { ...copy, type: 'object' };
}

type Piece = ToolOutcome['content'][number];

/** The image type its first bytes show, or undefined. */
function sniffImage(bytes: Uint8Array): (typeof imageTypes)[number] | undefined {
  const at = (i: number) => bytes[i] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return 'image/gif';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Base64 (standard or URL alphabet, whitespace allowed) as bytes, or undefined when it is not. */
function decodeBase64(data: string): Uint8Array<ArrayBuffer> | undefined {
  const compact = data.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  try {
    const binary = atob(compact);
    const bytes = new Uint8Array(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** An image piece, or a line saying why it was left out. */
function imagePiece(data: unknown, mimeType: unknown): Piece {
  const said = typeof mimeType === 'string' ? clean(mimeType.toLowerCase().trim(), 100) : 'unknown';
  if (!(imageTypes as readonly string[]).includes(said))
    return {
      type: 'text',
      text: `[An image of type ${said} was omitted: only PNG, JPEG, GIF and WebP are shown.]`,
    };
  if (typeof data !== 'string') return { type: 'text', text: '[An image without data was omitted.]' };
  // Checked before decoding: four characters of base64 make three bytes.
  if (Math.floor((data.length * 3) / 4) > maxImageBytes + 3)
    return {
      type: 'text',
      text: `[An image of about ${Math.round((data.length * 3) / 4 / 1024 / 1024)} MB was omitted: the limit is ${maxImageBytes / 1024 / 1024} MB.]`,
    };
  const bytes = decodeBase64(data);
  if (!bytes) return { type: 'text', text: '[An image whose data is not valid base64 was omitted.]' };
  if (bytes.length > maxImageBytes)
    return { type: 'text', text: `[An image was omitted: the limit is ${maxImageBytes / 1024 / 1024} MB.]` };
  const actual = sniffImage(bytes);
  if (!actual)
    return {
      type: 'text',
      text: `[An image said to be ${said} was omitted: its data is not a PNG, JPEG, GIF or WebP image.]`,
    };
  return { type: 'image', blob: new Blob([bytes], { type: actual }), mimeType: actual };
}

/** One content block of a result as a piece (or a line saying what was left out). */
function piece(block: unknown): Piece {
  if (typeof block !== 'object' || block === null)
    return { type: 'text', text: '[A piece of the result that is not an object was omitted.]' };
  const item = block as Record<string, unknown>;
  const short = (value: unknown) => (typeof value === 'string' ? clean(value, maxShort) : '');
  switch (item.type) {
    case 'text':
      return { type: 'text', text: typeof item.text === 'string' ? item.text : '' };
    case 'image':
      return imagePiece(item.data, item.mimeType);
    case 'audio':
      return {
        type: 'text',
        text: `[The tool returned audio (${short(item.mimeType) || 'unknown type'}), which is not shown.]`,
      };
    case 'resource_link': {
      const name = short(item.title) || short(item.name) || 'a resource';
      const lines = [
        `[Resource link: ${name} <${short(item.uri)}>${item.mimeType ? ` (${short(item.mimeType)})` : ''}]`,
      ];
      if (typeof item.description === 'string' && item.description.trim() !== '')
        lines.push(clean(item.description, maxShort));
      return { type: 'text', text: lines.join('\n') };
    }
    case 'resource': {
      const resource = (
        typeof item.resource === 'object' && item.resource !== null ? item.resource : {}
      ) as Record<string, unknown>;
      const uri = short(resource.uri);
      if (typeof resource.text === 'string')
        return { type: 'text', text: `[Resource ${uri}]\n${resource.text}` };
      return {
        type: 'text',
        text: `[The tool returned the resource ${uri}${resource.mimeType ? ` (${short(resource.mimeType)})` : ''} as binary data, which is not shown.]`,
      };
    }
    default:
      return {
        type: 'text',
        text: `[A piece of the result of type ${short(item.type) || 'unknown'} was omitted.]`,
      };
  }
}

/** Pretty JSON of a value, or its string form when it has none. */
function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool's result as the loop takes it: text as text, images as Blobs (checked and bounded), what
 * cannot be shown as a line saying so, `structuredContent` as JSON when there is no content;
 * `isError` passes through. At most `maxBlocks` pieces and `maxResultText` characters of text.
 */
export function toolOutcome(result: CallToolResult | Record<string, unknown>): ToolOutcome {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  let pieces: Piece[] = blocks.slice(0, maxBlocks).map(piece);
  if (blocks.length === 0 && result.structuredContent !== undefined)
    pieces = [{ type: 'text', text: prettyJson(result.structuredContent) }];
  // Text is counted together: many small pieces cannot pass the limit either.
  let left = maxResultText;
  let imageBytesLeft = maxResultImageBytes;
  let cut = false;
  const bounded: Piece[] = [];
  for (const item of pieces) {
    if (item.type !== 'text') {
      if (item.blob.size > imageBytesLeft) {
        bounded.push({
          type: 'text',
          text: `[An image was omitted: the images of one result are limited to ${maxResultImageBytes / 1024 / 1024} MB together.]`,
        });
        continue;
      }
      imageBytesLeft -= item.blob.size;
      bounded.push(item);
      continue;
    }
    if (item.text.length > left) {
      cut = true;
      if (left > 0) bounded.push({ type: 'text', text: `${item.text.slice(0, left)}…` });
      left = 0;
      continue;
    }
    left -= item.text.length;
    bounded.push(item);
  }
  if (cut) bounded.push({ type: 'text', text: `[The result was cut at ${maxResultText} characters.]` });
  if (blocks.length > maxBlocks)
    bounded.push({
      type: 'text',
      text: `[${blocks.length - maxBlocks} more pieces of the result were omitted.]`,
    });
  if (bounded.length === 0) bounded.push({ type: 'text', text: '(The tool returned nothing.)' });
  return { content: bounded, ...(result.isError === true && { isError: true }) };
}
