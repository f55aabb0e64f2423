import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorFromPayload, isErrorPayload } from './error-mapping.ts';
import { hostOf, readFailure, type HttpRequest } from './http.ts';
import { parseJson } from './json.ts';
import { abortFailure, ProviderError } from './provider-error.ts';

export type ServerSentEvent = Pick<EventSourceMessage, 'event' | 'data'>;

/** Lines that are not SSE fields are kept only up to this size, to find a bare JSON error in them. */
const maxStrayText = 64 * 1024;

/**
 * The server-sent events of a response body, decoded as UTF-8 across chunk boundaries.
 * Comments (keep-alives) are skipped. A bare JSON error object in the body, which Google sends
 * inside a 200 stream, is thrown as a ProviderError at its place in the stream: every event before
 * it is delivered first, however the bytes were split into reads. When the signal aborts, reading
 * stops at once (the body is cancelled) and a ProviderError of kind 'aborted' is thrown.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  request: HttpRequest,
): AsyncGenerator<ServerSentEvent> {
  const { provider, signal } = request;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Events and a stray error, in the order they appear in the body.
  const queue: (ServerSentEvent | ProviderError)[] = [];
  let strayText = '';
  const readStrayLine = (line: string) => {
    // Past the limit it was no error object: start over, so a later one is still found.
    if (strayText.length + line.length > maxStrayText) strayText = '';
    strayText += `${line}\n`;
    const stray = strayText.trim();
    if (!stray.startsWith('{') && !stray.startsWith('[')) {
      strayText = '';
      return;
    }
    if (!stray.endsWith('}') && !stray.endsWith(']')) return;
    // A pretty-printed object spans lines: wait until the text so far parses.
    const payload = parseJson(stray);
    if (payload === undefined) return;
    strayText = '';
    if (isErrorPayload(payload)) queue.push(errorFromPayload(provider, payload));
  };
  const parser = createParser({
    onEvent: ({ event, data }) => queue.push({ event, data }),
    onError: (error) => {
      if (error.type === 'unknown-field' && error.line !== undefined) readStrayLine(error.line);
    },
  });
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw abortFailure(provider, hostOf(request.url), signal);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw readFailure(request, error);
      }
      if (signal?.aborted) throw abortFailure(provider, hostOf(request.url), signal);
      if (chunk.done) {
        parser.feed(decoder.decode());
        // Consume a last line that has no line break, e.g. the end of a bare JSON error.
        parser.reset({ consume: true });
      } else {
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      for (let item = queue.shift(); item; item = queue.shift()) {
        if (item instanceof ProviderError) throw item;
        yield item;
        if (signal?.aborted) throw abortFailure(provider, hostOf(request.url), signal);
      }
      if (chunk.done) return;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    // Frees the connection when the consumer stops early, e.g. at [DONE].
    cancel();
  }
}
