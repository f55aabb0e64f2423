import { Unzip, UnzipInflate } from 'fflate';
import type { Conversation } from '../domain/conversation.ts';
import { findProtoKey } from '../domain/json-guards.ts';
import { attachmentLimits, type AttachmentPart } from '../domain/attachments.ts';
import { importedImageId, toConversation, type ImportedChat } from '../domain/other-apps/imported-chat.ts';
import { prepareImage } from '../lib/image-resize.ts';
import { readOtherAppExport } from '../domain/other-apps/read-other-app.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import { storageFailure, type StorageFailure } from '../storage/result.ts';
import { listItemOf, type ConversationListItem } from './chat-store.ts';

/**
 * Reads another app's export off the page's thread: a ZIP is unpacked as it is read (only its
 * conversations.json and ChatGPT's images are inflated), the JSON parsed and made into
 * conversations. The page is told
 * what was found first; once it asks, the worker writes the conversations to the database itself,
 * a batch per transaction, and sends back only their sidebar rows: the page never holds (or
 * collects the garbage of) hundreds of megabytes of messages.
 */

export type ImportRequest =
  | { type: 'read'; file: Blob; now: string }
  /** `known`: the conversations already stored, which are left as they are. */
  | { type: 'store'; order: number; known: string[] }
  | { type: 'cancel' };

export type ImportReply =
  | { type: 'found'; app: string; count: number; skipped: number }
  /** Not another app's export: the page reads it as its own format. */
  | { type: 'not-other-app' }
  | { type: 'problem'; message: string }
  | { type: 'stored'; rows: ConversationListItem[]; already: number }
  /** The end: `failure` when a write failed (nothing of that batch or later was kept). */
  | { type: 'done'; failure?: StorageFailure };

const batchSize = 20;
const post = (reply: ImportReply) => self.postMessage(reply);

let found: ReturnType<typeof readOtherAppExport> = null;

async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/**
 * An image ChatGPT's export carries beside conversations.json: named by the id its messages'
 * pointers name (`file-abc`, `file_00…`), then anything, e.g. `file-abc-photo.png`.
 */
const imageFile = /(?:^|\/)((file[-_][A-Za-z0-9]+)(?:[-.][^/]*)?\.(?:png|jpe?g|webp|gif))$/i;

interface ExportedImage {
  name: string;
  blob: Blob;
}

/** The images of the export being read, by id; kept until its conversations are stored. */
let images = new Map<string, ExportedImage>();

/**
 * The text of the archive's conversations.json (at its root or in a folder), and its images, read
 * as a stream: nothing else in it is inflated.
 */
async function readZip(file: Blob): Promise<{ text: string | null; images: Map<string, ExportedImage> }> {
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  const found = new Map<string, ExportedImage>();
  let matched = false;
  let failure: Error | null = null;
  const unzip = new Unzip((entry) => {
    if (!matched && /(^|\/)conversations\.json$/.test(entry.name)) {
      matched = true;
      entry.ondata = (error, chunk, final) => {
        if (error) failure = error;
        else pieces.push(decoder.decode(chunk, { stream: !final }));
      };
      entry.start();
      return;
    }
    const image = imageFile.exec(entry.name);
    const [, name, id] = image ?? [];
    if (!name || !id) return;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    entry.ondata = (error, chunk, final) => {
      if (error) failure = error;
      else chunks.push(chunk as Uint8Array<ArrayBuffer>);
      if (final && !error) found.set(id, { name, blob: new Blob(chunks) });
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    unzip.push(value ?? new Uint8Array(0), done);
    if (failure) throw failure;
    if (done) break;
  }
  return { text: matched ? pieces.join('') : null, images: found };
}

/**
 * The images a chat's messages show whose files came with the export, made attachments (resized
 * as a picked image is) and staged to be written with the conversation. An image that does not
 * decode is left out: its message names it.
 */
async function attachImages(chat: ImportedChat, db: ConversationStore): Promise<Map<string, AttachmentPart>> {
  const parts = new Map<string, AttachmentPart>();
  for (const image of chat.messages.flatMap((message) => message.images ?? [])) {
    const file = images.get(image);
    if (!file || parts.has(image)) continue;
    const prepared = await prepareImage(file.blob, {
      maxEdge: attachmentLimits.imageMaxEdge,
      maxBytes: attachmentLimits.imageMaxBytes,
    }).catch(() => null);
    if (!prepared) continue;
    const id = importedImageId(chat, image);
    db.stageAttachment(id, prepared.blob);
    const { mimeType, width, height } = prepared;
    parts.set(image, {
      type: 'attachment',
      id,
      kind: 'image',
      name: file.name,
      mimeType,
      size: prepared.blob.size,
      width,
      height,
    });
  }
  return parts;
}

async function read(file: Blob, now: Date): Promise<void> {
  const zipped = await isZip(file);
  const archive = zipped
    ? await readZip(file)
    : { text: await file.text(), images: new Map<string, ExportedImage>() };
  const { text } = archive;
  images = archive.images;
  if (text === null) {
    return post({ type: 'problem', message: 'The ZIP file holds no conversations.json.' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (zipped)
      return post({ type: 'problem', message: "The ZIP file's conversations.json is not valid JSON." });
    return post({ type: 'not-other-app' });
  }
  // No genuine export has one; a file that does was crafted to pollute prototypes. The app's own
  // reader refuses it with its reason.
  if (findProtoKey(value) !== null) return post({ type: 'not-other-app' });
  found = readOtherAppExport(value, now);
  if (!found) {
    if (zipped)
      return post({ type: 'problem', message: 'The ZIP file is not a ChatGPT or Claude.ai export.' });
    return post({ type: 'not-other-app' });
  }
  post({ type: 'found', app: found.app, count: found.chats.length, skipped: found.skipped });
}

async function store(order: number, known: ReadonlySet<string>): Promise<void> {
  const chats = found?.chats ?? [];
  found = null;
  const db = await openConversationDb();
  try {
    if (!db.persistent) throw new Error('IndexedDB could not be opened');
    for (let start = 0; start < chats.length; start += batchSize) {
      const conversations: Conversation[] = [];
      let already = 0;
      for (const [offset, chat] of chats.slice(start, start + batchSize).entries()) {
        if (known.has(chat.id)) already++;
        else conversations.push(toConversation(chat, order + start + offset, await attachImages(chat, db)));
      }
      if (conversations.length > 0) {
        const result = await db.putMany(conversations);
        if (!result.ok) return post({ type: 'done', failure: result });
      }
      post({ type: 'stored', rows: conversations.map(listItemOf), already });
    }
    post({ type: 'done' });
  } finally {
    images = new Map();
    db.close();
  }
}

self.addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  const request = event.data;
  if (request.type === 'read')
    read(request.file, new Date(request.now)).catch((error: unknown) =>
      post({ type: 'problem', message: error instanceof Error ? error.message : String(error) }),
    );
  else if (request.type === 'store')
    store(request.order, new Set(request.known)).catch((error: unknown) =>
      post({ type: 'done', failure: storageFailure(error) }),
    );
  else {
    found = null;
    images = new Map();
  }
});
