import { errorFromPayload } from './error-mapping.ts';
import type { HttpRequest } from './http.ts';
import { arrayAt, numberAt, recordAt, stringAt, type JsonRecord } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { ProviderError } from './provider-error.ts';
import type { ChatMessage, FinishReason, StreamPart, Usage } from './types.ts';

/** The core shared by OpenAI, Azure and Groq (and any server that speaks /chat/completions). */

/** Only role and content: the APIs reject extra keys such as an app's `status` or `error`. */
export function completionMessages(messages: readonly ChatMessage[]): { role: string; content: string }[] {
  return messages.map(({ role, content }) => ({ role, content }));
}

export function mapCompletionFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Usage from the top-level `usage`, or Groq's `x_groq.usage`. */
function readUsage(chunk: unknown): Usage | undefined {
  const usage = recordAt(chunk, 'usage') ?? recordAt(recordAt(chunk, 'x_groq'), 'usage');
  if (!usage) return undefined;
  return {
    inputTokens: numberAt(usage, 'prompt_tokens'),
    outputTokens: numberAt(usage, 'completion_tokens'),
    totalTokens: numberAt(usage, 'total_tokens'),
  };
}

function finishPart(
  rawReason: string | undefined,
  usage: Usage | undefined,
): Extract<StreamPart, { type: 'finish' }> {
  return { type: 'finish', reason: mapCompletionFinishReason(rawReason), rawReason, usage };
}

function createCompletionDecoder(request: HttpRequest): StreamDecoder {
  let rawReason: string | undefined;
  let usage: Usage | undefined;
  let done = false;
  return {
    *decode(event) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        return true;
      }
      const chunk = parseEventJson(request, event.data);
      if (event.event === 'error') throw errorFromPayload(request.provider, chunk);
      const groqError = stringAt(recordAt(chunk, 'x_groq'), 'error');
      if (groqError)
        throw new ProviderError({ provider: request.provider, kind: 'server', message: groqError });
      usage = readUsage(chunk) ?? usage;
      // Chunks with no choices (Azure's prompt filter results, the usage chunk) carry no text.
      const choice = arrayAt(chunk, 'choices')[0];
      const text = stringAt(recordAt(choice, 'delta'), 'content');
      if (text) yield { type: 'text-delta', text };
      rawReason = stringAt(choice, 'finish_reason') ?? rawReason;
      return false;
    },
    finish: () => (done || rawReason !== undefined ? finishPart(rawReason, usage) : undefined),
  };
}

function decodeCompletionReply(json: unknown): StreamPart[] {
  const choice = arrayAt(json, 'choices')[0];
  const text = stringAt(recordAt(choice, 'message'), 'content');
  const finish = finishPart(stringAt(choice, 'finish_reason'), readUsage(json));
  return text ? [{ type: 'text-delta', text }, finish] : [finish];
}

/** POSTs a chat completion body (the caller sets `stream` in it) and yields the reply. */
export function runChatCompletion(
  request: HttpRequest,
  body: JsonRecord,
  stream: boolean,
): AsyncGenerator<StreamPart> {
  return runChat({
    ...request,
    body,
    stream,
    createDecoder: () => createCompletionDecoder(request),
    decodeReply: decodeCompletionReply,
  });
}
