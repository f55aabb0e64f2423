import type { StreamPart } from '../types.ts';

/** Test doubles for `fetch`: record what a provider sends, answer with canned bodies split at chosen byte sizes. */

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Respond = (request: RecordedRequest, index: number) => Response | Promise<Response>;

export function fakeFetch(respond: Respond) {
  const requests: RecordedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (init?.signal?.aborted) throw new DOMException('This operation was aborted', 'AbortError');
    const request = new Request(input, init);
    const text = await request.text();
    const recorded: RecordedRequest = {
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    requests.push(recorded);
    return respond(recorded, requests.length - 1);
  };
  return { fetch, requests };
}

export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

/** The UTF-8 bytes of `text` in pieces of `chunkSize` bytes: small sizes cut through multi-byte characters. */
export function byteChunks(text: string, chunkSize: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  const size = Number.isFinite(chunkSize) ? chunkSize : bytes.length;
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.slice(offset, offset + size));
  return chunks;
}

export function streamResponse(text: string, chunkSize = Infinity, contentType = 'text/event-stream') {
  const chunks = byteChunks(text, chunkSize);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': contentType } });
}

/** A stream that sends `text` and then neither ends nor fails: only cancelling it stops it. */
export function hangingStream(text: string) {
  let markCancelled: () => void = () => undefined;
  const cancelled = new Promise<void>((resolve) => (markCancelled = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
    },
    cancel() {
      markCancelled();
    },
  });
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }), cancelled };
}

/** A stream that sends `text` and then fails as a dropped connection does. */
export function failingStream(text: string) {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new TypeError('terminated'));
      sent = true;
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

export async function drain(parts: AsyncIterable<StreamPart>) {
  const received: StreamPart[] = [];
  let error: unknown;
  try {
    for await (const part of parts) received.push(part);
  } catch (caught) {
    error = caught;
  }
  const text = received.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
  const finish = received.find((part) => part.type === 'finish');
  return { parts: received, text, error, finish };
}

/** Byte sizes that split the fixtures everywhere, inside multi-byte characters included. */
export const chunkSizes = [1, 2, 3, 5, 7, 13, 64, Infinity];
