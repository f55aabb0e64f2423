import {
  Inflate,
  Unzip,
  type AsyncFlateStreamHandler,
  type FlateError,
  type UnzipDecoder,
  type UnzipFile,
} from 'fflate';
import { formatBytes } from '../domain/attachments.ts';
import { importLimits, type ImagesLeftOut } from './import-limits.ts';

/** An image a ChatGPT export carries beside conversations.json, named as in the archive. */
export interface ExportedImage {
  name: string;
  blob: Blob;
}

export type ZipContents =
  | {
      ok: true;
      /** The bytes of conversations.json; null when the archive holds none. */
      conversations: Blob | null;
      /** By the id the messages' pointers name. */
      images: Map<string, ExportedImage>;
      imagesLeftOut: ImagesLeftOut;
      /** The bytes of each projects file (Claude.ai's `projects.json` or `projects/*.json`), in the archive's order. */
      projects: Blob[];
      /** True when projects files came to more than their limit: those past it are left out. */
      projectsLeftOut: boolean;
    }
  | { ok: false; problem: string };

export async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

const conversationsFile = /(^|\/)conversations\.json$/;
/** Claude.ai's projects: one `projects.json` (a list), or in newer exports `projects/{name}.json` each. */
const projectsFile = /(?:^|\/)projects(?:\.json|\/[^/]+\.json)$/;

/**
 * An image ChatGPT's export carries beside conversations.json: named by the id its messages'
 * pointers name (`file-abc`, `file_00…`), then anything, e.g. `file-abc-photo.png`.
 */
const imageFile = /(?:^|\/)((file[-_][A-Za-z0-9]+)(?:[-.][^/]*)?\.(?:png|jpe?g|webp|gif))$/i;

/**
 * DEFLATE for Unzip that stops for good on `terminate` (fflate's UnzipInflate has none, so an
 * entry told to stop would go on inflating to its end).
 */
class StoppableInflate implements UnzipDecoder {
  static compression = 8;
  ondata: AsyncFlateStreamHandler = () => undefined;
  private stopped = false;
  private readonly inflate = new Inflate((chunk, final) => this.ondata(null, chunk, final));

  push(data: Uint8Array, final: boolean): void {
    if (this.stopped) return;
    try {
      this.inflate.push(data, final);
    } catch (error) {
      this.ondata(error as FlateError, new Uint8Array(0), final);
    }
  }

  terminate = (): void => {
    this.stopped = true;
  };
}

/**
 * The archive is fed to Unzip in slices this small: one push inflates at most about a thousand
 * times its size (DEFLATE's ratio), so no chunk ever lands far past a limit.
 */
const sliceBytes = 16 * 1024;

/** Inflated chunks kept as Blobs every few MB: the browser holds them, not the worker's heap. */
class BlobCollector {
  private blobs: Blob[] = [];
  private chunks: Uint8Array<ArrayBuffer>[] = [];
  private pending = 0;

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk as Uint8Array<ArrayBuffer>);
    this.pending += chunk.length;
    if (this.pending >= 8 * 1024 * 1024) this.flush();
  }

  blob(): Blob {
    this.flush();
    return new Blob(this.blobs);
  }

  private flush(): void {
    this.blobs.push(new Blob(this.chunks));
    this.chunks = [];
    this.pending = 0;
  }
}

type Limits = typeof importLimits;

/** Inflates `entry` into `into` while `fits` the bytes so far; past it, stops it for good. */
function inflate(
  entry: UnzipFile,
  into: BlobCollector,
  fits: (added: number) => boolean,
  on: { done(): void; over(): void; failed(error: Error): void },
): void {
  let stopped = false;
  entry.ondata = (error, chunk, final) => {
    if (stopped) return;
    if (error || !fits(chunk.length)) {
      stopped = true;
      entry.terminate();
      if (error) on.failed(error);
      else on.over();
      return;
    }
    into.add(chunk);
    if (final) on.done();
  };
  entry.start();
}

/**
 * An export's conversations.json (at the root or in a folder), Claude.ai's projects files and
 * ChatGPT's images, read from a ZIP as it streams in: nothing else is inflated, and nothing past
 * `limits` (see import-limits.ts). A conversations.json over its limit refuses the file at once;
 * an image over its own, or past the images' total, is left out and counted; projects files past
 * their total are left out. `progress` hears the bytes of the file read so far.
 */
export async function readExportZip(
  file: Blob,
  limits: Limits = importLimits,
  progress: (read: number) => void = () => undefined,
): Promise<ZipContents> {
  const json = {
    collector: null as BlobCollector | null,
    done: false,
    tooLarge: false,
    failure: null as Error | null,
  };
  const images = new Map<string, ExportedImage>();
  const imagesLeftOut: ImagesLeftOut = { tooLarge: 0, overTotal: 0 };
  let imagesInflated = 0;
  const projects: { blob: Blob | null }[] = [];
  let projectsInflated = 0;
  let projectsLeftOut = false;

  const unzip = new Unzip((entry) => {
    if (projectsFile.test(entry.name)) {
      if (projectsInflated + (entry.originalSize ?? 0) > limits.projectsBytes) {
        projectsLeftOut = true;
        return;
      }
      const collector = new BlobCollector();
      const slot: { blob: Blob | null } = { blob: null };
      projects.push(slot);
      inflate(entry, collector, (added) => (projectsInflated += added) <= limits.projectsBytes, {
        done: () => (slot.blob = collector.blob()),
        over: () => (projectsLeftOut = true),
        // A projects file that does not inflate is left out: the conversations still import.
        failed: () => undefined,
      });
      return;
    }
    if (!json.collector && conversationsFile.test(entry.name)) {
      json.collector = new BlobCollector();
      if ((entry.originalSize ?? 0) > limits.jsonBytes) {
        json.tooLarge = true;
        return;
      }
      let size = 0;
      inflate(entry, json.collector, (added) => (size += added) <= limits.jsonBytes, {
        done: () => (json.done = true),
        over: () => (json.tooLarge = true),
        failed: (error) => (json.failure = error),
      });
      return;
    }
    const [, name, id] = imageFile.exec(entry.name) ?? [];
    if (!name || !id) return;
    if ((entry.originalSize ?? 0) > limits.imageBytes) {
      imagesLeftOut.tooLarge++;
      return;
    }
    if (imagesInflated >= limits.imagesTotalBytes) {
      imagesLeftOut.overTotal++;
      return;
    }
    const collector = new BlobCollector();
    let size = 0;
    const fits = (added: number) => {
      size += added;
      imagesInflated += added;
      return size <= limits.imageBytes && imagesInflated <= limits.imagesTotalBytes;
    };
    inflate(entry, collector, fits, {
      done: () => images.set(id, { name, blob: collector.blob() }),
      over: () => {
        if (size > limits.imageBytes) imagesLeftOut.tooLarge++;
        else imagesLeftOut.overTotal++;
      },
      // An image that does not inflate is left out, as one that does not decode is.
      failed: () => undefined,
    });
  });
  unzip.register(StoppableInflate);

  const stop = () => json.tooLarge || json.failure !== null;
  const reader = file.stream().getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        unzip.push(new Uint8Array(0), true);
        break;
      }
      for (let start = 0; start < value.length && !stop(); start += sliceBytes)
        unzip.push(value.subarray(start, start + sliceBytes), false);
      read += value.length;
      progress(read);
      if (stop()) break;
    }
  } catch (error) {
    json.failure = error instanceof Error ? error : new Error(String(error));
  } finally {
    // A file refused halfway is read no further.
    void reader.cancel().catch(() => undefined);
  }
  if (json.tooLarge)
    return {
      ok: false,
      problem: `The ZIP file's conversations.json is larger than ${formatBytes(limits.jsonBytes)} unpacked, more than can be read.`,
    };
  if (json.failure) return { ok: false, problem: `The ZIP file could not be read: ${json.failure.message}` };
  // A conversations.json cut short (the archive ends inside it) is as good as none.
  const conversations = json.collector && json.done ? json.collector.blob() : null;
  const projectFiles = projects.flatMap(({ blob }) => blob ?? []);
  return { ok: true, conversations, images, imagesLeftOut, projects: projectFiles, projectsLeftOut };
}
