import type { ImageLimits, PreparedImage } from './image-resize-plan.ts';
import type { ResizeRequest, ResizeResponse } from './image-resize.worker.ts';

export type { ImageLimits, ImageMimeType, PreparedImage } from './image-resize-plan.ts';

interface Pending {
  resolve: (image: PreparedImage) => void;
  reject: (error: Error) => void;
}

/**
 * An image not prepared by then never will be: a crafted file can make the decoder run on, or
 * kill the worker without an error event. The worker is ended and the image refused. (Well under
 * the import's 60 s watchdog, so an import leaves such an image out rather than stopping.)
 */
const deadlineMs = 30_000;

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

/**
 * The image as a provider accepts it: within `limits.maxEdge` on its long side and
 * `limits.maxBytes` in size, as PNG, JPEG or WebP, the original bytes when they already fit. The
 * work runs in a worker; a failure rejects with a message meant for the user.
 */
export function prepareImage(file: Blob, limits: ImageLimits): Promise<PreparedImage> {
  return new Promise((resolve, reject) => {
    const target = resizeWorker();
    const id = nextId++;
    const timer = setTimeout(() => {
      if (worker !== target) return;
      pending.get(id)?.reject(new Error('This image took too long to process.'));
      pending.delete(id);
      stop(target, 'The image could not be processed: another one took too long. Please try again.');
    }, deadlineMs);
    const settled =
      <T>(settle: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        settle(value);
      };
    pending.set(id, { resolve: settled(resolve), reject: settled(reject) });
    // A Blob is passed by reference: its bytes are not copied to the worker.
    target.postMessage({ id, file, limits } satisfies ResizeRequest);
  });
}

/** The one worker, started on first use and kept for the next image. */
function resizeWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./image-resize.worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<ResizeResponse>) => {
    const response = event.data;
    const request = pending.get(response.id);
    pending.delete(response.id);
    if ('image' in response) request?.resolve(response.image);
    else request?.reject(new Error(response.error));
  });
  // The worker handles each request's errors itself, so one reaching here means it failed to load
  // or broke: the requests in flight are lost, and the next call starts a fresh worker.
  started.addEventListener('error', (event) => {
    event.preventDefault();
    stop(started, 'The image could not be processed.');
  });
  worker = started;
  return started;
}

/** Ends the worker: the requests in flight fail with `message`, and the next call starts a fresh one. */
function stop(target: Worker, message: string): void {
  target.terminate();
  worker = undefined;
  for (const request of pending.values()) request.reject(new Error(message));
  pending.clear();
}
