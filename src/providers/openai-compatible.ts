import type { Config } from '../domain/config.ts';
import { capabilitiesOf, modelOf } from '../domain/provider-catalog.ts';
import {
  acceptedEffort,
  thinkingOutputLimit,
  type ReasoningEffort,
  type SamplingSetting,
} from '../domain/provider-definitions/capabilities.ts';
import type { CompletionOption, ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { parseDay } from '../domain/provider-definitions/retirement.ts';
import { errorFromPayload } from './error-mapping.ts';
import { getJson, resolveBase, type HttpRequest } from './http.ts';
import { arrayAt, countAt, definedOnly, fieldAt, numberAt, parseJson, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import type { ResponsesCall } from './openai-responses.ts';
import { withParameterRetry } from './parameter-retry.ts';
import { createThinkTagSplitter } from './think-tags.ts';
import { dataUrl } from './data-url.ts';
import { ProviderError } from './provider-error.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { isRecord } from '../domain/json-guards.ts';
import {
  argumentsText,
  newCallId,
  offeredTools,
  textWithoutImages,
  wholeArguments,
  wholeCall,
} from './tool-wire.ts';
import type { ChatMessage, ChatProvider, ListedModel, StreamPart } from './types.ts';
import { sourcePart } from './web-search-wire.ts';
import { createFileBudget, inlineFile, joinedLines, numberedName } from './code-image-wire.ts';

/**
 * A /models item. OpenAI reports no limits, only an optional `shutdown_date` ('YYYY-MM-DD' or
 * null; openai-node src/resources/models.ts); Azure nothing; Groq reports `context_window` and
 * `max_completion_tokens`; OpenRouter `context_length`, `top_provider.max_completion_tokens`,
 * its input modalities and supported parameters.
 */
function listedModel(item: unknown): ListedModel[] {
  const id = stringAt(item, 'id');
  if (!id) return [];
  const inputs = arrayAt(recordAt(item, 'architecture'), 'input_modalities');
  const parameters = arrayAt(item, 'supported_parameters');
  const capabilities = definedOnly({
    contextWindow: countAt(item, 'context_window') ?? countAt(item, 'context_length'),
    maxOutput:
      countAt(item, 'max_completion_tokens') ??
      countAt(recordAt(item, 'top_provider'), 'max_completion_tokens'),
    images: inputs.length > 0 ? inputs.includes('image') : undefined,
    pdfs: inputs.length > 0 ? inputs.includes('file') : undefined,
    reasoning: parameters.length > 0 ? parameters.includes('reasoning') : undefined,
    tools: parameters.length > 0 ? parameters.includes('tools') : undefined,
  });
  const shutdownDate = parseDay(stringAt(item, 'shutdown_date'));
  return [shutdownDate ? { id, capabilities, shutdownDate } : { id, capabilities }];
}

/** The one client for every server that speaks Chat Completions: OpenAI, Azure, Groq and compatible ones. */

/** A user turn's files as content parts: each file (an `image_url`, a PDF as a `file`), then its text. */
function userContent({ content, files }: ChatMessage): unknown {
  if (!files?.length) return content;
  const parts: unknown[] = files.map((file) =>
    file.kind === 'image'
      ? { type: 'image_url', image_url: { url: dataUrl(file) } }
      : { type: 'file', file: { filename: file.name, file_data: dataUrl(file) } },
  );
  if (content !== '') parts.push({ type: 'text', text: content });
  return parts;
}

/**
 * Only the keys each role takes: the APIs reject extra ones such as an app's `status` or `error`.
 * An assistant turn that called tools carries its `tool_calls` (content null when it wrote no
 * text), and one `tool` message per result follows it, in the calls' order. A tool message is
 * text only: images a tool returned are said to be left out. `reasoningContent`: such a turn
 * carries its reasoning back as DeepSeek's `reasoning_content`, which its thinking mode requires.
 */
export function completionMessages(
  messages: readonly ChatMessage[],
  reasoningContent = false,
): Record<string, unknown>[] {
  return messages.flatMap((message): Record<string, unknown>[] => {
    const { role, content, toolCalls, toolResults } = message;
    if (role === 'tool')
      return (toolResults ?? []).map((result) => ({
        role: 'tool',
        tool_call_id: result.callId,
        content: textWithoutImages(result),
      }));
    if (role !== 'assistant' || !toolCalls?.length) return [{ role, content: userContent(message) }];
    const reasoning = (message.reasoning ?? []).map(({ text }) => text).join('');
    return [
      {
        role,
        content: content === '' ? null : content,
        ...(reasoningContent && reasoning && { reasoning_content: reasoning }),
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: argumentsText(call.arguments) },
        })),
      },
    ];
  });
}

/** Tools in the Chat Completions shape: `{type:'function', function:{name, description, parameters}}`. */
export function completionTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map(({ name, description, parameters }) => ({
    type: 'function',
    function: { name, ...(description && { description }), parameters },
  }));
}

export function mapCompletionFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    default:
      return 'other';
  }
}

/**
 * Usage from the top-level `usage`, or Groq's `x_groq.usage`. `prompt_tokens` includes the cached
 * ones and `completion_tokens` the reasoning (DeepSeek-style servers put `reasoning_tokens` at the top).
 */
function readUsage(chunk: unknown): Usage | undefined {
  const usage = recordAt(chunk, 'usage') ?? recordAt(recordAt(chunk, 'x_groq'), 'usage');
  if (!usage) return undefined;
  return definedOnly({
    inputTokens: numberAt(usage, 'prompt_tokens'),
    cachedInputTokens: numberAt(recordAt(usage, 'prompt_tokens_details'), 'cached_tokens') || undefined,
    outputTokens: numberAt(usage, 'completion_tokens'),
    reasoningTokens:
      (numberAt(recordAt(usage, 'completion_tokens_details'), 'reasoning_tokens') ??
        numberAt(usage, 'reasoning_tokens')) ||
      undefined,
    totalTokens: numberAt(usage, 'total_tokens'),
  });
}

/** Reasoning as compatible servers stream it: Groq and Ollama `reasoning`, DeepSeek `reasoning_content`. */
function reasoningOf(message: unknown): string | undefined {
  return stringAt(message, 'reasoning') ?? stringAt(message, 'reasoning_content');
}

/** Some compatible servers end a reply that called tools with 'stop': it stopped for its calls all the same. */
function finishPart(
  rawReason: string | undefined,
  usage: Usage | undefined,
  calledTools: boolean,
): Extract<StreamPart, { type: 'finish' }> {
  const reason = mapCompletionFinishReason(rawReason);
  return {
    type: 'finish',
    reason: calledTools && reason === 'stop' ? 'tool-calls' : reason,
    rawReason,
    usage,
  };
}

/** Arguments as text; a server that sends them parsed gets them written back as JSON. */
function argumentsAt(fn: unknown): string {
  const value = fieldAt(fn, 'arguments');
  return isRecord(value) ? JSON.stringify(value) : typeof value === 'string' ? value : '';
}

interface StreamedCall {
  id?: string;
  name: string;
  arguments: string;
  started: boolean;
}

/**
 * Tool calls as they stream: fragments collected by `index`, the id and name only in a call's
 * first fragment (docs/providers.md#tool-calling). A call starts once its name is known, its
 * argument fragments follow as deltas, and every call ends when the reply finishes, in order.
 */
function createToolCallReader() {
  const calls: StreamedCall[] = [];
  const byIndex = new Map<number, StreamedCall>();

  function slotFor(fragment: unknown): StreamedCall {
    const id = stringAt(fragment, 'id') || undefined;
    const index = numberAt(fragment, 'index');
    let call =
      index !== undefined ? byIndex.get(index) : id ? calls.find((known) => known.id === id) : calls.at(-1);
    // Another call's id and name at a reused index (servers that number every call 0) start a new call.
    const name = stringAt(recordAt(fragment, 'function'), 'name');
    if (call && id && call.id && call.id !== id && name) call = undefined;
    if (!call) {
      call = { id, name: '', arguments: '', started: false };
      calls.push(call);
      if (index !== undefined) byIndex.set(index, call);
    }
    return call;
  }

  function* read(delta: unknown): Generator<StreamPart> {
    for (const fragment of arrayAt(delta, 'tool_calls')) {
      const call = slotFor(fragment);
      const fn = recordAt(fragment, 'function');
      const args = argumentsAt(fn);
      call.id ??= stringAt(fragment, 'id') || undefined;
      call.arguments += args;
      if (call.started) {
        if (args) yield { type: 'tool-call-delta', callId: call.id ?? '', delta: args };
        continue;
      }
      call.name ||= stringAt(fn, 'name') ?? '';
      if (!call.name) continue;
      call.started = true;
      call.id ??= newCallId(calls.indexOf(call));
      yield { type: 'tool-call-start', callId: call.id, name: call.name };
      if (call.arguments) yield { type: 'tool-call-delta', callId: call.id, delta: call.arguments };
    }
  }

  /** The end of every call begun (a fragment with no name never was a call). */
  function* end(): Generator<StreamPart> {
    for (const call of calls.splice(0)) {
      if (call.started)
        yield { type: 'tool-call-end', callId: call.id ?? '', arguments: wholeArguments(call.arguments) };
    }
    byIndex.clear();
  }

  return { read, end };
}

/** Groq's code runs: `python` (compound), `code_interpreter` (as gpt-oss names its tool). */
const codeToolTypes: ReadonlySet<string> = new Set(['python', 'code_interpreter']);

/**
 * Groq's compound models run tools themselves and report them in `executed_tools` (the delta's, or
 * the message's): a web search (`type: "search"`, its query in the `arguments` JSON) first
 * without `output`, then again with it and its `search_results`; a code run (`type: "python"`,
 * its code in the `arguments` JSON) likewise, done with its `output` and `code_results` (`text`,
 * `png`: a plot, base64). Each search and run is reported once as begun and once as done, each
 * page and plot once, however often the stream repeats them.
 */
function createExecutedToolsReader() {
  const searches = new Map<number, { done: boolean }>();
  const runs = new Map<number, { done: boolean }>();
  const pages = new Set<string>();
  const budget = createFileBudget();
  let plots = 0;

  function* codeRun(tool: unknown): Generator<StreamPart> {
    const index = numberAt(tool, 'index') ?? runs.size;
    const id = `groq-code-${index}`;
    const results = arrayAt(tool, 'code_results');
    const output = stringAt(tool, 'output');
    let run = runs.get(index);
    if (!run) {
      runs.set(index, (run = { done: false }));
      yield { type: 'code-start', id, language: 'python' };
      const code = stringAt(parseJson(stringAt(tool, 'arguments') ?? ''), 'code');
      if (code) yield { type: 'code-delta', id, delta: code };
    }
    if (run.done || (output === undefined && results.length === 0)) return;
    run.done = true;
    // What it printed, then any value a result shows as text that the print did not already hold.
    const texts = results.flatMap((result) => {
      const text = stringAt(result, 'text');
      return text && !(output ?? '').includes(text) ? [text] : [];
    });
    yield { type: 'code-result', id, output: joinedLines([output ?? '', ...texts]) };
    for (const result of results) {
      const png = stringAt(result, 'png');
      if (!png) continue;
      plots += 1;
      const name = numberedName('plot', plots, 'image/png');
      yield* inlineFile(
        { id: `${id}-plot-${plots}`, name, mimeType: 'image/png', base64: png, runId: id },
        budget,
      );
    }
  }

  function* read(tools: readonly unknown[]): Generator<StreamPart> {
    for (const tool of tools) {
      const type = stringAt(tool, 'type');
      if (codeToolTypes.has(type ?? '')) {
        yield* codeRun(tool);
        continue;
      }
      if (type !== 'search' && type !== 'web_search') continue;
      const index = numberAt(tool, 'index') ?? searches.size;
      const id = `groq-search-${index}`;
      const query = stringAt(parseJson(stringAt(tool, 'arguments') ?? ''), 'query');
      const results = arrayAt(recordAt(tool, 'search_results'), 'results');
      const finished = results.length > 0 || typeof fieldAt(tool, 'output') === 'string';
      let search = searches.get(index);
      if (!search) {
        searches.set(index, (search = { done: false }));
        if (!finished) yield { type: 'web-search', id, status: 'searching', ...(query && { query }) };
      }
      if (finished && !search.done) {
        search.done = true;
        yield { type: 'web-search', id, status: 'done', ...(query && { query }) };
      }
      for (const result of results) {
        const url = stringAt(result, 'url');
        if (!url || pages.has(url)) continue;
        pages.add(url);
        yield* sourcePart(url, stringAt(result, 'title'));
      }
    }
  }
  return { read };
}

function createCompletionDecoder(request: HttpRequest): StreamDecoder {
  let rawReason: string | undefined;
  let usage: Usage | undefined;
  let done = false;
  let calledTools = false;
  const content = createThinkTagSplitter();
  const toolCalls = createToolCallReader();
  const executedTools = createExecutedToolsReader();
  function* endCalls(): Generator<StreamPart> {
    for (const part of toolCalls.end()) {
      calledTools = true;
      yield part;
    }
  }
  return {
    *decode(event) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        yield* content.flush();
        yield* endCalls();
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
      const delta = recordAt(choice, 'delta');
      const reasoning = reasoningOf(delta);
      if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
      yield* executedTools.read(arrayAt(delta, 'executed_tools'));
      const text = stringAt(delta, 'content');
      if (text) yield* content.feed(text);
      yield* toolCalls.read(delta);
      rawReason = stringAt(choice, 'finish_reason') ?? rawReason;
      if (stringAt(choice, 'finish_reason')) {
        yield* content.flush();
        yield* endCalls();
      }
      return false;
    },
    finish: () => (done || rawReason !== undefined ? finishPart(rawReason, usage, calledTools) : undefined),
  };
}

function decodeCompletionReply(json: unknown): StreamPart[] {
  const choice = arrayAt(json, 'choices')[0];
  const message = recordAt(choice, 'message');
  const reasoning = reasoningOf(message);
  const content = createThinkTagSplitter();
  const calls = arrayAt(message, 'tool_calls').flatMap((call, index) => {
    const fn = recordAt(call, 'function');
    const name = stringAt(fn, 'name');
    return name ? wholeCall(stringAt(call, 'id') || newCallId(index), name, argumentsAt(fn)) : [];
  });
  return [
    ...(reasoning ? [{ type: 'reasoning-delta', text: reasoning } as const] : []),
    ...createExecutedToolsReader().read(arrayAt(message, 'executed_tools')),
    ...content.feed(stringAt(message, 'content') ?? ''),
    ...content.flush(),
    ...calls,
    finishPart(stringAt(choice, 'finish_reason'), readUsage(json), calls.length > 0),
  ];
}

type ChatCompletionsApi = Extract<ProviderDefinition['api'], { kind: 'chat-completions' }>;

/** A path template with `{deployment}` and `{apiVersion}` filled in from the configuration. */
function fillPath(path: string, config: Config): string {
  return path
    .replace('{deployment}', encodeURIComponent(config.deploymentName ?? ''))
    .replace('{apiVersion}', encodeURIComponent(config.apiVersion?.trim() || '2023-05-15'));
}

/** Fields a server may refuse by name; max_tokens is then sent as max_completion_tokens. */
const droppable = [
  'temperature',
  'max_tokens',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'stop',
  'stream_options',
  'reasoning_effort',
  'reasoning_format',
  // A model or server without tool calling ("tools is not supported in this model"): asked without them.
  'tools',
  // Only OpenAI gets it; a proxy at its Base URL may not know it.
  'prompt_cache_key',
];

/**
 * The request body: the original payload's fields in their order (docs/providers.md#openai-request),
 * then what this server accepts of the rest. What the model's capabilities reject, or a 400 refused before, is left out.
 */
function completionBody(
  api: ChatCompletionsApi,
  config: Config,
  messages: readonly ChatMessage[],
  stream: boolean,
  leftOut: ReadonlySet<string>,
  requestedEffort: ReasoningEffort | undefined,
  tools: readonly ToolDefinition[] | undefined,
  promptCacheKey: string | undefined,
) {
  const capabilities = capabilitiesOf(config);
  const { rejects, tokenLimitField } = capabilities;
  const effort =
    capabilities.thinking === 'effort' ? acceptedEffort(capabilities, requestedEffort) : undefined;
  const sends = (field: CompletionOption | 'temperature', setting?: SamplingSetting) =>
    (field === 'temperature' || api.sends.includes(field)) &&
    !leftOut.has(field) &&
    !(setting && rejects.includes(setting));
  const tokenField = leftOut.has('max_tokens') ? 'max_completion_tokens' : tokenLimitField;
  const stop = config.stop?.filter((sequence) => sequence !== '') ?? [];
  return {
    model: modelOf(config),
    // DeepSeek's thinking mode needs a tool-calling turn's reasoning back; only compatible servers get it.
    messages: completionMessages(messages, config.provider === 'custom'),
    ...(sends('temperature', 'temperature') && { temperature: config.temperature }),
    // A reasoning model's limit covers its reasoning too: the answer keeps Max Tokens, thinking gets room on top.
    [tokenField]: capabilities.reasoning
      ? thinkingOutputLimit(capabilities, config.maxTokens, effort)
      : config.maxTokens,
    ...(sends('top_p', 'topP') && { top_p: config.topP }),
    ...(sends('frequency_penalty', 'frequencyPenalty') && { frequency_penalty: config.frequencyPenalty }),
    ...(sends('presence_penalty', 'presencePenalty') && { presence_penalty: config.presencePenalty }),
    ...(sends('stop') && stop.length > 0 && { stop }),
    stream,
    ...(stream && sends('stream_options') && { stream_options: { include_usage: true } }),
    // Reasoning fields only for models that take them, so other models' bodies stay the original.
    ...(effort &&
      !leftOut.has('reasoning_effort') && { reasoning_effort: effort === 'off' ? 'none' : effort }),
    ...(capabilities.reasoningFormat && !leftOut.has('reasoning_format') && { reasoning_format: 'parsed' }),
    // Only with tools: a request without them is the original payload. tool_choice stays the default, auto.
    ...(tools && !leftOut.has('tools') && { tools: completionTools(tools) }),
    // Only with a key (docs/providers.md#prompt-caching-projects): a request without one is the original payload.
    ...(promptCacheKey && !leftOut.has('prompt_cache_key') && { prompt_cache_key: promptCacheKey }),
  };
}

/** The Responses client loads on the first reasoning-model or web-search request: the chat screen does not need it. */
async function* viaResponses(call: ResponsesCall): AsyncGenerator<StreamPart> {
  const { responsesChat } = await import('./openai-responses.ts');
  yield* responsesChat(call);
}

export function createChatCompletionsProvider(
  definition: ProviderDefinition,
  connection: Config,
  fetch: typeof globalThis.fetch,
): ChatProvider {
  const { api } = definition;
  if (api.kind !== 'chat-completions') throw new Error(`${definition.label} does not speak Chat Completions`);
  const base = resolveBase(connection.baseUrl, api.host ?? connection.endpoint ?? '');
  // A server that needs no key (a local one) gets no Authorization header at all.
  const key = connection.apiKey.trim();
  const auth: Record<string, string> =
    api.auth === 'api-key' ? { 'api-key': key } : key ? { Authorization: `Bearer ${key}` } : {};
  const target = { provider: definition.id, fetch, headers: { ...auth, 'Content-Type': 'application/json' } };
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
      imageOutput = false,
      cacheKey,
    }) {
      const config: Config = { ...connection, ...settings };
      const tools = offeredTools(requested);
      // Only OpenAI's own API takes prompt_cache_key as verified; Azure, Groq and compatible
      // servers, which share this client, get nothing (docs/providers.md#prompt-caching-projects).
      const promptCacheKey = definition.id === 'openai' && cacheKey ? cacheKey : undefined;
      // OpenAI's web search, code interpreter and image generation are Responses tools: a request
      // with any of them goes there whatever the model. Servers without a Responses path (Azure,
      // Groq, compatible ones) get the Chat Completions body unchanged; Groq's compound models
      // search and run code on their own.
      const responses = api.responsesPath !== undefined;
      const searches = webSearch && responses;
      const runsCode = codeExecution && responses;
      const draws = imageOutput && responses;
      if (api.responsesPath && (capabilitiesOf(config).reasoning || searches || runsCode || draws))
        return viaResponses({
          ...target,
          url: `${base}${api.responsesPath}`,
          signal,
          config,
          messages,
          stream,
          effort,
          tools,
          ...(searches && { webSearch: true }),
          ...(runsCode && { codeExecution: true }),
          ...(draws && { imageOutput: true }),
          ...(promptCacheKey && { cacheKey: promptCacheKey }),
          keyId: `${base}|${key}`,
        });
      const request = { ...target, url: `${base}${fillPath(api.chatPath, config)}`, signal };
      return withParameterRetry({
        modelKey: `${definition.id}|${base}|${modelOf(config)}`,
        droppable,
        renamed: { max_tokens: 'max_completion_tokens' },
        call: (leftOut) =>
          runChat({
            ...request,
            body: completionBody(api, config, messages, stream, leftOut, effort, tools, promptCacheKey),
            stream,
            createDecoder: () => createCompletionDecoder(request),
            decodeReply: decodeCompletionReply,
          }),
      });
    },
    async listModels(signal) {
      const json = await getJson({
        ...target,
        url: `${base}${fillPath(api.modelsPath, connection)}`,
        signal,
      });
      return arrayAt(json, 'data')
        .flatMap(listedModel)
        .filter(({ id }) => !api.hiddenModels?.test(id));
    },
  };
}
