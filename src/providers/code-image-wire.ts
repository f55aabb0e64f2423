import type { ProviderData } from '../domain/tools.ts';
import { getResponse, readFailure, type HttpRequest } from './http.ts';
import { isProviderError } from './provider-error.ts';
import type { StreamPart } from './types.ts';

/**
 * What the clients share for the providers' own code execution and pictures
 * (docs/providers.md#code-execution, docs/providers.md#images-out): base64 turned into bytes with
 * a size bound, file names, and files fetched with a bounded read. What a provider sends is
 * hostile: a file over the bound, past the count, or malformed is left out, never thrown.
 */

export const fileLimits = {
  /** One file's bytes, inline (base64, checked before decoding) or downloaded (checked while reading). */
  bytes: 20 * 1024 * 1024,
  /** Files one request yields; previews of a picture being drawn do not count. */
  files: 20,
  /** A file name's characters. */
  name: 200,
} as const;

export type FilePart = Extract<StreamPart, { type: 'file' }>;
type NoticePart = Extract<StreamPart, { type: 'notice' }>;

const megabytes = fileLimits.bytes / (1024 * 1024);

export const tooManyFilesNotice = `This reply made more than ${fileLimits.files} files; the rest were left out.`;

export const tooLargeNotice = (name: string): string =>
  `The file ${name} is larger than ${megabytes} MB and was left out.`;

/** A download that failed, in one sentence: the reply itself goes on. */
export const downloadFailedNotice = (name: string, reason: string): string =>
  `The file ${name} could not be downloaded (${withoutEndPeriods(reason.slice(0, 200).trim()) || 'no reason given'}).`;

/** The text without the periods and spaces it ends with (a loop: an end-anchored regex is quadratic). */
function withoutEndPeriods(text: string): string {
  let end = text.length;
  while (end > 0 && /[.\s]/.test(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

const notice = (text: string): NoticePart => ({ type: 'notice', text });

/** How many files a request has yielded: at most `fileLimits.files`, the first one past that said once. */
export interface FileBudget {
  /** Whether another file may still be yielded. */
  hasRoom(): boolean;
  /** Counts one file yielded (or a download under way). */
  use(): void;
  /** Gives back the room of a download that yielded nothing. */
  release(): void;
  /** The notice for the first file left out, once; then nothing. */
  overflow(): NoticePart[];
}

export function createFileBudget(limit: number = fileLimits.files): FileBudget {
  let used = 0;
  let told = false;
  return {
    hasRoom: () => used < limit,
    use: () => void (used += 1),
    release: () => void (used = Math.max(0, used - 1)),
    overflow() {
      if (told) return [];
      told = true;
      return [notice(tooManyFilesNotice)];
    },
  };
}

/** The bytes base64 text decodes to, from its length alone: checked before any decoding. */
export function base64Size(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor(((text.length - padding) * 3) / 4);
}

/**
 * Base64 (standard or URL-safe, whitespace ignored) as bytes, or undefined when it is not base64
 * or decodes to more than `limit` bytes (checked first, from its length).
 */
export function base64Bytes(
  text: string,
  limit: number = fileLimits.bytes,
): Uint8Array<ArrayBuffer> | undefined {
  if (text === '' || base64Size(text) > limit) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/[-_]/g, (char) => (char === '-' ? '+' : '/')));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The media type and base64 text of a `data:…;base64,…` URL; undefined for any other URL. */
export function dataUrlParts(url: string): { mimeType: string; base64: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  // The header is short: a comma far in is not one.
  const comma = url.indexOf(',');
  if (comma === -1 || comma > 256) return undefined;
  const header = url.slice(5, comma).split(';');
  if (header.at(-1)?.toLowerCase() !== 'base64') return undefined;
  const mimeType = header[0]?.trim().toLowerCase() || 'application/octet-stream';
  return { mimeType, base64: url.slice(comma + 1) };
}

const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'text/csv': 'csv',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/markdown': 'md',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

const mimeTypes: Record<string, string> = {
  ...Object.fromEntries(Object.entries(extensions).map(([type, extension]) => [extension, type])),
  jpeg: 'image/jpeg',
  htm: 'text/html',
  py: 'text/x-python',
  tsv: 'text/tab-separated-values',
};

/** A file extension for a media type ('png' for image/png); 'bin' when unknown. */
export function extensionOf(mimeType: string): string {
  return extensions[mimeType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
}

/** A media type from a file name's extension; undefined when unknown. */
export function mimeTypeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? undefined : mimeTypes[name.slice(dot + 1).toLowerCase()];
}

/** The picture type of an image output format ('png', 'jpeg', 'webp'); PNG when unknown. */
export function imageMimeType(format: string | undefined): string {
  const type = mimeTypeOfName(`.${format ?? ''}`);
  return type?.startsWith('image/') ? type : 'image/png';
}

/** Pieces of output one after another, each starting on a line of its own. */
export function joinedLines(pieces: readonly string[]): string {
  return pieces.reduce(
    (text, piece) =>
      piece === '' ? text : text === '' || text.endsWith('\n') ? text + piece : `${text}\n${piece}`,
    '',
  );
}

/** A name the reply made up: `plot-1.png`, `image-2.webp`. */
export function numberedName(stem: string, number: number, mimeType: string): string {
  return `${stem}-${number}.${extensionOf(mimeType)}`;
}

/**
 * A name as a provider gave it, made safe: its last path segment, no control characters, trimmed,
 * at most 200 characters; `fallback` when nothing is left.
 */
export function fileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).at(-1) ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, fileLimits.name)
    .trim();
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}

export interface InlineFile {
  id: string;
  name: string;
  mimeType: string;
  /** Base64 as the provider sent it; anything else is a malformed part, skipped. */
  base64: unknown;
  runId?: string;
  partial?: boolean;
  providerData?: ProviderData;
}

/**
 * A file the reply carries inline, as a `file` part: nothing for malformed base64 (or a preview
 * over the bound), a notice for a file over the bound or past the count.
 */
export function inlineFile(file: InlineFile, budget: FileBudget): StreamPart[] {
  const { base64, partial, runId, providerData, ...named } = file;
  if (typeof base64 !== 'string' || base64 === '') return [];
  if (!partial && !budget.hasRoom()) return budget.overflow();
  if (base64Size(base64) > fileLimits.bytes) return partial ? [] : [notice(tooLargeNotice(file.name))];
  const bytes = base64Bytes(base64);
  if (!bytes) return [];
  if (!partial) budget.use();
  const part: FilePart = { type: 'file', ...named, data: new Blob([bytes], { type: file.mimeType }) };
  if (runId !== undefined) part.runId = runId;
  if (partial) part.partial = true;
  if (providerData) part.providerData = providerData;
  return [part];
}

/**
 * A response body read to its end as a Blob, or undefined as soon as it passes `limit` bytes (by
 * its declared length, or while reading): reading then stops.
 */
async function boundedBody(response: Response, request: HttpRequest, limit: number, type: string) {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return new Blob([], { type });
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } catch (error) {
    throw readFailure(request, error);
  }
  return new Blob(chunks, { type });
}

/** A response's media type: its header, or by the name where the header says nothing useful. */
function responseType(response: Response, name: string): string {
  const header = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return header && header !== 'application/octet-stream'
    ? header
    : (mimeTypeOfName(name) ?? header ?? 'application/octet-stream');
}

export interface FileDownload {
  id: string;
  runId?: string;
  /** The name to show (made safe by the caller); `describe` may give a better one first. */
  name: string;
  mimeType?: string;
  /** The GET of its bytes, with the chat call's own auth headers. */
  request: HttpRequest;
  /** Reads its name and type first (Anthropic's Files API metadata); its failure fails the download. */
  describe?: () => Promise<{ name?: string; mimeType?: string }>;
  limit?: number;
}

/**
 * A file the reply names and the provider keeps: fetched with a bounded read, yielded as a `file`
 * part. A failed or oversized download is a notice, and the reply goes on; cancelling the reply
 * (its signal) still throws.
 */
export async function* downloadedFile(file: FileDownload, budget: FileBudget): AsyncGenerator<StreamPart> {
  if (!budget.hasRoom()) {
    yield* budget.overflow();
    return;
  }
  budget.use();
  let { name, mimeType } = file;
  try {
    if (file.describe) {
      const described = await file.describe();
      name = described.name ?? name;
      mimeType = described.mimeType ?? mimeType;
    }
    const response = await getResponse(file.request);
    const type = mimeType ?? responseType(response, name);
    const data = await boundedBody(response, file.request, file.limit ?? fileLimits.bytes, type);
    if (!data) {
      budget.release();
      yield notice(tooLargeNotice(name));
      return;
    }
    const part: FilePart = { type: 'file', id: file.id, name, mimeType: type, data };
    if (file.runId !== undefined) part.runId = file.runId;
    yield part;
  } catch (error) {
    if (file.request.signal?.aborted || (isProviderError(error) && error.kind === 'aborted')) throw error;
    budget.release();
    yield notice(downloadFailedNotice(name, error instanceof Error ? error.message : String(error)));
  }
}

/** Downloads a decoder asked for, in order: each runs once, before the reply's finish. */
export type PendingDownloads = (() => AsyncGenerator<StreamPart>)[];

/**
 * The reply's parts, with the files its decoder queued fetched just before the finish (a
 * non-streamed reply is decoded whole, so that is the one place both kinds of reply share).
 */
export async function* withDownloads(
  parts: AsyncIterable<StreamPart>,
  queue: PendingDownloads,
): AsyncGenerator<StreamPart> {
  for await (const part of parts) {
    if (part.type === 'finish') for (let next = queue.shift(); next; next = queue.shift()) yield* next();
    yield part;
  }
}
