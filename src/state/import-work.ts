import { attachmentLimits, type AttachmentPart } from '../domain/attachments.ts';
import type { Conversation } from '../domain/conversation.ts';
import {
  importedImageId,
  toConversation,
  type ImportedChat,
  type ImportedProject,
} from '../domain/other-apps/imported-chat.ts';
import { placeImportedProjects } from '../domain/other-apps/imported-projects.ts';
import type { Project } from '../domain/projects.ts';
import { prepareImage } from '../lib/image-resize.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import { storageFailure, type StorageFailure } from '../storage/result.ts';
import { listItemOf, type ConversationListItem } from './chat-store.ts';
import type { ImagesLeftOut } from './import-limits.ts';
import { readImportFile, type ReadAs, type ReadExport } from './import-reading.ts';
import type { ExportedImage } from './import-zip.ts';

/**
 * The import worker's work (import.worker.ts runs it; tests run it on their own thread). It reads a
 * file (import-reading.ts) and says what it holds: our own export, checked and ready for the page
 * to apply, or another app's, named and counted. Once the page asks, it writes another app's
 * conversations to the database itself, a batch per transaction, and sends back only their
 * sidebar rows: the page never holds (or collects the garbage of) hundreds of megabytes of
 * messages. It tells the page it is alive while it works (see import-runner.ts's watchdog).
 */

export type ImportRequest =
  | { type: 'read'; file: Blob; as: ReadAs; now: string }
  /**
   * `known`: the conversations already stored, which are left as they are. `now` stamps the
   * projects created and the conversations put into them.
   */
  | { type: 'store'; order: number; known: string[]; now: string };

export type ImportReply =
  /** Still at work. */
  | { type: 'progress' }
  | {
      type: 'found';
      app: string;
      count: number;
      skipped: number;
      imagesLeftOut: ImagesLeftOut;
      /** The export's projects (ChatGPT's, Claude.ai's), and whether projects files were left out. */
      projects?: number;
      projectsLeftOut?: boolean;
    }
  | { type: 'export'; read: ReadExport }
  | { type: 'problem'; message: string }
  /** The projects created (before any conversation is written into them). */
  | { type: 'projects'; projects: Project[] }
  | { type: 'stored'; rows: ConversationListItem[]; already: number }
  /** The end: `failure` when a write failed (nothing of that batch or later was kept). */
  | { type: 'done'; failure?: StorageFailure };

const batchSize = 20;
/** Progress is told at most this often: the page's watchdog waits far longer (import-runner.ts). */
const progressEveryMs = 1000;

/**
 * The images a chat's messages show whose files came with the export, made attachments (resized
 * as a picked image is) and staged to be written with the conversation. An image that does not
 * decode is left out: its message names it.
 */
async function attachImages(
  chat: ImportedChat,
  images: ReadonlyMap<string, ExportedImage>,
  db: ConversationStore,
  progress: () => void,
): Promise<Map<string, AttachmentPart>> {
  const parts = new Map<string, AttachmentPart>();
  for (const message of chat.messages)
    for (const image of message.images ?? []) {
      const file = images.get(image);
      if (!file || parts.has(image)) continue;
      const prepared = await prepareImage(file.blob, {
        maxEdge: attachmentLimits.imageMaxEdge,
        maxBytes: attachmentLimits.imageMaxBytes,
      }).catch(() => null);
      progress();
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

/** A handler of the page's requests that answers through `post`; it keeps what it read for 'store'. */
export function createImportWork(post: (reply: ImportReply) => void): (request: ImportRequest) => void {
  let chats: ImportedChat[] = [];
  let projects: ImportedProject[] = [];
  let images = new Map<string, ExportedImage>();
  let toldAt = Date.now();
  const progress = () => {
    if (Date.now() - toldAt < progressEveryMs) return;
    toldAt = Date.now();
    post({ type: 'progress' });
  };

  async function read(file: Blob, as: ReadAs, now: Date): Promise<void> {
    const reading = await readImportFile(file, as, { now }, progress);
    if (reading.type === 'found') {
      ({ chats } = reading.found);
      projects = reading.found.projects ?? [];
      ({ images } = reading);
      const { app, skipped } = reading.found;
      const { imagesLeftOut, projectsLeftOut } = reading;
      post({
        type: 'found',
        app,
        count: chats.length,
        skipped,
        imagesLeftOut,
        ...(projects.length > 0 && { projects: projects.length }),
        ...(projectsLeftOut && { projectsLeftOut }),
      });
    } else if (reading.type === 'export') post({ type: 'export', read: reading.read });
    else post({ type: 'problem', message: reading.message });
  }

  /**
   * The export's projects added beside the user's (never replacing one: placeImportedProjects),
   * each in its own write with its files. Resolves where each export project's conversations go,
   * or the failure of a write (nothing after it is written).
   */
  async function storeProjects(
    db: ConversationStore,
    now: Date,
  ): Promise<{ placement: Map<string, string> } | { failure: StorageFailure }> {
    if (projects.length === 0) return { placement: new Map() };
    const { items: existing } = await db.listProjects();
    const { create, texts, placement } = placeImportedProjects(projects, existing, now);
    const created: Project[] = [];
    for (const project of create) {
      for (const file of project.files)
        db.stageAttachment(file.id, new Blob([texts.get(file.id) ?? ''], { type: file.mimeType }));
      // Made meanwhile (another tab adding the same export): the stored one stays.
      const { result, value, changed } = await db.updateProject(project.id, (stored) => stored ?? project);
      if (!result.ok) return { failure: result };
      if (changed && value) created.push(value);
      progress();
    }
    if (created.length > 0) post({ type: 'projects', projects: created });
    return { placement };
  }

  async function store(order: number, known: ReadonlySet<string>, now: Date): Promise<void> {
    const db = await openConversationDb();
    try {
      if (!db.persistent) throw new Error('IndexedDB could not be opened');
      const placed = await storeProjects(db, now);
      if ('failure' in placed) return post({ type: 'done', failure: placed.failure });
      const projectAt = now.toISOString();
      for (let start = 0; start < chats.length; start += batchSize) {
        const conversations: Conversation[] = [];
        let already = 0;
        for (const [offset, chat] of chats.slice(start, start + batchSize).entries()) {
          if (known.has(chat.id)) {
            already++;
            continue;
          }
          const conversation = toConversation(
            chat,
            order + start + offset,
            await attachImages(chat, images, db, progress),
          );
          const projectId = chat.project === undefined ? undefined : placed.placement.get(chat.project);
          conversations.push(
            projectId === undefined ? conversation : { ...conversation, projectId, projectAt },
          );
        }
        if (conversations.length > 0) {
          const result = await db.putMany(conversations);
          if (!result.ok) return post({ type: 'done', failure: result });
        }
        post({ type: 'stored', rows: conversations.map(listItemOf), already });
      }
      post({ type: 'done' });
    } finally {
      chats = [];
      projects = [];
      images = new Map();
      db.close();
    }
  }

  return (request) => {
    if (request.type === 'read')
      read(request.file, request.as, new Date(request.now)).catch((error: unknown) =>
        post({
          type: 'problem',
          message: `The file could not be read: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
    else
      store(request.order, new Set(request.known), new Date(request.now)).catch((error: unknown) =>
        post({ type: 'done', failure: storageFailure(error) }),
      );
  };
}
