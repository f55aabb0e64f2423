import type { Config } from '../domain/config.ts';
import { capabilitiesOf, modelOf } from '../domain/provider-catalog.ts';
import {
  acceptedEffort,
  thinkingOutputLimit,
  type ReasoningEffort,
} from '../domain/provider-definitions/capabilities.ts';
import { errorFromPayload } from './error-mapping.ts';
import type { HttpRequest } from './http.ts';
import { arrayAt, definedOnly, fieldAt, numberAt, parseJson, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { isProviderError } from './provider-error.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { argumentsText, wholeArguments, wholeCall } from './tool-wire.ts';
import type { ChatMessage, ChatToolResult, StreamPart } from './types.ts';
import { dataUrl } from './data-url.ts';
import { codePointsToUtf16, sourcePart, webSource } from './web-search-wire.ts';
import type { ProviderId } from '../domain/config.ts';
import {
  createFileBudget,
  dataUrlParts,
  downloadedFile,
  fileName,
  imageMimeType,
  inlineFile,
  joinedLines,
  numberedName,
  withDownloads,
  type FileBudget,
  type PendingDownloads,
} from './code-image-wire.ts';

/**
 * OpenAI's Responses API, used for its reasoning models: the only way to get their reasoning
 * summary (docs/decisions.md#reasoning); and for any model asked to search the web, run code or
 * draw, since the `web_search`, `code_interpreter` and `image_generation` tools exist only here. Nothing is stored at OpenAI (`store: false`); the encrypted
 * reasoning comes back with the reply and goes out again with the next turn.
 */

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

/** The API refuses an output limit below 16 (docs/providers.md#openai-responses-api). */
const minimumOutputTokens = 16;

/** Keys whose organisation may not have reasoning summaries: asked without them from then on (this tab). */
const unverifiedKeys = new Set<string>();

export const unverifiedNotice =
  'Reasoning summaries need a verified OpenAI organisation (platform.openai.com/settings/organization/general); replies from this key come without them.';

/** gpt-5 refuses `web_search` at effort minimal (400 "The following tools cannot be used with reasoning.effort 'minimal': web_search."). */
export const minimalSearchNotice =
  "Searching the web takes more than minimal reasoning on this model: it was asked with effort 'low'.";

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

/** A tool's result: its text, or `input_text` and `input_image` items when it returned images. */
function toolOutput(result: ChatToolResult): unknown {
  if (!result.images?.length) return result.content;
  return [
    ...(result.content === '' ? [] : [{ type: 'input_text', text: result.content }]),
    ...result.images.map((image) => ({ type: 'input_image', image_url: dataUrl(image) })),
  ];
}

/**
 * The pictures an assistant turn drew here, as `image_generation_call` items (the model edits them
 * on request): only those OpenAI drew, which carry its call id; others are left out.
 */
function drawnImageItems(message: ChatMessage, provider: ProviderId): unknown[] {
  return (message.drawnImages ?? []).flatMap((image) => {
    const id = image.providerData?.provider === provider ? image.providerData.data.imageCallId : undefined;
    return id && image.data
      ? [{ type: 'image_generation_call', id, status: 'completed', result: image.data }]
      : [];
  });
}

/**
 * The input items: system text goes in `instructions`; an assistant turn's own encrypted reasoning
 * goes back before its text and its calls, as a reasoning item (only reasoning this model wrote
 * reaches here), and the pictures it drew between them. Calls go back whole as `function_call`
 * items and results as `function_call_output`, paired by `call_id`: with `store: false` nothing is
 * referenced by id.
 */
function responsesInput(messages: readonly ChatMessage[], provider: ProviderId): unknown[] {
  return messages.flatMap((message): unknown[] => {
    if (message.role === 'system') return [];
    if (message.role === 'user') return [{ role: 'user', content: userContent(message) }];
    if (message.role === 'tool')
      return (message.toolResults ?? []).map((result) => ({
        type: 'function_call_output',
        call_id: result.callId,
        output: toolOutput(result),
      }));
    const reasoning = (message.reasoning ?? [])
      .filter((part) => part.signature)
      .map((part) => ({
        type: 'reasoning',
        encrypted_content: part.signature,
        summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
      }));
    const calls = (message.toolCalls ?? []).map((call) => ({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: argumentsText(call.arguments),
    }));
    const text = message.content === '' ? [] : [{ role: 'assistant', content: message.content }];
    const images = drawnImageItems(message, provider);
    // A reasoning item must be followed by its output: a turn with no text, calls or pictures goes without it.
    return text.length + calls.length + images.length === 0
      ? []
      : [...reasoning, ...images, ...text, ...calls];
  });
}

/**
 * Tools in the Responses shape, flat: `{type:'function', name, description, parameters, strict}`.
 * Not strict: the API would otherwise hold every schema to its strict subset (all properties required).
 */
function responsesTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map(({ name, description, parameters }) => ({
    type: 'function',
    name,
    ...(description && { description }),
    parameters,
    strict: false,
  }));
}

interface BodyOptions {
  stream: boolean;
  summary: boolean;
  effort?: ReasoningEffort;
  tools?: readonly ToolDefinition[] | undefined;
  /** The hosted `web_search` tool is offered, after any function tools. */
  webSearch?: boolean;
  /** The hosted `code_interpreter` tool is offered (an automatic container), after web search. */
  codeExecution?: boolean;
  /** The hosted `image_generation` tool is offered (two previews while it draws), last. */
  imageOutput?: boolean;
  /** Sent as `prompt_cache_key` (docs/providers.md#prompt-caching-projects). */
  cacheKey?: string | undefined;
}

/** The effort to ask for: the accepted one, raised from minimal to low when the web may be searched. */
function requestEffort(config: Config, options: Pick<BodyOptions, 'effort' | 'webSearch'>) {
  const effort = acceptedEffort(capabilitiesOf(config), options.effort);
  return options.webSearch && effort === 'minimal' ? 'low' : effort;
}

/**
 * The body. A reasoning model gets its reasoning fields and its encrypted reasoning back; a model
 * that does not reason (here only to search the web) gets its sampling settings instead, as Chat
 * Completions would send them (Responses has no penalties). Searching adds the `web_search` tool
 * and asks for the pages each search found (`web_search_call.action.sources`); running code adds
 * `code_interpreter` and asks for what runs print and plot (`code_interpreter_call.outputs`);
 * drawing adds `image_generation`.
 */
function responsesBody(
  config: Config,
  messages: readonly ChatMessage[],
  options: BodyOptions,
  provider: ProviderId,
) {
  const capabilities = capabilitiesOf(config);
  const reasons = capabilities.reasoning;
  const effort = requestEffort(config, options);
  const system = messages.find(({ role }) => role === 'system')?.content ?? '';
  const reasoning = reasons
    ? {
        ...(effort && { effort: effort === 'off' ? 'none' : effort }),
        ...(options.summary && { summary: 'auto' }),
      }
    : {};
  const include = [
    ...(reasons ? ['reasoning.encrypted_content'] : []),
    ...(options.webSearch ? ['web_search_call.action.sources'] : []),
    ...(options.codeExecution ? ['code_interpreter_call.outputs'] : []),
  ];
  const tools = [
    ...(options.tools ? responsesTools(options.tools) : []),
    ...(options.webSearch ? [{ type: 'web_search' }] : []),
    ...(options.codeExecution ? [{ type: 'code_interpreter', container: { type: 'auto' } }] : []),
    ...(options.imageOutput ? [{ type: 'image_generation', partial_images: 2 }] : []),
  ];
  return {
    model: modelOf(config),
    ...(system.trim() && { instructions: system }),
    input: responsesInput(messages, provider),
    // It covers the reasoning too: Max Tokens is the answer's, thinking gets room on top.
    max_output_tokens: Math.max(
      minimumOutputTokens,
      reasons ? thinkingOutputLimit(capabilities, config.maxTokens, effort) : config.maxTokens,
    ),
    ...(!reasons && !capabilities.rejects.includes('temperature') && { temperature: config.temperature }),
    ...(!reasons &&
      config.topP !== undefined &&
      !capabilities.rejects.includes('topP') && { top_p: config.topP }),
    ...(Object.keys(reasoning).length > 0 && { reasoning }),
    store: false,
    ...(include.length > 0 && { include }),
    stream: options.stream,
    // Only with tools; tool_choice stays the default, auto.
    ...(tools.length > 0 && { tools }),
    // Only with a key: a request without one is the original payload.
    ...(options.cacheKey && { prompt_cache_key: options.cacheKey }),
  };
}

/**
 * `input_tokens` includes the cached ones; `output_tokens` the reasoning. The usage does not count
 * web searches: `searches` is the number of `web_search_call` items that searched (OpenAI bills
 * each call).
 */
function readUsage(usage: unknown, searches: number): Usage | undefined {
  if (!usage) return searches > 0 ? { webSearches: searches } : undefined;
  return definedOnly({
    inputTokens: numberAt(usage, 'input_tokens'),
    cachedInputTokens: numberAt(recordAt(usage, 'input_tokens_details'), 'cached_tokens') || undefined,
    outputTokens: numberAt(usage, 'output_tokens'),
    reasoningTokens: numberAt(recordAt(usage, 'output_tokens_details'), 'reasoning_tokens') || undefined,
    totalTokens: numberAt(usage, 'total_tokens'),
    webSearches: searches || undefined,
  });
}

/** The stream has no tool finish reason: a completed reply that called functions stopped for them. */
function finishOf(response: unknown, calledTools: boolean, searches: number): FinishPart {
  const status = stringAt(response, 'status');
  const calls =
    calledTools || arrayAt(response, 'output').some((item) => stringAt(item, 'type') === 'function_call');
  const why = stringAt(recordAt(response, 'incomplete_details'), 'reason');
  const reason: FinishReason =
    status === 'completed'
      ? calls
        ? 'tool-calls'
        : 'stop'
      : why === 'max_output_tokens'
        ? 'length'
        : why === 'content_filter'
          ? 'content-filter'
          : 'other';
  return {
    type: 'finish',
    reason,
    rawReason: why ?? status,
    usage: readUsage(recordAt(response, 'usage'), searches),
  };
}

/** A `web_search_call` item as it starts: a search under way (what it does comes when it is done). */
function searchStart(item: unknown): StreamPart[] {
  if (stringAt(item, 'type') !== 'web_search_call') return [];
  return [{ type: 'web-search', id: stringAt(item, 'id') ?? '', status: 'searching' }];
}

/**
 * A finished `web_search_call` item: `action.search` says what it searched for (`query`, or newer
 * `queries`) and lists the pages found (`sources`, asked for with `include`); `open_page` and `find`
 * name the page they read. `status: "failed"` is a failed search.
 */
function searchEnd(item: unknown): { parts: StreamPart[]; searched: boolean } {
  const id = stringAt(item, 'id') ?? '';
  const action = recordAt(item, 'action');
  const queries = arrayAt(action, 'queries').filter((query): query is string => typeof query === 'string');
  const query = stringAt(action, 'query') || queries.join('; ') || undefined;
  const failed = stringAt(item, 'status') === 'failed';
  const parts: StreamPart[] = [
    failed
      ? { type: 'web-search', id, status: 'failed', ...(query && { query }) }
      : { type: 'web-search', id, status: 'done', ...(query && { query }) },
  ];
  for (const source of arrayAt(action, 'sources')) parts.push(...sourcePart(stringAt(source, 'url')));
  parts.push(...sourcePart(stringAt(action, 'url')));
  return {
    parts,
    searched: !failed && stringAt(action, 'type') !== 'open_page' && stringAt(action, 'type') !== 'find',
  };
}

/**
 * A `url_citation` annotation: the answer keeps OpenAI's inline link (` ([host](url))`), which the
 * annotation covers; the marker goes at its end. `end_index` counts characters in its output_text
 * part, which began `partStart` UTF-16 units into this request's text. OpenAI gives no cited text.
 */
function citationOf(annotation: unknown, partText: string, partStart: number): StreamPart[] {
  if (stringAt(annotation, 'type') !== 'url_citation') return [];
  const source = webSource(stringAt(annotation, 'url'), stringAt(annotation, 'title'));
  const end = numberAt(annotation, 'end_index');
  if (!source) return [];
  const at = partStart + (end === undefined ? partText.length : codePointsToUtf16(partText, end));
  return [{ type: 'citation', source, at }];
}

/** The encrypted reasoning of a finished reasoning item (the copy in `added` may be incomplete). */
function reasoningEnd(item: unknown): StreamPart | undefined {
  if (stringAt(item, 'type') !== 'reasoning') return undefined;
  const signature = stringAt(item, 'encrypted_content');
  return signature ? { type: 'reasoning-end', signature } : { type: 'reasoning-end' };
}

/**
 * What a reply's code runs and pictures have made so far: runs begun (the last one owns the
 * container files the answer cites), the numbers of plots and pictures, the files queued for
 * download, and the request's file budget.
 */
interface ResponsesMedia {
  provider: ProviderId;
  model: string;
  budget: FileBudget;
  downloads: PendingDownloads;
  /** The GET of a container file's bytes, with the chat call's headers. */
  containerFile(containerId: string, fileId: string): HttpRequest;
  runs: Set<string>;
  lastRun?: string;
  plots: number;
  /** Each picture's number, by its call id: its previews and the picture share a name. */
  images: Map<string, number>;
  /** Pictures finished: a late preview must not replace one. */
  drawn: Set<string>;
  /** Container files already queued (an annotation may repeat). */
  cited: Set<string>;
}

function responsesMedia(request: HttpRequest, model: string): ResponsesMedia {
  // The containers' files live beside the responses: `/v1/containers/{id}/files/{file}/content`.
  const root = request.url.replace(/\/responses$/, '');
  return {
    provider: request.provider,
    model,
    budget: createFileBudget(),
    downloads: [],
    containerFile: (containerId, fileId) => ({
      ...request,
      url: `${root}/containers/${encodeURIComponent(containerId)}/files/${encodeURIComponent(fileId)}/content`,
    }),
    runs: new Set(),
    plots: 0,
    images: new Map(),
    drawn: new Set(),
    cited: new Set(),
  };
}

/** A code run begins (once per id): the code interpreter runs Python. */
function runStart(id: string, media: ResponsesMedia): StreamPart[] {
  media.lastRun = id;
  if (media.runs.has(id)) return [];
  media.runs.add(id);
  return [{ type: 'code-start', id, language: 'python' }];
}

/** The text of a run's `logs` outputs, one after another, each on its own lines. */
function logsOf(outputs: readonly unknown[]): string {
  return joinedLines(
    outputs.map((output) => (stringAt(output, 'type') === 'logs' ? (stringAt(output, 'logs') ?? '') : '')),
  );
}

/**
 * A finished `code_interpreter_call` item: its code, what it logged, whether it failed (status
 * `failed` or `incomplete`), then each picture it output as a `data:` URL, a file of the run
 * (`plot-1.png`, numbered over the reply).
 */
function runEnd(item: unknown, media: ResponsesMedia): StreamPart[] {
  const id = stringAt(item, 'id');
  if (!id) return [];
  const parts = runStart(id, media);
  const outputs = arrayAt(item, 'outputs');
  const status = stringAt(item, 'status');
  const code = stringAt(item, 'code');
  parts.push({
    type: 'code-result',
    id,
    ...(code !== undefined && { code }),
    output: logsOf(outputs),
    ...((status === 'failed' || status === 'incomplete') && { failed: status }),
  });
  for (const output of outputs) {
    const url =
      stringAt(output, 'type') === 'image' ? dataUrlParts(stringAt(output, 'url') ?? '') : undefined;
    if (!url) continue;
    media.plots += 1;
    const name = numberedName('plot', media.plots, url.mimeType);
    parts.push(
      ...inlineFile(
        { id: `${id}-plot-${media.plots}`, name, mimeType: url.mimeType, base64: url.base64, runId: id },
        media.budget,
      ),
    );
  }
  return parts;
}

function imageNumber(id: string, media: ResponsesMedia): number {
  let number = media.images.get(id);
  if (number === undefined) media.images.set(id, (number = media.images.size + 1));
  return number;
}

/** A preview of a picture being drawn (`partial_image_b64`): replaced by the next file of its id. */
function partialImage(data: unknown, media: ResponsesMedia): StreamPart[] {
  const id = stringAt(data, 'item_id');
  if (!id || media.drawn.has(id)) return [];
  const mimeType = imageMimeType(stringAt(data, 'output_format'));
  const name = numberedName('image', imageNumber(id, media), mimeType);
  return inlineFile(
    { id, name, mimeType, base64: fieldAt(data, 'partial_image_b64'), partial: true },
    media.budget,
  );
}

export const imageFailedNotice = 'A picture the model began could not be drawn.';

/**
 * A finished `image_generation_call` item: the picture (`result`, base64 in its `output_format`),
 * with its call id to send back for an edit.
 */
function imageEnd(item: unknown, media: ResponsesMedia): StreamPart[] {
  const id = stringAt(item, 'id');
  if (!id || media.drawn.has(id)) return [];
  media.drawn.add(id);
  if (stringAt(item, 'status') === 'failed') return [{ type: 'notice', text: imageFailedNotice }];
  const mimeType = imageMimeType(stringAt(item, 'output_format'));
  const name = numberedName('image', imageNumber(id, media), mimeType);
  const providerData = { provider: media.provider, model: media.model, data: { imageCallId: id } };
  return inlineFile({ id, name, mimeType, base64: fieldAt(item, 'result'), providerData }, media.budget);
}

/**
 * A `container_file_citation` annotation: a file the code wrote, cited in the answer. Its bytes
 * are fetched before the reply finishes (`GET /v1/containers/{container_id}/files/{file_id}/content`),
 * a file of the last run.
 */
function citedContainerFile(annotation: unknown, media: ResponsesMedia): void {
  if (stringAt(annotation, 'type') !== 'container_file_citation') return;
  const containerId = stringAt(annotation, 'container_id');
  const fileId = stringAt(annotation, 'file_id');
  if (!containerId || !fileId || media.cited.has(fileId)) return;
  media.cited.add(fileId);
  const runId = media.lastRun;
  const name = fileName(stringAt(annotation, 'filename'), fileId);
  const request = media.containerFile(containerId, fileId);
  media.downloads.push(() =>
    downloadedFile({ id: fileId, name, request, ...(runId !== undefined && { runId }) }, media.budget),
  );
}

/** The container files a finished message item's texts cite. */
function citedInMessage(item: unknown, media: ResponsesMedia): void {
  for (const content of arrayAt(item, 'content'))
    for (const annotation of arrayAt(content, 'annotations')) citedContainerFile(annotation, media);
}

const parallelPrefix = 'functions.';

/**
 * gpt-5.4 may wrap parallel calls in one call named `parallel`, its arguments
 * `{"tool_uses":[{"recipient_name":"functions.weather","parameters":{…}},…]}`: read as the calls it
 * wraps (ids `<call_id>_<n>`) when every one names an offered tool, and `parallel` is not one.
 */
function unwrapParallel(
  callId: string,
  args: string,
  tools: ReadonlySet<string>,
): { callId: string; name: string; arguments: string }[] | undefined {
  const uses = fieldAt(parseJson(args), 'tool_uses');
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  const calls: { callId: string; name: string; arguments: string }[] = [];
  for (const [index, use] of uses.entries()) {
    const recipient = stringAt(use, 'recipient_name') ?? '';
    const name = recipient.slice(parallelPrefix.length);
    const parameters = recordAt(use, 'parameters');
    if (!recipient.startsWith(parallelPrefix) || !tools.has(name) || !parameters) return undefined;
    calls.push({ callId: `${callId}_${index}`, name, arguments: JSON.stringify(parameters) });
  }
  return calls;
}

/** The function calls of a finished `function_call` item: itself, or the calls a `parallel` wrapper holds. */
function finishedCalls(item: unknown, tools: ReadonlySet<string>) {
  const callId = stringAt(item, 'call_id') ?? stringAt(item, 'id') ?? '';
  const name = stringAt(item, 'name') ?? '';
  const args = stringAt(item, 'arguments') ?? '';
  return (
    (isParallelWrapper(name, tools) && unwrapParallel(callId, args, tools)) || [
      { callId, name, arguments: args },
    ]
  );
}

function isParallelWrapper(name: string | undefined, tools: ReadonlySet<string>): boolean {
  return name === 'parallel' && !tools.has('parallel');
}

function createResponsesDecoder(
  request: HttpRequest,
  tools: ReadonlySet<string>,
  media: ResponsesMedia,
): StreamDecoder {
  let finish: FinishPart | undefined;
  // Summary parts of one item are paragraphs of one block.
  let lastSummary: string | undefined;
  // Function calls by item id, to their call id; a `parallel` wrapper waits for its whole arguments.
  const calls = new Map<string, { callId: string; wrapper: boolean }>();
  let calledTools = false;
  // Web searches that searched, and the text so far: annotations place citations in it.
  let searches = 0;
  let streamed = 0;
  // Each output_text part (by item and content index): where it began in this request's text, and its text.
  const textParts = new Map<string, { start: number; text: string }>();
  const partOf = (data: unknown) => {
    const key = `${stringAt(data, 'item_id')}/${numberAt(data, 'content_index') ?? 0}`;
    let part = textParts.get(key);
    if (!part) textParts.set(key, (part = { start: streamed, text: '' }));
    return part;
  };
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
        case 'response.output_item.added': {
          const item = recordAt(data, 'item');
          yield* searchStart(item);
          const runId = stringAt(item, 'type') === 'code_interpreter_call' ? stringAt(item, 'id') : undefined;
          if (runId) yield* runStart(runId, media);
          if (stringAt(item, 'type') !== 'function_call') break;
          const callId = stringAt(item, 'call_id') ?? stringAt(item, 'id') ?? '';
          const name = stringAt(item, 'name') ?? '';
          const wrapper = isParallelWrapper(name, tools);
          calls.set(stringAt(item, 'id') ?? callId, { callId, wrapper });
          if (!wrapper) yield { type: 'tool-call-start', callId, name };
          break;
        }
        case 'response.function_call_arguments.delta': {
          const call = calls.get(stringAt(data, 'item_id') ?? '');
          const delta = stringAt(data, 'delta');
          if (call && !call.wrapper && delta) yield { type: 'tool-call-delta', callId: call.callId, delta };
          break;
        }
        case 'response.code_interpreter_call_code.delta': {
          const id = stringAt(data, 'item_id');
          const delta = stringAt(data, 'delta');
          if (!id || !delta) break;
          yield* runStart(id, media);
          yield { type: 'code-delta', id, delta };
          break;
        }
        case 'response.image_generation_call.partial_image':
          yield* partialImage(data, media);
          break;
        case 'response.output_item.done': {
          const item = recordAt(data, 'item');
          const end = reasoningEnd(item);
          if (end) yield end;
          lastSummary = undefined;
          const type = stringAt(item, 'type');
          if (type === 'web_search_call') {
            const search = searchEnd(item);
            if (search.searched) searches += 1;
            yield* search.parts;
          }
          if (type === 'code_interpreter_call') yield* runEnd(item, media);
          if (type === 'image_generation_call') yield* imageEnd(item, media);
          if (type === 'message') citedInMessage(item, media);
          if (type !== 'function_call') break;
          calledTools = true;
          const call = calls.get(stringAt(item, 'id') ?? stringAt(item, 'call_id') ?? '');
          if (call && !call.wrapper) {
            const args = wholeArguments(stringAt(item, 'arguments') ?? '');
            yield { type: 'tool-call-end', callId: call.callId, arguments: args };
            break;
          }
          // A `parallel` wrapper, or an item whose start went missing: its calls come whole.
          for (const each of finishedCalls(item, tools))
            yield* wholeCall(each.callId, each.name, each.arguments);
          break;
        }
        case 'response.output_text.delta': {
          const delta = stringAt(data, 'delta');
          if (!delta) break;
          partOf(data).text += delta;
          streamed += delta.length;
          yield { type: 'text-delta', text: delta };
          break;
        }
        case 'response.output_text.annotation.added': {
          const part = partOf(data);
          const annotation = recordAt(data, 'annotation');
          yield* citationOf(annotation, part.text, part.start);
          citedContainerFile(annotation, media);
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
          finish = finishOf(recordAt(data, 'response'), calledTools, searches);
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

function decodeResponsesReply(
  json: unknown,
  tools: ReadonlySet<string>,
  media: ResponsesMedia,
): StreamPart[] {
  const parts: StreamPart[] = [];
  let searches = 0;
  let streamed = 0;
  for (const item of arrayAt(json, 'output')) {
    if (stringAt(item, 'type') === 'code_interpreter_call') parts.push(...runEnd(item, media));
    if (stringAt(item, 'type') === 'image_generation_call') parts.push(...imageEnd(item, media));
    if (stringAt(item, 'type') === 'web_search_call') {
      const search = searchEnd(item);
      if (search.searched) searches += 1;
      parts.push(...search.parts);
    }
    if (stringAt(item, 'type') === 'function_call') {
      for (const call of finishedCalls(item, tools))
        parts.push(...wholeCall(call.callId, call.name, call.arguments));
    } else if (stringAt(item, 'type') === 'reasoning') {
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
        if (!text) continue;
        parts.push({ type: 'text-delta', text });
        for (const annotation of arrayAt(content, 'annotations'))
          parts.push(...citationOf(annotation, text, streamed));
        streamed += text.length;
      }
      citedInMessage(item, media);
    }
  }
  return [...parts, finishOf(json, false, searches)];
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
  /** Tools to offer; absent when there are none. */
  tools?: readonly ToolDefinition[] | undefined;
  /** Offer OpenAI's own `web_search` tool. */
  webSearch?: boolean;
  /** Offer OpenAI's own `code_interpreter` tool. */
  codeExecution?: boolean;
  /** Offer OpenAI's own `image_generation` tool. */
  imageOutput?: boolean;
  /** A project's key, sent as `prompt_cache_key`; only the OpenAI client passes one. */
  cacheKey?: string;
  /** Which key is asking: summaries refused once are not asked for again with it. */
  keyId: string;
}

/**
 * One reply through the Responses API; a refusal of summaries is retried without them, once per
 * key. A model that does not reason (asked here to search the web) is never asked for summaries.
 */
export async function* responsesChat(call: ResponsesCall): AsyncGenerator<StreamPart> {
  const {
    config,
    messages,
    stream,
    effort,
    tools,
    webSearch = false,
    codeExecution = false,
    imageOutput = false,
    cacheKey,
    keyId,
    ...request
  } = call;
  const toolNames = new Set(tools?.map(({ name }) => name));
  const options = { stream, effort, tools, webSearch, codeExecution, imageOutput, cacheKey };
  const attempt = (summary: boolean) => {
    // Files of one attempt: a retry starts again from nothing.
    const media = responsesMedia(request, modelOf(config));
    return withDownloads(
      runChat({
        ...request,
        body: responsesBody(config, messages, { ...options, summary }, request.provider),
        stream,
        createDecoder: () => createResponsesDecoder(request, toolNames, media),
        decodeReply: (json) => decodeResponsesReply(json, toolNames, media),
      }),
      media.downloads,
    );
  };
  if (webSearch && acceptedEffort(capabilitiesOf(config), effort) === 'minimal')
    yield { type: 'notice', text: minimalSearchNotice };
  if (!capabilitiesOf(config).reasoning || unverifiedKeys.has(keyId)) {
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
