import type { Config } from '../domain/config.ts';
import { capabilitiesOf } from '../domain/provider-catalog.ts';
import {
  acceptedEffort,
  thinkingOutputLimit,
  type ModelCapabilities,
  type ReasoningEffort,
} from '../domain/provider-definitions/capabilities.ts';
import type { ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { errorFromPayload } from './error-mapping.ts';
import { getJson, resolveBase, type HttpRequest } from './http.ts';
import {
  createFileBudget,
  downloadedFile,
  fileName,
  withDownloads,
  type FileBudget,
  type PendingDownloads,
} from './code-image-wire.ts';
import { arrayAt, countAt, definedOnly, fieldAt, numberAt, parseJson, recordAt, stringAt } from './json.ts';
import { isRecord, type JsonRecord } from '../domain/json-guards.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { withParameterRetry } from './parameter-retry.ts';
import { isProviderError, ProviderError } from './provider-error.ts';
import { sourcePart, webSource } from './web-search-wire.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { argumentsObject, offeredTools, wholeArguments, wholeCall } from './tool-wire.ts';
import type {
  ChatFile,
  ChatMessage,
  ChatProvider,
  ChatToolCall,
  ChatToolResult,
  ListedModel,
  StreamPart,
} from './types.ts';

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

export function mapAnthropicStopReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    case 'tool_use':
      return 'tool-calls';
    default:
      return 'other';
  }
}

/** Claude's own thinking blocks, unchanged and in order: required back while thinking is on. */
function thinkingBlocks(message: ChatMessage): unknown[] {
  return (message.reasoning ?? []).flatMap((part): unknown[] => {
    if (!part.signature) return [];
    return part.redacted
      ? [{ type: 'redacted_thinking', data: part.signature }]
      : [{ type: 'thinking', thinking: part.text, signature: part.signature }];
  });
}

/** An image or a PDF (a `document`, titled with the file's name) as a base64 block. */
function fileBlock(file: ChatFile): JsonRecord {
  const source = { type: 'base64', media_type: file.mimeType, data: file.data };
  return file.kind === 'image' ? { type: 'image', source } : { type: 'document', source, title: file.name };
}

/** Claude takes call ids of `a-zA-Z0-9_-` only: another provider's id has any other character replaced, the same on both sides. */
function callIdOf(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

/** A call as Claude wrote it: `input` is an object (arguments that are not one go as `{}`). */
function toolUseBlock(call: ChatToolCall): unknown {
  return { type: 'tool_use', id: callIdOf(call.id), name: call.name, input: argumentsObject(call.arguments) };
}

/** A result: its text, or text and image (or document) blocks when the tool returned files. */
function toolResultBlock(result: ChatToolResult): unknown {
  const text = result.content === '' ? [] : [{ type: 'text', text: result.content }];
  const content = result.images?.length ? [...text, ...result.images.map(fileBlock)] : result.content;
  return {
    type: 'tool_result',
    tool_use_id: callIdOf(result.callId),
    // Left out when there is nothing to say: empty text is refused.
    ...(content.length > 0 && { content }),
    ...(result.isError && { is_error: true }),
  };
}

const ephemeral = { type: 'ephemeral' } as const;

/**
 * Where this request marks the end of its project's shared prefix (docs/providers.md#prompt-caching-projects):
 * after the first `system` characters of the system prompt, or after file `file` (from 0) of a
 * user turn. Only the last message with a `sharedPrefix` counts, and only the system message that
 * is sent, or a user turn with that many files; anything else marks nothing.
 */
type PrefixMark = { system: number } | { message: ChatMessage; file: number } | undefined;

function prefixMarkOf(messages: readonly ChatMessage[], system: ChatMessage | undefined): PrefixMark {
  const marked = messages.findLast((message) => message.sharedPrefix !== undefined);
  const prefix = marked?.sharedPrefix;
  if (!marked || !prefix) return undefined;
  if (marked.role === 'system' && 'text' in prefix)
    return marked === system && Number.isInteger(prefix.text) && prefix.text > 0
      ? { system: prefix.text }
      : undefined;
  if (marked.role === 'user' && 'files' in prefix) {
    const { files } = prefix;
    return Number.isInteger(files) && files >= 1 && files <= (marked.files?.length ?? 0)
      ? { message: marked, file: files - 1 }
      : undefined;
  }
  return undefined;
}

/**
 * The system prompt as sent: a plain string, or, when the shared prefix ends in it, text blocks
 * split there with the cache marker on the first. A block would be refused empty or blank: a
 * blank prefix marks nothing, and a blank rest is left out.
 */
function systemField(system: string, mark: PrefixMark): string | JsonRecord[] {
  if (!mark || !('system' in mark)) return system;
  const head = system.slice(0, mark.system);
  const rest = system.slice(mark.system);
  if (head.trim() === '') return system;
  return [
    { type: 'text', text: head, cache_control: ephemeral },
    ...(rest.trim() === '' ? [] : [{ type: 'text', text: rest }]),
  ];
}

function hasContent({ content, files, toolCalls, toolResults }: ChatMessage): boolean {
  return content.trim() !== '' || Boolean(files?.length || toolCalls?.length || toolResults?.length);
}

/**
 * The Messages API takes the system prompt as a top-level field, rejects empty or whitespace-only
 * content, and expects the conversation to open with a user turn. With thinking on, an assistant
 * turn carries its signed thinking blocks before its text (with it off they would be a 400), and
 * its `tool_use` blocks after it; the results follow as a user turn of `tool_result` blocks.
 */
function anthropicMessages(messages: readonly ChatMessage[], thinking: boolean, mark?: PrefixMark) {
  const kept = messages.filter((message) => message.role !== 'system' && hasContent(message));
  // A history that opens with results or the assistant starts at its first user turn.
  const firstUser = kept.findIndex(({ role }) => role === 'user');
  return kept.slice(Math.max(firstUser, 0)).map((message) => {
    if (message.role === 'tool')
      return { role: 'user', content: (message.toolResults ?? []).map(toolResultBlock) };
    const assistant = message.role === 'assistant';
    // The project's shared prefix ends after this turn's marked file: its block carries the marker.
    const markedFile = mark && 'message' in mark && mark.message === message ? mark.file : -1;
    const blocks =
      thinking && assistant
        ? thinkingBlocks(message)
        : (message.files ?? []).map((file, index) =>
            index === markedFile ? { ...fileBlock(file), cache_control: ephemeral } : fileBlock(file),
          );
    const calls = assistant ? (message.toolCalls ?? []).map(toolUseBlock) : [];
    if (blocks.length === 0 && calls.length === 0) return { role: message.role, content: message.content };
    const text = message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }];
    return { role: message.role, content: [...blocks, ...text, ...calls] };
  });
}

/**
 * Whether this request answers tool calls whose turn has no signed thinking (another model wrote
 * it, or an import): with thinking on, Claude refuses that turn ("a final assistant message must
 * start with a thinking block"), so the request goes with thinking off, where the model allows it.
 */
function answersUnsignedCalls(messages: readonly ChatMessage[]): boolean {
  if (messages.at(-1)?.role !== 'tool') return false;
  const caller = messages.findLast(({ role }) => role === 'assistant');
  return caller !== undefined && Boolean(caller.toolCalls?.length) && thinkingBlocks(caller).length === 0;
}

/** Tools in the Messages shape: `{name, description, input_schema}`. */
function anthropicTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map(({ name, description, parameters }) => ({
    name,
    ...(description && { description }),
    input_schema: parameters,
  }));
}

/** The API's smallest budget (docs/providers.md#anthropic-thinking). */
const minimumBudget = 1024;

/**
 * The thinking fields for this model and effort (docs/providers.md#anthropic-thinking). Adaptive models
 * think unless told 'off', with readable summaries asked for explicitly (4.7 on hide them by
 * default); budget models think only when an effort is chosen. Thinking comes on top of the
 * answer: max_tokens grows by its allowance (within the model's output limit), so Max Tokens
 * still bounds the answer and thinking does not crowd it out.
 */
function thinkingFields(
  config: Config,
  capabilities: ModelCapabilities,
  requested: ReasoningEffort | undefined,
) {
  const effort = acceptedEffort(capabilities, requested);
  if (effort === 'off' && capabilities.thinking === 'adaptive') return { thinking: { type: 'disabled' } };
  // Budget models think only when asked to.
  if (capabilities.thinking === 'budget' ? !effort || effort === 'off' : capabilities.thinking !== 'adaptive')
    return undefined;
  const maxTokens = thinkingOutputLimit(capabilities, config.maxTokens, effort);
  if (capabilities.thinking === 'adaptive')
    return {
      max_tokens: maxTokens,
      thinking: { type: 'adaptive', display: 'summarized' },
      ...(effort && { output_config: { effort } }),
    };
  // The budget must be at least 1024 and below max_tokens.
  const budget = maxTokens - config.maxTokens;
  return budget >= minimumBudget
    ? { max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } }
    : undefined;
}

/** Below about 1024 tokens (roughly 4 characters each) Claude caches nothing, so the marker is left out. */
const cacheWorthChars = 4096;

function promptChars(messages: readonly ChatMessage[]): number {
  return messages.reduce(
    (sum, message) =>
      sum +
      message.content.length +
      (message.toolResults ?? []).reduce((chars, result) => chars + result.content.length, 0),
    0,
  );
}

/**
 * Usage from a `usage` object. `message_start` has the figures so far and every `message_delta`
 * the cumulative ones (they grow when the server runs tools), so the last figures seen are the true
 * ones. Anthropic's `input_tokens` excludes cache reads and writes; our input counts them all.
 */
function readUsage(usage: unknown, previous: Usage = {}): Usage {
  const uncached = numberAt(usage, 'input_tokens');
  const cacheWrite = numberAt(usage, 'cache_creation_input_tokens') ?? previous.cacheWriteTokens;
  const cacheRead = numberAt(usage, 'cache_read_input_tokens') ?? previous.cachedInputTokens;
  const input =
    uncached === undefined ? previous.inputTokens : uncached + (cacheWrite ?? 0) + (cacheRead ?? 0);
  const output = numberAt(usage, 'output_tokens') ?? previous.outputTokens;
  const reasoning =
    numberAt(recordAt(usage, 'output_tokens_details'), 'thinking_tokens') ?? previous.reasoningTokens;
  const searches =
    numberAt(recordAt(usage, 'server_tool_use'), 'web_search_requests') ?? previous.webSearches;
  const result: Usage = { inputTokens: input, outputTokens: output };
  if (reasoning) result.reasoningTokens = reasoning;
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  if (input !== undefined && output !== undefined) result.totalTokens = input + output;
  if (searches) result.webSearches = searches;
  return result;
}

/**
 * The usage of a turn continued after a pause: the last request's input (the conversation as it
 * now is), and the output, reasoning and searches of every request.
 */
function addUsage(earlier: Usage | undefined, next: Usage | undefined): Usage | undefined {
  if (!earlier || !next) return next ?? earlier;
  const sum = (key: 'outputTokens' | 'reasoningTokens' | 'webSearches') =>
    earlier[key] === undefined && next[key] === undefined
      ? undefined
      : (earlier[key] ?? 0) + (next[key] ?? 0);
  const result: Usage = { ...next };
  for (const key of ['outputTokens', 'reasoningTokens', 'webSearches'] as const) {
    const total = sum(key);
    if (total) result[key] = total;
  }
  if (result.inputTokens !== undefined && result.outputTokens !== undefined)
    result.totalTokens = result.inputTokens + result.outputTokens;
  return result;
}

function finishPart(rawReason: string | undefined, usage: Usage): FinishPart {
  return { type: 'finish', reason: mapAnthropicStopReason(rawReason), rawReason, usage };
}

/**
 * A content block as it starts (streamed) or whole (not streamed): text, thinking with its
 * signature, or redacted thinking, which arrives whole with no deltas.
 */
function* blockParts(block: unknown): Generator<StreamPart> {
  const type = stringAt(block, 'type');
  if (type === 'redacted_thinking') {
    const data = stringAt(block, 'data');
    if (data) yield { type: 'reasoning-redacted', data };
    return;
  }
  const text = stringAt(block, type === 'thinking' ? 'thinking' : 'text');
  if (type === 'text' && text) yield { type: 'text-delta', text };
  if (type === 'thinking') {
    if (text) yield { type: 'reasoning-delta', text };
    const signature = stringAt(block, 'signature');
    if (signature) yield { type: 'reasoning-end', signature };
  }
}

/** The `web_search` server tool: a search starts (its query follows when its input is complete). */
function isWebSearch(block: unknown): boolean {
  return stringAt(block, 'type') === 'server_tool_use' && stringAt(block, 'name') === 'web_search';
}

/**
 * A `web_search_tool_result` block, which arrives whole: the search is done and each result is a
 * page found, or the content is `{type: "web_search_tool_result_error", error_code}` and it failed.
 */
function* searchResult(block: unknown, queries: ReadonlyMap<string, string>): Generator<StreamPart> {
  const id = stringAt(block, 'tool_use_id') ?? '';
  const query = queries.get(id);
  const content = fieldAt(block, 'content');
  if (!Array.isArray(content)) {
    const error = stringAt(content, 'error_code') ?? 'unavailable';
    yield { type: 'web-search', id, status: 'failed', error, ...(query && { query }) };
    return;
  }
  yield { type: 'web-search', id, status: 'done', ...(query && { query }) };
  for (const result of content) yield* sourcePart(stringAt(result, 'url'), stringAt(result, 'title'));
}

/** A text block's web citations, placed at its end: the text this request has streamed so far. */
function citationParts(citations: readonly unknown[], at: number): StreamPart[] {
  return citations.flatMap((citation): StreamPart[] => {
    if (stringAt(citation, 'type') !== 'web_search_result_location') return [];
    const source = webSource(stringAt(citation, 'url'), stringAt(citation, 'title'));
    const citedText = stringAt(citation, 'cited_text');
    return source ? [{ type: 'citation', source, at, ...(citedText && { citedText }) }] : [];
  });
}

/** The server tools that run code, and the language each runs: bash, Python (20250522), a file written. */
const codeToolLanguages: Readonly<Record<string, string>> = {
  bash_code_execution: 'bash',
  code_execution: 'python',
  text_editor_code_execution: 'text',
};

/** The result blocks of those tools, and the language of the run each ends. */
const codeResultLanguages: Readonly<Record<string, string>> = {
  bash_code_execution_tool_result: 'bash',
  code_execution_tool_result: 'python',
  text_editor_code_execution_tool_result: 'text',
};

const isCodeResult = (type: string | undefined) =>
  type !== undefined && Object.hasOwn(codeResultLanguages, type);

/** The language of a `server_tool_use` block that runs code; undefined for any other block. */
function codeLanguage(block: unknown): string | undefined {
  if (stringAt(block, 'type') !== 'server_tool_use') return undefined;
  const name = stringAt(block, 'name') ?? '';
  return Object.hasOwn(codeToolLanguages, name) ? codeToolLanguages[name] : undefined;
}

/**
 * The code of a run's whole input: bash's `command`, Python's `code`; the text editor's command
 * and path, then the text it writes (or the text it replaces, and with what).
 */
function codeOf(block: unknown, input: unknown): string {
  const name = stringAt(block, 'name');
  if (name === 'bash_code_execution') return stringAt(input, 'command') ?? '';
  if (name === 'code_execution') return stringAt(input, 'code') ?? '';
  const oldText = stringAt(input, 'old_str');
  const newText = stringAt(input, 'new_str');
  return [
    [stringAt(input, 'command'), stringAt(input, 'path')].filter(Boolean).join(' '),
    stringAt(input, 'file_text'),
    oldText === undefined ? undefined : `Replace:\n${oldText}`,
    newText === undefined ? undefined : `With:\n${newText}`,
  ]
    .filter((line) => line !== undefined && line !== '')
    .join('\n');
}

/** What a turn's code runs made: files to fetch before it finishes, within the request's budget. */
interface TurnMedia {
  budget: FileBudget;
  downloads: PendingDownloads;
  /** The file ids queued (a continuation's blocks are not read again, but a stream may repeat). */
  queued: Set<string>;
  /** The runs begun: a result whose start went missing begins its run itself. */
  runs: Set<string>;
  /** The Files API requests of one file: its metadata and its bytes. */
  file(fileId: string): { metadata: HttpRequest; content: HttpRequest };
}

/** A run begins, once per id. */
function runStart(id: string, language: string, media: TurnMedia): StreamPart[] {
  if (media.runs.has(id)) return [];
  media.runs.add(id);
  return [{ type: 'code-start', id, language }];
}

/**
 * A code run's result block, which arrives whole: what it printed, its stderr, `exit code N` when
 * it failed; an error (`…_tool_result_error`) fails the run with its code. Each file it wrote
 * (`code_execution_output`) is fetched from the Files API before the reply finishes: its name and
 * type from the metadata, then its bytes.
 */
function* codeResult(block: unknown, media: TurnMedia): Generator<StreamPart> {
  const id = stringAt(block, 'tool_use_id');
  if (!id) return;
  if (!media.runs.has(id)) {
    media.runs.add(id);
    yield { type: 'code-start', id, language: codeResultLanguages[stringAt(block, 'type') ?? ''] ?? '' };
  }
  const content = recordAt(block, 'content');
  const type = stringAt(content, 'type') ?? '';
  if (!content || type.endsWith('_tool_result_error')) {
    yield { type: 'code-result', id, output: '', failed: stringAt(content, 'error_code') || 'unavailable' };
    return;
  }
  const lines = arrayAt(content, 'lines').filter((line): line is string => typeof line === 'string');
  // bash and Python print to stdout; the editor's view shows the file, a replacement its lines.
  const output = stringAt(content, 'stdout') ?? stringAt(content, 'content') ?? lines.join('\n');
  const stderr = stringAt(content, 'stderr');
  const returnCode = numberAt(content, 'return_code');
  yield {
    type: 'code-result',
    id,
    output,
    ...(stderr && { stderr }),
    ...(returnCode !== undefined && returnCode !== 0 && { failed: `exit code ${returnCode}` }),
  };
  for (const written of arrayAt(content, 'content')) {
    const fileId =
      stringAt(written, 'type') === 'code_execution_output' ? stringAt(written, 'file_id') : undefined;
    if (!fileId || media.queued.has(fileId)) continue;
    media.queued.add(fileId);
    const { metadata, content: bytes } = media.file(fileId);
    media.downloads.push(() =>
      downloadedFile(
        {
          id: fileId,
          runId: id,
          name: fileId,
          request: bytes,
          describe: async () => {
            const json = await getJson(metadata);
            const mimeType = stringAt(json, 'mime_type');
            return { name: fileName(stringAt(json, 'filename'), fileId), ...(mimeType && { mimeType }) };
          },
        },
        media.budget,
      ),
    );
  }
}

/**
 * A reply across the requests of one turn: a turn paused (`pause_turn`, the server's own tool loop
 * ran long) is continued with what it said so far, and streams on into the same reply.
 */
interface TurnState {
  /** UTF-16 length of the text streamed so far, over every request of the turn: citations are placed in it. */
  text: number;
  /** The turn's content blocks as they arrived, to send back unchanged when it pauses. */
  blocks: JsonRecord[];
  /** Queries of the searches so far, by server tool id. */
  queries: Map<string, string>;
  /** The code execution container the turn runs in: a continuation asks for it again. */
  container?: string;
  media: TurnMedia;
}

/** A `tool_use` or `server_tool_use` block as it streams: its input's JSON text so far. */
interface StreamedBlock {
  block: JsonRecord;
  json: string;
}

function createMessagesDecoder(request: HttpRequest, turn: TurnState): StreamDecoder {
  let rawReason: string | undefined;
  let usage: Usage = {};
  let stopped = false;
  const blocks = new Map<number, StreamedBlock>();
  return {
    *decode(event) {
      const data = parseEventJson(request, event.data);
      const index = numberAt(data, 'index') ?? -1;
      switch (event.event ?? stringAt(data, 'type')) {
        case 'message_start':
          usage = readUsage(recordAt(recordAt(data, 'message'), 'usage'), usage);
          break;
        case 'content_block_start': {
          const block = { ...recordAt(data, 'content_block') };
          blocks.set(index, { block, json: '' });
          const type = stringAt(block, 'type');
          if (type === 'tool_use')
            yield {
              type: 'tool-call-start',
              callId: stringAt(block, 'id') ?? '',
              name: stringAt(block, 'name') ?? '',
            };
          else if (isWebSearch(block))
            yield { type: 'web-search', id: stringAt(block, 'id') ?? '', status: 'searching' };
          else if (type === 'web_search_tool_result') yield* searchResult(block, turn.queries);
          else if (codeLanguage(block)) {
            const id = stringAt(block, 'id');
            if (id) yield* runStart(id, codeLanguage(block) ?? '', turn.media);
          } else if (isCodeResult(type)) yield* codeResult(block, turn.media);
          else {
            if (type === 'text') turn.text += (stringAt(block, 'text') ?? '').length;
            yield* blockParts(block);
          }
          break;
        }
        case 'content_block_delta': {
          const delta = recordAt(data, 'delta');
          const streamed = blocks.get(index);
          const block = streamed?.block;
          switch (stringAt(delta, 'type')) {
            case 'text_delta': {
              const text = stringAt(delta, 'text');
              if (!text) break;
              if (block) block.text = (stringAt(block, 'text') ?? '') + text;
              turn.text += text.length;
              yield { type: 'text-delta', text };
              break;
            }
            case 'thinking_delta': {
              const text = stringAt(delta, 'thinking');
              if (!text) break;
              if (block) block.thinking = (stringAt(block, 'thinking') ?? '') + text;
              yield { type: 'reasoning-delta', text };
              break;
            }
            // The signature arrives just before the thinking block stops: it closes the block.
            case 'signature_delta': {
              const signature = stringAt(delta, 'signature');
              if (block && signature !== undefined) block.signature = signature;
              yield { type: 'reasoning-end', signature };
              break;
            }
            case 'input_json_delta': {
              const json = stringAt(delta, 'partial_json');
              if (!streamed || !json) break;
              streamed.json += json;
              if (stringAt(block, 'type') === 'tool_use')
                yield { type: 'tool-call-delta', callId: stringAt(block, 'id') ?? '', delta: json };
              break;
            }
            // Citations of a text block come before or with its text: placed at its end.
            case 'citations_delta':
              if (block) block.citations = [...arrayAt(block, 'citations'), fieldAt(delta, 'citation')];
              break;
            default:
          }
          break;
        }
        case 'content_block_stop': {
          const streamed = blocks.get(index);
          if (!streamed) break;
          const { block, json } = streamed;
          const type = stringAt(block, 'type');
          if (type === 'text') yield* citationParts(arrayAt(block, 'citations'), turn.text);
          if (type !== 'tool_use' && type !== 'server_tool_use') break;
          // The joined partial JSON is the input; none at all is `{}` (or the input it started with).
          const input = json === '' ? fieldAt(block, 'input') : parseJson(json);
          block.input = isRecord(input) ? input : {};
          const id = stringAt(block, 'id') ?? '';
          if (type === 'server_tool_use') {
            // The code, once the input is whole: one delta.
            const code = codeLanguage(block) ? codeOf(block, block.input) : '';
            if (id && code) yield { type: 'code-delta', id, delta: code };
            // The query, once the input is whole: a second part with the same id.
            const query = isWebSearch(block) ? stringAt(block.input, 'query') : undefined;
            if (query) {
              turn.queries.set(id, query);
              yield { type: 'web-search', id, status: 'searching', query };
            }
            break;
          }
          const whole = json === '' && isRecord(input) ? JSON.stringify(input) : '';
          yield { type: 'tool-call-end', callId: id, arguments: wholeArguments(json || whole) };
          break;
        }
        case 'message_delta':
          rawReason = stringAt(recordAt(data, 'delta'), 'stop_reason') ?? rawReason;
          turn.container = stringAt(recordAt(recordAt(data, 'delta'), 'container'), 'id') ?? turn.container;
          usage = readUsage(recordAt(data, 'usage'), usage);
          break;
        case 'message_stop':
          stopped = true;
          return true;
        case 'error':
          throw errorFromPayload(request.provider, data);
        default:
        // ping and event types added later carry no text.
      }
      return false;
    },
    finish: () => {
      if (!stopped && rawReason === undefined) return undefined;
      // The turn's blocks in order, for a continuation if it paused.
      turn.blocks.push(...[...blocks.entries()].sort(([a], [b]) => a - b).map(([, { block }]) => block));
      return finishPart(rawReason, usage);
    },
  };
}

const supported = (capabilities: unknown, key: string) => {
  const value = fieldAt(recordAt(capabilities, key), 'supported');
  return typeof value === 'boolean' ? value : undefined;
};

/** A /v1/models item: limits and capabilities, any of which may be null. */
function listedModel(item: unknown): ListedModel[] {
  const id = stringAt(item, 'id');
  if (!id) return [];
  const capabilities = recordAt(item, 'capabilities');
  return [
    {
      id,
      capabilities: definedOnly({
        contextWindow: countAt(item, 'max_input_tokens'),
        maxOutput: countAt(item, 'max_tokens'),
        reasoning: supported(capabilities, 'thinking'),
        images: supported(capabilities, 'image_input'),
        pdfs: supported(capabilities, 'pdf_input'),
      }),
    },
  ];
}

function decodeMessagesReply(json: unknown, turn: TurnState): StreamPart[] {
  const parts: StreamPart[] = [];
  for (const block of arrayAt(json, 'content')) {
    if (!isRecord(block)) continue;
    turn.blocks.push(block);
    const type = stringAt(block, 'type');
    const id = stringAt(block, 'id') ?? '';
    if (type === 'tool_use')
      parts.push(
        ...wholeCall(id, stringAt(block, 'name') ?? '', JSON.stringify(recordAt(block, 'input') ?? {})),
      );
    else if (isWebSearch(block)) {
      const query = stringAt(recordAt(block, 'input'), 'query');
      if (query) turn.queries.set(id, query);
      parts.push({ type: 'web-search', id, status: 'searching', ...(query && { query }) });
    } else if (type === 'web_search_tool_result') parts.push(...searchResult(block, turn.queries));
    else if (codeLanguage(block)) {
      const code = codeOf(block, recordAt(block, 'input'));
      if (!id) continue;
      parts.push(...runStart(id, codeLanguage(block) ?? '', turn.media));
      if (code) parts.push({ type: 'code-delta', id, delta: code });
    } else if (isCodeResult(type)) parts.push(...codeResult(block, turn.media));
    else {
      parts.push(...blockParts(block));
      if (type !== 'text') continue;
      turn.text += (stringAt(block, 'text') ?? '').length;
      parts.push(...citationParts(arrayAt(block, 'citations'), turn.text));
    }
  }
  turn.container = stringAt(recordAt(json, 'container'), 'id') ?? turn.container;
  return [...parts, finishPart(stringAt(json, 'stop_reason'), readUsage(recordAt(json, 'usage')))];
}

/**
 * Anthropic's web search server tool. 20250305 is the version every model with web search takes,
 * with no beta header. The newer 20260209 (dynamic filtering, Claude 4.6 on) runs through code
 * execution and was announced behind the `code-execution-web-tools-2026-02-09` beta, and an
 * unknown beta value is a 400: not worth the risk for what this app shows.
 */
const webSearchTool = { type: 'web_search_20250305', name: 'web_search' };

/**
 * Anthropic's code execution server tool: 20250825 runs bash and edits files (any language), with
 * the beta header vercel-ai sends for it. Every model with web search takes it.
 */
const codeExecutionTool = { type: 'code_execution_20250825', name: 'code_execution' };
const codeExecutionBeta = 'code-execution-2025-08-25';
/** The Files API, where the files a run wrote are fetched from. */
const filesBeta = 'files-api-2025-04-14';

/** Headers with one more beta: Anthropic takes several in one header, joined with commas. */
function withBeta(headers: Record<string, string>, beta: string): Record<string, string> {
  const betas = headers['anthropic-beta'];
  return { ...headers, 'anthropic-beta': betas ? `${betas},${beta}` : beta };
}

/** How often a paused turn is continued before the reply ends as it is. */
const maxContinuations = 8;

/**
 * The blocks of a paused turn as they go back: unchanged (signatures, encrypted content and
 * citations included), but without empty text blocks, and without trailing whitespace at the very
 * end (the API refuses a final assistant turn that ends with whitespace).
 */
function pausedContent(blocks: readonly JsonRecord[]): JsonRecord[] {
  const kept = blocks.filter((block) => stringAt(block, 'type') !== 'text' || stringAt(block, 'text') !== '');
  const last = kept.at(-1);
  const text = stringAt(last, 'type') === 'text' ? (stringAt(last, 'text') ?? '') : undefined;
  if (last === undefined || text === undefined || text.trimEnd() === text) return kept;
  return text.trimEnd() === ''
    ? kept.slice(0, -1)
    : [...kept.slice(0, -1), { ...last, text: text.trimEnd() }];
}

/** The messages of a continuation: the turn so far as the last assistant turn (after a prefill, in it). */
function continued(messages: readonly { role: string; content: unknown }[], blocks: readonly JsonRecord[]) {
  const content = pausedContent(blocks);
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [...messages, { role: 'assistant', content }];
  const earlier = Array.isArray(last.content)
    ? last.content
    : typeof last.content === 'string' && last.content.trim() !== ''
      ? [{ type: 'text', text: last.content }]
      : [];
  return [...messages.slice(0, -1), { role: 'assistant', content: [...earlier, ...content] }];
}

/**
 * An organisation whose admin has not allowed web search is refused with a 400 naming web search:
 * said in one sentence that names the setting.
 */
export const webSearchOffMessage =
  'Web search is switched off for this Anthropic organisation; an admin can turn it on in the Claude Console (Settings → Privacy).';

function searchRefusal(error: unknown): ProviderError | undefined {
  if (!isProviderError(error) || (error.status !== 400 && error.status !== 403)) return undefined;
  const { message } = error;
  if (!/web[ _-]?search/i.test(message)) return undefined;
  if (!/organi[sz]ation|console|admin|not enabled|disabled/i.test(message)) return undefined;
  return new ProviderError(
    { provider: error.provider, kind: error.kind, status: error.status, message: webSearchOffMessage },
    { cause: error },
  );
}

export function createAnthropicProvider(
  definition: ProviderDefinition,
  connection: Config,
  fetch: typeof globalThis.fetch,
): ChatProvider {
  const { api } = definition;
  if (api.kind !== 'anthropic-messages')
    throw new Error(`${definition.label} does not speak the Messages API`);
  const base = resolveBase(connection.baseUrl, api.host);
  const target = {
    provider: definition.id,
    fetch,
    headers: {
      'x-api-key': connection.apiKey,
      // The newest version Anthropic's versioning page documents (platform.claude.com/docs/en/api/versioning).
      'anthropic-version': '2023-06-01',
      // Without it Anthropic refuses every request that carries an Origin (every browser request).
      'anthropic-dangerous-direct-browser-access': 'true',
      'content-type': 'application/json',
    },
  };
  return {
    id: definition.id,
    chat({
      messages,
      settings,
      effort,
      signal,
      stream = true,
      tools: requested,
      webSearch = false,
      codeExecution = false,
    }) {
      const config: Config = { ...connection, ...settings };
      const systemMessage = messages.find(({ role }) => role === 'system');
      const system = systemMessage?.content ?? '';
      // At most one explicit cache marker, where the project's shared prefix ends; with the
      // top-level one below, two of the four a request may carry.
      const mark = prefixMarkOf(messages, systemMessage);
      const capabilities = capabilitiesOf(config);
      const { rejects } = capabilities;
      const tools = offeredTools(requested);
      // Function tools first, then the server tools; none when there is none (the original payload).
      const toolList = [
        ...(tools ? anthropicTools(tools) : []),
        ...(webSearch ? [webSearchTool] : []),
        ...(codeExecution ? [codeExecutionTool] : []),
      ];
      // A loop answering calls that carry no signed thinking (another model's) cannot think this step.
      const thinking = thinkingFields(config, capabilities, answersUnsignedCalls(messages) ? 'off' : effort);
      const thinkingOn = thinking !== undefined && thinking.thinking.type !== 'disabled';
      // With thinking on, temperature, top_p and top_k are refused (docs/providers.md#anthropic-thinking).
      const sendsTemperature = !rejects.includes('temperature') && !thinkingOn;
      const request = {
        ...target,
        ...(codeExecution && { headers: withBeta(target.headers, codeExecutionBeta) }),
        url: `${base}/v1/messages`,
        signal,
      };
      const fileHeaders = withBeta(target.headers, filesBeta);
      const filesOf = (fileId: string) => {
        const url = `${base}/v1/files/${encodeURIComponent(fileId)}`;
        return {
          metadata: { ...target, headers: fileHeaders, url, signal },
          content: { ...target, headers: fileHeaders, url: `${url}/content`, signal },
        };
      };
      const history = anthropicMessages(messages, thinkingOn, mark);
      const body = (leftOut: ReadonlySet<string>, turn: TurnState) => ({
        model: config.model,
        max_tokens: config.maxTokens,
        // The app's slider goes to 2 (the OpenAI range); Anthropic accepts 0 to 1 and rejects more.
        ...(sendsTemperature &&
          !leftOut.has('temperature') && { temperature: Math.min(1, Math.max(0, config.temperature)) }),
        // Omitted when empty: an empty system prompt means none, and omitting it is always accepted.
        // Text blocks only when the project's shared prefix ends in it; otherwise the plain string.
        ...(system.trim() ? { system: systemField(system, mark) } : {}),
        messages: turn.blocks.length > 0 ? continued(history, turn.blocks) : history,
        // A paused turn goes on in the container its code ran in.
        ...(turn.blocks.length > 0 && turn.container && { container: turn.container }),
        // Only with tools; tool_choice stays the default, auto (thinking refuses any other).
        ...(toolList.length > 0 && { tools: toolList }),
        stream,
        ...thinking,
        // Long chats cost less: the conversation so far is read from Claude's prompt cache.
        ...(promptChars(messages) >= cacheWorthChars && { cache_control: { type: 'ephemeral' } }),
        // Never top_p: newer models reject temperature and top_p together.
      });
      /** The turn, continued while the server pauses it; one finish with the usage of all its requests. */
      async function* turnOf(leftOut: ReadonlySet<string>): AsyncGenerator<StreamPart> {
        const turn: TurnState = {
          text: 0,
          blocks: [],
          queries: new Map(),
          media: {
            budget: createFileBudget(),
            downloads: [],
            queued: new Set(),
            runs: new Set(),
            file: filesOf,
          },
        };
        let usage: Usage | undefined;
        for (let continuation = 0; ; continuation++) {
          let finish: FinishPart | undefined;
          const parts = withDownloads(
            runChat({
              ...request,
              body: body(leftOut, turn),
              stream,
              createDecoder: () => createMessagesDecoder(request, turn),
              decodeReply: (json) => decodeMessagesReply(json, turn),
            }),
            turn.media.downloads,
          );
          try {
            for await (const part of parts) {
              if (part.type === 'finish') finish = part;
              else yield part;
            }
          } catch (error) {
            throw (webSearch && searchRefusal(error)) || error;
          }
          if (!finish) return;
          usage = addUsage(usage, finish.usage);
          if (finish.rawReason !== 'pause_turn' || continuation >= maxContinuations) {
            yield usage ? { ...finish, usage } : finish;
            return;
          }
        }
      }
      return withParameterRetry({
        modelKey: `${definition.id}|${base}|${config.model ?? ''}`,
        droppable: ['temperature'],
        call: turnOf,
      });
    },
    async listModels(signal) {
      const json = await getJson({ ...target, url: `${base}/v1/models?limit=1000`, signal });
      return arrayAt(json, 'data').flatMap(listedModel);
    },
  };
}
