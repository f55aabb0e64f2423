import { formatBytes } from '../domain/attachments.ts';
import {
  hostileJsonProblem,
  parseImport,
  parseJson,
  readImport,
  type ImportData,
  type ImportOptions,
  type ImportResult,
} from '../domain/export-format.ts';
import type { OtherAppExport } from '../domain/other-apps/imported-chat.ts';
import { readOtherAppExport } from '../domain/other-apps/read-other-app.ts';
import { blobOfBase64 } from '../lib/base64.ts';
import { importLimits, type ImagesLeftOut } from './import-limits.ts';
import { isZip, readExportZip, type ExportedImage } from './import-zip.ts';

/**
 * Our own export as the import worker hands it to the page: checked whole, the files' bytes
 * already Blobs (passed by reference, never copied or decoded on the page's thread).
 */
export type ReadExport =
  | {
      ok: true;
      data: Omit<ImportData, 'files'>;
      files: Map<string, Blob>;
      /** Files whose data is not base64: counted, not kept. */
      unreadableFiles: number;
    }
  | { ok: false; problem: string };

/** What a file holds, as the import worker found it. */
export type ImportReading =
  /** Another app's export: its chats (and projects), and the images its ZIP carried. */
  | {
      type: 'found';
      found: OtherAppExport;
      images: Map<string, ExportedImage>;
      imagesLeftOut: ImagesLeftOut;
      /** Projects files past their limit (importLimits.projectsBytes) were left out. */
      projectsLeftOut: boolean;
    }
  /** Our own export (or what claims to be): the data to replace everything with, or why not. */
  | { type: 'export'; read: ReadExport }
  /** The file cannot be read at all. */
  | { type: 'problem'; message: string };

/** 'any': a file the user chose or pasted; 'export': our own export only (a backup). */
export type ReadAs = 'any' | 'export';

function readExport(result: ImportResult): ReadExport {
  if (!result.ok) return result;
  const { files: encoded, ...data } = result.data;
  const files = new Map<string, Blob>();
  let unreadableFiles = 0;
  for (const [id, { data: base64, mimeType }] of encoded ?? []) {
    try {
      files.set(id, blobOfBase64(base64, mimeType));
    } catch {
      unreadableFiles++;
    }
  }
  return { ok: true, data, files, unreadableFiles };
}

/**
 * The entries of an export's projects files (each a list, or one project), parsed one by one: a
 * file that is not JSON, or is hostile, is left out, never the conversations.
 */
async function projectEntries(files: readonly Blob[], progress: () => void): Promise<unknown[]> {
  const entries: unknown[] = [];
  for (const file of files) {
    const parsed = parseJson(await file.text());
    progress();
    if (!parsed.ok || hostileJsonProblem(parsed.value) !== null) continue;
    if (Array.isArray(parsed.value)) for (const entry of parsed.value as unknown[]) entries.push(entry);
    else entries.push(parsed.value);
  }
  return entries;
}

/**
 * Reads an import off the page's thread: a ZIP unpacked as it streams in (see import-zip.ts), JSON
 * parsed once and checked for hazards, then recognised as another app's export or read as our own.
 * Bounded by importLimits; `progress` is called as the file is read.
 */
export async function readImportFile(
  file: Blob,
  as: ReadAs,
  options: ImportOptions,
  progress: () => void = () => undefined,
): Promise<ImportReading> {
  const zipped = as === 'any' && (await isZip(file));
  let json: Blob | null = file;
  let images = new Map<string, ExportedImage>();
  let imagesLeftOut: ImagesLeftOut = { tooLarge: 0, overTotal: 0 };
  let projectFiles: Blob[] = [];
  let projectsLeftOut = false;
  if (zipped) {
    const zip = await readExportZip(file, importLimits, progress);
    if (!zip.ok) return { type: 'problem', message: zip.problem };
    ({ images, imagesLeftOut } = zip);
    ({ projects: projectFiles, projectsLeftOut } = zip);
    json = zip.conversations;
    if (!json) return { type: 'problem', message: 'The ZIP file holds no conversations.json.' };
  } else if (file.size > importLimits.jsonBytes) {
    return {
      type: 'problem',
      message: `The file is ${formatBytes(file.size)}, more than the ${formatBytes(importLimits.jsonBytes)} that can be read.`,
    };
  }
  const text = await json.text();
  progress();
  if (as === 'export') return { type: 'export', read: readExport(parseImport(text, options)) };
  const parsed = parseJson(text);
  progress();
  if (!parsed.ok) {
    if (zipped) return { type: 'problem', message: "The ZIP file's conversations.json is not valid JSON." };
    return { type: 'export', read: parsed };
  }
  const hostile = hostileJsonProblem(parsed.value);
  progress();
  if (hostile !== null) {
    if (zipped) return { type: 'problem', message: hostile };
    return { type: 'export', read: { ok: false, problem: hostile } };
  }
  const found = readOtherAppExport(parsed.value, options.now, {
    projects: await projectEntries(projectFiles, progress),
  });
  progress();
  if (found) return { type: 'found', found, images, imagesLeftOut, projectsLeftOut };
  if (zipped) return { type: 'problem', message: 'The ZIP file is not a ChatGPT or Claude.ai export.' };
  return { type: 'export', read: readExport(readImport(parsed.value, options)) };
}
