import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { errorFromPayload, isErrorPayload } from './error-mapping.ts';
import { hostOf, readFailure, type HttpRequest } from './http.ts';
import { parseJson } from './json.ts';
import { abortFailure } from './provider-error.ts';

export type ServerSentEvent = Pick<EventSourceMessage, 'event' | 'data'>;

/** Lines that are not SSE fields are kept only up to this size, to find a bare JSON error in them. */
const maxStrayText = 64 * 1024;

/**
 * The server-sent events of a response body, decoded as UTF-8 across chunk boundaries.
 * Comments (keep-alives) are skipped. A bare JSON error object in the body, which Google sends
 * inside a 200 stream, is thrown as a ProviderError. When the signal aborts, reading stops at once
 * (the body is cancelled) and a ProviderError of kind 'aborted' is thrown.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  request: HttpRequest,
): AsyncGenerator<ServerSentEvent> {
  const { provider, signal } = request;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: ServerSentEvent[] = [];
  let strayText = '';
  const parser = createParser({
    onEvent: ({ event, data }) => events.push({ event, data }),
    onError: (error) => {
      if (error.type === 'unknown-field' && error.line !== undefined && strayText.length < maxStrayText) {
        strayText += `${error.line}\n`;
      }
    },
  });
  const throwIfStrayError = () => {
    const stray = strayText.trim();
    if (!stray.startsWith('{') && !stray.startsWith('[')) return;
    const payload = parseJson(stray);
    if (isErrorPayload(payload)) throw errorFromPayload(provider, payload);
  };
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
      throwIfStrayError();
      while (events.length > 0) {
        const event = events.shift();
        if (event) yield event;
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
