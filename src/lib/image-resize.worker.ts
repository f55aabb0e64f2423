/**
 * Decodes, scales and encodes images off the main thread: decoding a 12-megapixel photo alone
 * would freeze the page for a noticeable moment.
 */
import {
  canSendAsIs,
  carriesMetadata,
  declaredSize,
  encodingsFor,
  fitWithin,
  maxDecodedPixels,
  metadataHeadBytes,
  nextEdge,
  sniffImageType,
  type Encoding,
  type ImageLimits,
  type PreparedImage,
} from './image-resize-plan.ts';

export interface ResizeRequest {
  id: number;
  file: Blob;
  limits: ImageLimits;
}

export type ResizeResponse = { id: number; image: PreparedImage } | { id: number; error: string };

/** An error whose message is meant for the user. */
class ImageError extends Error {}

addEventListener('message', (event: MessageEvent<ResizeRequest>) => {
  const { id, file, limits } = event.data;
  prepare(file, limits).then(
    (image) => postMessage({ id, image } satisfies ResizeResponse),
    (error: unknown) =>
      postMessage({
        id,
        error: error instanceof ImageError ? error.message : 'This image could not be processed.',
      } satisfies ResizeResponse),
  );
});

async function prepare(file: Blob, limits: ImageLimits): Promise<PreparedImage> {
  const head = new Uint8Array(await file.slice(0, metadataHeadBytes).arrayBuffer());
  const type = sniffImageType(head);
  // A JPEG's frame header may follow more than the head of metadata: it is looked for further.
  const declared =
    declaredSize(type, head) ??
    (type === 'image/jpeg'
      ? declaredSize(type, new Uint8Array(await file.slice(0, 1 << 20).arrayBuffer()))
      : null);
  if (declared && declared.width * declared.height > maxDecodedPixels)
    throw new ImageError(
      `This image is too large to process (${declared.width} × ${declared.height} pixels).`,
    );
  const source = await createImageBitmap(file).catch(() => {
    throw new ImageError('This image could not be read.');
  });
  try {
    const size = { width: source.width, height: source.height };
    if (canSendAsIs(type, size, file.size, limits) && !carriesMetadata(type, head)) {
      // Relabelling a blob shares its bytes; the type then matches the content whatever the name said.
      const blob = file.type === type ? file : file.slice(0, file.size, type);
      return { blob, mimeType: type, ...size };
    }
    return await encode(source, encodingsFor(type), limits);
  } finally {
    source.close();
  }
}

async function encode(
  source: ImageBitmap,
  encodings: Encoding[],
  limits: ImageLimits,
): Promise<PreparedImage> {
  const sourceSize = { width: source.width, height: source.height };
  let edge = Math.min(limits.maxEdge, Math.max(source.width, source.height));
  for (let round = 0; ; round++) {
    const { width, height } = fitWithin(sourceSize, edge);
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D context for an OffscreenCanvas.');
    context.imageSmoothingQuality = 'high';
    context.drawImage(source, 0, 0, width, height);
    for (const encoding of encodings) {
      const blob = await canvas.convertToBlob(encoding);
      // A browser that cannot encode a type silently gives a PNG instead, already tried or not wanted.
      if (blob.type === encoding.type && blob.size <= limits.maxBytes) {
        return { blob, mimeType: encoding.type, width, height };
      }
    }
    const next = nextEdge(edge, round);
    if (next === null) {
      const megabytes = (limits.maxBytes / 1024 / 1024).toFixed(1);
      throw new ImageError(`This image could not be made smaller than the ${megabytes} MB limit.`);
    }
    edge = next;
  }
}
