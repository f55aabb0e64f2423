import {
  attachmentDelivery,
  attachmentKind,
  attachmentLimits,
  attachmentMaxBytes,
  fileAsText,
  formatBytes,
  type AttachmentKind,
  type AttachmentPart,
} from '../domain/attachments.ts';
import type { ModelCapabilities } from '../domain/provider-definitions/capabilities.ts';
import { base64Of } from '../lib/base64.ts';
import type { ChatFile } from '../providers/types.ts';
import type { ConversationStore } from '../storage/conversation-store.ts';

/** A file ready to attach: its part, and the bytes to store with the message. */
export interface PreparedFile {
  part: AttachmentPart;
  blob: Blob;
}

const kindNames: Record<AttachmentKind, string> = { image: 'Images', pdf: 'PDFs', text: 'Text files' };

/**
 * A picked, pasted or dropped file as an attachment: an image resized (in a worker) to what every
 * provider takes, a PDF or a text file as it is. Rejects with a message for the user.
 */
export async function prepareFile(file: File, id: string): Promise<PreparedFile> {
  const name = file.name || 'Pasted file';
  const kind = attachmentKind(file.type, name);
  if (!kind) throw new Error(`${name} cannot be attached: only images, PDFs and text files can.`);
  const maxBytes = attachmentMaxBytes(kind);
  if (file.size > maxBytes)
    throw new Error(
      `${name} is too large (${formatBytes(file.size)}). ${kindNames[kind]} can be up to ${formatBytes(maxBytes)}.`,
    );
  const base = { type: 'attachment', id, kind, name } as const;
  if (kind !== 'image') {
    const mimeType = kind === 'pdf' ? 'application/pdf' : file.type || 'text/plain';
    return { part: { ...base, mimeType, size: file.size }, blob: file };
  }
  // Loaded with the first image: the worker behind it is a file of its own anyway.
  const { prepareImage } = await import('../lib/image-resize.ts');
  const image = await prepareImage(file, {
    maxEdge: attachmentLimits.imageMaxEdge,
    maxBytes: attachmentLimits.imageMaxBytes,
  });
  const { blob, mimeType, width, height } = image;
  return { part: { ...base, mimeType, size: blob.size, width, height }, blob };
}

/** PDF text already read this session, by attachment id: the whole history is sent every turn. */
const pdfTexts = new Map<string, string>();

async function pdfText(part: AttachmentPart, blob: Blob): Promise<string> {
  const known = pdfTexts.get(part.id);
  if (known !== undefined) return known;
  const { extractPdfText } = await import('../lib/pdf-text.ts');
  const { text } = await extractPdfText(blob);
  pdfTexts.set(part.id, text);
  return text;
}

/**
 * A user message's files as a model takes them: images and PDFs it reads as files (base64), the
 * rest as text blocks, named, to go before the message's text. A file whose bytes are gone, or
 * whose text cannot be read, is named with why in its place: the whole history goes with every
 * turn, so one lost file must not stop the conversation.
 */
export async function filesForModel(
  parts: readonly AttachmentPart[],
  capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>,
  read: (id: string) => Promise<Blob | undefined>,
): Promise<{ files: ChatFile[]; texts: string[] }> {
  const files: ChatFile[] = [];
  const texts: string[] = [];
  for (const part of parts) {
    const delivery = attachmentDelivery(part.kind, capabilities);
    if (delivery === 'refused') {
      texts.push(`[${part.name}: an image this model cannot see]`);
      continue;
    }
    const blob = await read(part.id);
    if (!blob) {
      texts.push(`[${part.name}: this file is no longer stored in this browser]`);
      continue;
    }
    if (delivery === 'native') {
      files.push({
        kind: part.kind === 'pdf' ? 'pdf' : 'image',
        name: part.name,
        mimeType: part.mimeType,
        data: await base64Of(blob),
      });
      continue;
    }
    const text = await (part.kind === 'pdf' ? pdfText(part, blob) : blob.text()).catch(
      (error: unknown) =>
        `(its text could not be read: ${error instanceof Error ? error.message : String(error)})`,
    );
    texts.push(fileAsText(part.name, text.trim() === '' ? '(no text could be read from this file)' : text));
  }
  return { files, texts };
}

/**
 * The bytes of these files as they are now: what is about to stop referring to them (a deleted
 * message, a replaced history) may come back with Undo, and they are then staged again.
 */
export async function holdFiles(
  ids: Iterable<string>,
  db: Pick<ConversationStore, 'readAttachment'>,
): Promise<Map<string, Blob>> {
  const held = new Map<string, Blob>();
  for (const id of ids) {
    const blob = await db.readAttachment(id);
    if (blob) held.set(id, blob);
  }
  return held;
}

export function stageFiles(
  files: ReadonlyMap<string, Blob>,
  db: Pick<ConversationStore, 'stageAttachment'>,
): void {
  for (const [id, blob] of files) db.stageAttachment(id, blob);
}
