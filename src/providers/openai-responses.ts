import type { Config } from '../domain/config.ts';
import { capabilitiesOf, modelOf } from '../domain/provider-catalog.ts';
import {
  acceptedEffort,
  thinkingOutputLimit,
  type ReasoningEffort,
} from '../domain/provider-definitions/capabilities.ts';
import { errorFromPayload } from './error-mapping.ts';
import type { HttpRequest } from './http.ts';
import { arrayAt, definedOnly, numberAt, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { isProviderError } from './provider-error.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ChatMessage, StreamPart } from './types.ts';
import { dataUrl } from './data-url.ts';

/**
 * OpenAI's Responses API, used for its reasoning models: the only way to get their reasoning
 * summary (docs/decisions.md#reasoning). Nothing is stored at OpenAI (`store: false`); the encrypted
 * reasoning comes back with the reply and goes out again with the next turn.
 */

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

/** The API refuses an output limit below 16 (docs/providers.md#openai-responses-api). */
const minimumOutputTokens = 16;

/** Keys whose organisation may not have reasoning summaries: asked without them from then on (this tab). */
const unverifiedKeys = new Set<string>();

export const unverifiedNotice =
  'Reasoning summaries need a verified OpenAI organisation (platform.openai.com/settings/organization/general); replies from this key come without them.';

/** A user turn with files: `input_image` (its URL a string here) and `input_file` items, then the text. */
function userContent({ content, files }: ChatMessage): unknown {
  if (!files?.length) return content;
  const items: unknown[] = files.map((file) =>
    file.kind === 'image'
      ? { type: 'input_image', image_url: dataUrl(file) }
      : { type: 'input_file', filename: file.name, file_data: dataUrl(file) },
  );
  if (content !== '') items.push({ type: 'input_text', text: content });
  return items;
}

/**
 * The input items: system text goes in `instructions`; an assistant turn's own encrypted reasoning
 * goes back before its text, as a reasoning item (only reasoning this model wrote reaches here).
 */
function responsesInput(messages: readonly ChatMessage[]): unknown[] {
  return messages.flatMap((message): unknown[] => {
    if (message.role === 'system') return [];
    if (message.role === 'user') return [{ role: 'user', content: userContent(message) }];
    const reasoning = (message.reasoning ?? [])
      .filter((part) => part.signature)
      .map((part) => ({
        type: 'reasoning',
        encrypted_content: part.signature,
        summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
      }));
    // A reasoning item must be followed by its output: a turn without text goes without it.
    return message.content === '' ? [] : [...reasoning, { role: 'assistant', content: message.content }];
  });
}

function responsesBody(
  config: Config,
  messages: readonly ChatMessage[],
  options: { stream: boolean; summary: boolean; effort?: ReasoningEffort },
) {
  const capabilities = capabilitiesOf(config);
  const effort = acceptedEffort(capabilities, options.effort);
  const system = messages.find(({ role }) => role === 'system')?.content ?? '';
  const reasoning = {
    ...(effort && { effort: effort === 'off' ? 'none' : effort }),
    ...(options.summary && { summary: 'auto' }),
  };
  return {
    model: modelOf(config),
    ...(system.trim() && { instructions: system }),
    input: responsesInput(messages),
    // It covers the reasoning too: Max Tokens is the answer's, thinking gets room on top.
    max_output_tokens: Math.max(
      minimumOutputTokens,
      thinkingOutputLimit(capabilities, config.maxTokens, effort),
    ),
    ...(Object.keys(reasoning).length > 0 && { reasoning }),
    store: false,
    include: ['reasoning.encrypted_content'],
    stream: options.stream,
  };
}

/** `input_tokens` includes the cached ones; `output_tokens` the reasoning. */
function readUsage(usage: unknown): Usage | undefined {
  if (!usage) return undefined;
  return definedOnly({
    inputTokens: numberAt(usage, 'input_tokens'),
    cachedInputTokens: numberAt(recordAt(usage, 'input_tokens_details'), 'cached_tokens') || undefined,
    outputTokens: numberAt(usage, 'output_tokens'),
    reasoningTokens: numberAt(recordAt(usage, 'output_tokens_details'), 'reasoning_tokens') || undefined,
    totalTokens: numberAt(usage, 'total_tokens'),
  });
}

function finishOf(response: unknown): FinishPart {
  const status = stringAt(response, 'status');
  const why = stringAt(recordAt(response, 'incomplete_details'), 'reason');
  const reason: FinishReason =
    status === 'completed'
      ? 'stop'
      : why === 'max_output_tokens'
        ? 'length'
        : why === 'content_filter'
          ? 'content-filter'
          : 'other';
  return { type: 'finish', reason, rawReason: why ?? status, usage: readUsage(recordAt(response, 'usage')) };
}

/** The encrypted reasoning of a finished reasoning item (the copy in `added` may be incomplete). */
function reasoningEnd(item: unknown): StreamPart | undefined {
  if (stringAt(item, 'type') !== 'reasoning') return undefined;
  const signature = stringAt(item, 'encrypted_content');
  return signature ? { type: 'reasoning-end', signature } : { type: 'reasoning-end' };
}

function createResponsesDecoder(request: HttpRequest): StreamDecoder {
  let finish: FinishPart | undefined;
  // Summary parts of one item are paragraphs of one block.
  let lastSummary: string | undefined;
  return {
    *decode(event) {
      const data = parseEventJson(request, event.data);
      switch (event.event ?? stringAt(data, 'type')) {
        case 'response.reasoning_summary_text.delta': {
          const delta = stringAt(data, 'delta');
          const summary = `${stringAt(data, 'item_id')}/${numberAt(data, 'summary_index')}`;
          const gap = lastSummary !== undefined && lastSummary !== summary ? '\n\n' : '';
          lastSummary = summary;
          if (delta) yield { type: 'reasoning-delta', text: gap + delta };
          break;
        }
        case 'response.output_item.done': {
          const end = reasoningEnd(recordAt(data, 'item'));
          if (end) yield end;
          lastSummary = undefined;
          break;
        }
        case 'response.output_text.delta': {
          const delta = stringAt(data, 'delta');
          if (delta) yield { type: 'text-delta', text: delta };
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
          finish = finishOf(recordAt(data, 'response'));
          return true;
        case 'response.failed':
          throw errorFromPayload(request.provider, { error: recordAt(recordAt(data, 'response'), 'error') });
        case 'error':
          // The SDK types this event flat; recorded streams nest it under `error` (parsed above).
          throw errorFromPayload(request.provider, { error: data });
        default:
        // Lifecycle events (created, in_progress, part added/done) carry nothing new.
      }
      return false;
    },
    finish: () => finish,
  };
}

function decodeResponsesReply(json: unknown): StreamPart[] {
  const parts: StreamPart[] = [];
  for (const item of arrayAt(json, 'output')) {
    if (stringAt(item, 'type') === 'reasoning') {
      const text = arrayAt(item, 'summary')
        .map((summary) => stringAt(summary, 'text') ?? '')
        .filter(Boolean)
        .join('\n\n');
      if (text) parts.push({ type: 'reasoning-delta', text });
      const end = reasoningEnd(item);
      if (end) parts.push(end);
    } else if (stringAt(item, 'type') === 'message') {
      for (const content of arrayAt(item, 'content')) {
        const text = stringAt(content, 'type') === 'output_text' ? stringAt(content, 'text') : undefined;
        if (text) parts.push({ type: 'text-delta', text });
      }
    }
  }
  return [...parts, finishOf(json)];
}

/** The organisation-verification refusal of summaries (docs/providers.md#openai-responses-api). */
function refusesSummaries(error: unknown): boolean {
  return isProviderError(error) && error.status === 400 && error.param === 'reasoning.summary';
}

export interface ResponsesCall extends HttpRequest {
  config: Config;
  messages: readonly ChatMessage[];
  stream: boolean;
  effort?: ReasoningEffort;
  /** Which key is asking: summaries refused once are not asked for again with it. */
  keyId: string;
}

/** One reply through the Responses API; a refusal of summaries is retried without them, once per key. */
export async function* responsesChat(call: ResponsesCall): AsyncGenerator<StreamPart> {
  const { config, messages, stream, effort, keyId, ...request } = call;
  const attempt = (summary: boolean) =>
    runChat({
      ...request,
      body: responsesBody(config, messages, { stream, summary, effort }),
      stream,
      createDecoder: () => createResponsesDecoder(request),
      decodeReply: decodeResponsesReply,
    });
  if (unverifiedKeys.has(keyId)) {
    yield* attempt(false);
    return;
  }
  let started = false;
  try {
    for await (const part of attempt(true)) {
      started = true;
      yield part;
    }
  } catch (error) {
    if (started || !refusesSummaries(error)) throw error;
    unverifiedKeys.add(keyId);
    yield { type: 'notice', text: unverifiedNotice };
    yield* attempt(false);
  }
}

/** Forgets which keys were refused summaries (tests). */
export function forgetUnverifiedKeys(): void {
  unverifiedKeys.clear();
}
