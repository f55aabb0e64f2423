import { errorFromPayload, isErrorPayload } from './error-mapping.ts';
import { hostOf, postJson, readJson, type HttpRequest } from './http.ts';
import { parseJson } from './json.ts';
import { connectionLostError, ProviderError } from './provider-error.ts';
import { readServerSentEvents, type ServerSentEvent } from './sse.ts';
import type { StreamPart } from './types.ts';

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

/** Turns one provider's server-sent events into stream parts. */
export interface StreamDecoder {
  /** Text parts for one event (or a thrown ProviderError); returns true once the provider signalled the end. */
  decode(event: ServerSentEvent): Generator<StreamPart, boolean>;
  /** The finish part, or undefined when the reply had not finished when the body ended. */
  finish(): FinishPart | undefined;
}

export interface ChatCall extends HttpRequest {
  body: unknown;
  stream: boolean;
  createDecoder(): StreamDecoder;
  /** The parts of a non-streamed reply; throws ProviderError for a reply that is an error or blocked. */
  decodeReply(json: unknown): StreamPart[];
}

/** The JSON of one event's data; a malformed payload is a server fault, not something to skip silently. */
export function parseEventJson(call: Pick<HttpRequest, 'provider' | 'url'>, data: string): unknown {
  const json = parseJson(data);
  if (json === undefined) {
    const message = `Malformed stream data from ${hostOf(call.url)}: ${data.slice(0, 80)}`;
    throw new ProviderError({ provider: call.provider, kind: 'server', message });
  }
  if (isErrorPayload(json)) throw errorFromPayload(call.provider, json);
  return json;
}

function isJsonResponse(response: Response): boolean {
  return response.headers.get('content-type')?.includes('application/json') ?? false;
}

/** One chat call: POST, then stream the reply, or read it whole when not streaming. */
export async function* runChat(call: ChatCall): AsyncGenerator<StreamPart> {
  const response = await postJson(call, call.body);
  // A compatible server may ignore `stream` and answer with one JSON body.
  if (!call.stream || isJsonResponse(response) || !response.body) {
    const json = await readJson(response, call);
    if (isErrorPayload(json)) throw errorFromPayload(call.provider, json);
    yield* call.decodeReply(json);
    return;
  }
  const decoder = call.createDecoder();
  for await (const event of readServerSentEvents(response.body, call)) {
    const ended = yield* decoder.decode(event);
    if (ended) break;
  }
  const finish = decoder.finish();
  // A body that ends cleanly but without the provider's end marker is a cut connection.
  if (!finish) throw connectionLostError(call.provider, hostOf(call.url));
  yield finish;
}
