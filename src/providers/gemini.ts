import type { Config, ProviderId } from '../domain/config.ts';
import { capabilitiesOf } from '../domain/provider-catalog.ts';
import {
  acceptedEffort,
  type ModelCapabilities,
  type ReasoningEffort,
} from '../domain/provider-definitions/capabilities.ts';
import type { ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { getJson, resolveBase, type HttpRequest } from './http.ts';
import { arrayAt, countAt, definedOnly, fieldAt, numberAt, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { ProviderError } from './provider-error.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ProviderData, ToolDefinition } from '../domain/tools.ts';
import { argumentsObject, newCallId, offeredTools, ownData, wholeCall } from './tool-wire.ts';
import type { ChatFile, ChatMessage, ChatProvider, ListedModel, StreamPart } from './types.ts';
import { sourcePart, utf8BytesToUtf16, webSource } from './web-search-wire.ts';
import { createFileBudget, inlineFile, numberedName, type FileBudget } from './code-image-wire.ts';

type FinishPart = Extract<StreamPart, { type: 'finish' }>;

const blockingFinishReasons: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'IMAGE_SAFETY',
]);

export function mapGeminiFinishReason(raw: string | undefined): FinishReason {
  if (raw === 'STOP') return 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  return raw !== undefined && blockingFinishReasons.has(raw) ? 'content-filter' : 'other';
}

/** Google's documented stand-in for a lost `thoughtSignature` (ai.google.dev/gemini-api/docs/thought-signatures). */
export const skipSignature = 'skip_thought_signature_validator';

/** Gemini 3 and later: signatures on calls are checked, and a result may carry images in its own parts. */
const gemini3 = /^gemini-([3-9]|[1-9]\d)/;
/** The aliases may point at Gemini 3 now: a call sent to them carries a signature too. */
const latestAlias = /^gemini-(pro|flash|flash-lite)-latest$/;

/** Who is asked: signatures go back only to the provider and model that wrote them. */
interface HistoryTarget {
  provider: ProviderId;
  model: string;
}

function inlineData(file: ChatFile) {
  // Bare base64, no `data:` prefix.
  return { inlineData: { mimeType: file.mimeType, data: file.data } };
}

/**
 * The pictures a model turn drew, as `inlineData` parts: each with the `thoughtSignature` it came
 * with when this provider and model drew it (an image model checks them to edit a picture).
 */
function drawnImageParts(message: ChatMessage, target: HistoryTarget): unknown[] {
  return (message.drawnImages ?? []).flatMap((image) => {
    if (!image.data) return [];
    const data = image.providerData;
    const own = data?.provider === target.provider && data.model === target.model;
    const thoughtSignature = own ? data.data.thoughtSignature : undefined;
    const part = inlineData(image);
    return [thoughtSignature ? { ...part, thoughtSignature } : part];
  });
}

/**
 * A model turn: the pictures it drew, its text, then its calls, each with the `thoughtSignature`
 * it came with when this model wrote it. A model that checks signatures gets Google's sentinel on
 * a call whose signature is unknown (another model's, an import), except after a signed call of
 * the same turn: only the first of parallel calls ever carries one.
 */
function modelParts(message: ChatMessage, target: HistoryTarget): unknown[] {
  const checksSignatures = gemini3.test(target.model) || latestAlias.test(target.model);
  let signed = false;
  const calls = (message.toolCalls ?? []).map((call) => {
    const own = ownData(call, target.provider, target.model)?.thoughtSignature;
    const thoughtSignature = own ?? (checksSignatures && !signed ? skipSignature : undefined);
    signed ||= own !== undefined;
    const functionCall = { id: call.id, name: call.name, args: argumentsObject(call.arguments) };
    return thoughtSignature ? { functionCall, thoughtSignature } : { functionCall };
  });
  return [
    ...drawnImageParts(message, target),
    ...(message.content.trim() === '' ? [] : [{ text: message.content }]),
    ...calls,
  ];
}

/**
 * A user turn of results, one `functionResponse` each, answering its call by id. Images a tool
 * returned go in the response's own `parts` on Gemini 3; older models take them only as parts of
 * the turn, after the responses.
 */
function resultParts(message: ChatMessage, target: HistoryTarget): unknown[] {
  const inResponse = gemini3.test(target.model);
  const results = message.toolResults ?? [];
  const responses = results.map(({ callId, name, content, images = [] }) => ({
    functionResponse: {
      id: callId,
      name,
      response: { name, content },
      ...(inResponse && images.length > 0 && { parts: images.map(inlineData) }),
    },
  }));
  const loose = inResponse ? [] : results.flatMap(({ images = [] }) => images.map(inlineData));
  return [...responses, ...loose];
}

/**
 * Gemini's history: roles user and model only, no empty parts, and it must open with a user turn
 * (the system prompt travels as systemInstruction). Adjacent turns of one role are accepted.
 */
function geminiContents(
  messages: readonly ChatMessage[],
  target: HistoryTarget,
  rejectsPrefill = false,
): { role: string; parts: unknown[] }[] {
  const contents = messages
    .filter(
      ({ role, content, files, toolCalls, toolResults, drawnImages }) =>
        role !== 'system' &&
        (content.trim() !== '' ||
          Boolean(files?.length || toolCalls?.length || toolResults?.length) ||
          (role === 'assistant' && Boolean(drawnImages?.length))),
    )
    .map((message) => {
      if (message.role === 'tool')
        return { role: 'user', parts: resultParts(message, target), results: true };
      if (message.role === 'assistant') return { role: 'model', parts: modelParts(message, target) };
      const { content, files = [] } = message;
      // Files as inline data, then the text.
      return {
        role: 'user',
        parts: [...files.map(inlineData), ...(content.trim() === '' ? [] : [{ text: content }])],
      };
    });
  // The history opens with a user's own turn, not with results.
  const firstUser = contents.findIndex((turn) => turn.role === 'user' && !('results' in turn));
  // A model that refuses a prefill gets the history up to its last user turn (results are one).
  const end = rejectsPrefill ? contents.findLastIndex(({ role }) => role === 'user') + 1 : contents.length;
  return contents.slice(Math.max(firstUser, 0), end).map(({ role, parts }) => ({ role, parts }));
}

/** Tools as one `functionDeclarations` list, each schema as JSON Schema (`parametersJsonSchema`). */
function geminiTools(tools: readonly ToolDefinition[]): unknown[] {
  return [
    {
      functionDeclarations: tools.map(({ name, description, parameters }) => ({
        name,
        ...(description && { description }),
        parametersJsonSchema: parameters,
      })),
    },
  ];
}

/**
 * Google Search alongside function declarations: Gemini 3 and later take both when asked to include
 * the server-side tool invocations in the reply (`toolConfig.includeServerSideToolInvocations`,
 * without it a 400); Gemini 2.x refuses the pair (400 "Tool use with function calling is
 * unsupported by the model."). The aliases may still point at 2.5: they do not get the pair.
 */
const combinesSearchWithFunctions = gemini3;

export const searchLeftOutNotice =
  'Web search was left out of this request: this Gemini model cannot search while tools are offered (Gemini 3 and later can).';

/** Code execution beside function declarations: the same rule as Google Search. */
export const codeLeftOutNotice =
  'Code execution was left out of this request: this Gemini model cannot run code while tools are offered (Gemini 3 and later can).';

/** A part of the reply as Google numbers them for `partIndex`: text fragments of one kind in a row are one part. */
interface ReplyPart {
  kind: 'text' | 'thought' | 'call';
  /** Where its text begins in the answer text (UTF-16), and its text. */
  start: number;
  text: string;
}

interface ReplyState {
  provider: ProviderId;
  /** The model asked, as its calls' signatures are recorded. */
  model: string;
  rawReason?: string;
  usage?: Usage;
  /** Calls so far: Gemini's finish reason stays STOP when the reply calls tools. */
  calls: number;
  /** The answer text so far (the text deltas joined): grounding offsets are placed in it. */
  text: string;
  parts: ReplyPart[];
  /** What grounding metadata was reported already (it may repeat in later chunks). */
  reported: Set<string>;
  /** Searches reported: their ids count them. */
  searches: number;
  /** An image model: every picture is a drawing, not a run's plot. */
  draws: boolean;
  /** Code runs so far, the last one's id (plots after its result are its files), its result seen. */
  runs: number;
  run?: { id: string; ended: boolean };
  plots: number;
  images: number;
  budget: FileBudget;
}

function replyState(provider: ProviderId, model: string, draws: boolean): ReplyState {
  return {
    provider,
    model,
    calls: 0,
    text: '',
    parts: [],
    reported: new Set(),
    searches: 0,
    draws,
    runs: 0,
    plots: 0,
    images: 0,
    budget: createFileBudget(),
  };
}

/** The run an `executableCode` or `codeExecutionResult` part belongs to: its own `id`, or the next made-up one. */
function runOf(state: ReplyState, given: string | undefined, starts: boolean): StreamPart[] {
  const current = state.run;
  if (given !== undefined ? current?.id === given : current && !starts && !current.ended) return [];
  state.runs += 1;
  const id = given ?? `gemini-code-${state.runs}`;
  state.run = { id, ended: false };
  return [{ type: 'code-start', id, language: 'python' }];
}

/** Code the model runs (`executableCode`): a run begins, its code whole in one delta. */
function executableCodeParts(code: unknown, state: ReplyState): StreamPart[] {
  const given = stringAt(code, 'id') || undefined;
  const parts = runOf(state, given, true);
  const run = state.run;
  if (!run) return parts;
  const language = stringAt(code, 'language')?.toLowerCase();
  const start = parts[0];
  if (start?.type === 'code-start' && language && language !== 'language_unspecified')
    parts[0] = { ...start, language };
  const text = stringAt(code, 'code');
  if (text) parts.push({ type: 'code-delta', id: run.id, delta: text });
  return parts;
}

const outcomes: Readonly<Record<string, string | undefined>> = {
  OUTCOME_OK: undefined,
  OUTCOME_FAILED: 'failed',
  OUTCOME_DEADLINE_EXCEEDED: 'deadline exceeded',
};

/** What a run printed (`codeExecutionResult`), and whether it failed. */
function executionResultParts(result: unknown, state: ReplyState): StreamPart[] {
  const given = stringAt(result, 'id') || undefined;
  const parts = runOf(state, given, false);
  const run = state.run;
  if (!run) return parts;
  run.ended = true;
  const outcome = stringAt(result, 'outcome') ?? 'OUTCOME_OK';
  const failed = Object.hasOwn(outcomes, outcome) ? outcomes[outcome] : 'failed';
  parts.push({
    type: 'code-result',
    id: run.id,
    output: stringAt(result, 'output') ?? '',
    ...(failed && { failed }),
  });
  return parts;
}

/**
 * A file inline (`inlineData`): an image model's picture (`image-1.png`, its thought signature
 * kept to send back for an edit; a draft it drew while thinking, `thought: true`, is a preview of
 * the next picture), or a plot after a run's result (`plot-1.png`, a file of that run). Anything
 * else inline is not shown.
 */
function inlineDataParts(part: unknown, state: ReplyState): StreamPart[] {
  const inline = recordAt(part, 'inlineData');
  const mimeType = stringAt(inline, 'mimeType')?.toLowerCase() || 'application/octet-stream';
  const base64 = fieldAt(inline, 'data');
  if (state.draws && fieldAt(part, 'thought') === true) {
    const number = state.images + 1;
    const name = numberedName('image', number, mimeType);
    return inlineFile({ id: `gemini-image-${number}`, name, mimeType, base64, partial: true }, state.budget);
  }
  if (state.draws) {
    state.images += 1;
    const signature = stringAt(part, 'thoughtSignature');
    return inlineFile(
      {
        id: `gemini-image-${state.images}`,
        name: numberedName('image', state.images, mimeType),
        mimeType,
        base64,
        ...(signature && {
          providerData: {
            provider: state.provider,
            model: state.model,
            data: { thoughtSignature: signature },
          },
        }),
      },
      state.budget,
    );
  }
  const run = state.run;
  if (!run?.ended) return [];
  state.plots += 1;
  return inlineFile(
    {
      id: `${run.id}-plot-${state.plots}`,
      name: numberedName('plot', state.plots, mimeType),
      mimeType,
      base64,
      runId: run.id,
    },
    state.budget,
  );
}

/** Text of a part, extending the reply part in progress when it is of the same kind. */
function addText(state: ReplyState, kind: 'text' | 'thought', text: string): void {
  const last = state.parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else state.parts.push({ kind, start: state.text.length, text });
  if (kind === 'text') state.text += text;
}

/**
 * Where a grounding segment ends in the answer text (UTF-16). `endIndex` counts UTF-8 bytes from
 * the start of the part `partIndex` names (absent: from the start of the answer; Google omits it
 * when a thought part comes first, too). The segment's own `text` checks the place: when the
 * answer does not end there with it, the segment is looked for in the answer instead.
 */
function segmentEnd(segment: unknown, state: ReplyState): number | undefined {
  const end = numberAt(segment, 'endIndex');
  if (end === undefined) return undefined;
  const partIndex = numberAt(segment, 'partIndex');
  const part = partIndex === undefined ? undefined : state.parts[partIndex];
  let at =
    part?.kind === 'text' ? part.start + utf8BytesToUtf16(part.text, end) : utf8BytesToUtf16(state.text, end);
  const cited = stringAt(segment, 'text');
  if (cited && !state.text.slice(0, at).endsWith(cited)) {
    const near = state.text.indexOf(cited, Math.max(0, at - cited.length - 1));
    const found = near === -1 ? state.text.indexOf(cited) : near;
    if (found !== -1) at = found + cited.length;
  }
  return at;
}

/**
 * Grounding with Google Search (`groundingMetadata`, usually in the last chunks): the queries run
 * (searches done), the pages (`groundingChunks`), the spans they support (`groundingSupports`: a
 * citation per chunk index, at the segment's end, citing its text) and Google's search suggestions.
 * Each is reported once, however often the metadata repeats.
 */
function* groundingParts(metadata: unknown, state: ReplyState): Generator<StreamPart> {
  const once = (key: string) => !state.reported.has(key) && Boolean(state.reported.add(key));
  for (const query of arrayAt(metadata, 'webSearchQueries')) {
    if (typeof query !== 'string' || !once(`query:${query}`)) continue;
    state.searches += 1;
    yield { type: 'web-search', id: `google-search-${state.searches}`, status: 'done', query };
  }
  const sources = arrayAt(metadata, 'groundingChunks').map((chunk) => {
    const web = recordAt(chunk, 'web');
    return webSource(stringAt(web, 'uri'), stringAt(web, 'title'));
  });
  for (const source of sources)
    if (source && once(`source:${source.url}`)) yield* sourcePart(source.url, source.title);
  for (const support of arrayAt(metadata, 'groundingSupports')) {
    const segment = recordAt(support, 'segment');
    const at = segmentEnd(segment, state);
    if (at === undefined) continue;
    const citedText = stringAt(segment, 'text');
    for (const index of arrayAt(support, 'groundingChunkIndices')) {
      const source = typeof index === 'number' ? sources[index] : undefined;
      if (!source || !once(`citation:${at}:${source.url}`)) continue;
      yield { type: 'citation', source, at, ...(citedText && { citedText }) };
    }
  }
  const html = stringAt(recordAt(metadata, 'searchEntryPoint'), 'renderedContent');
  if (html && once(`suggestions:${html}`)) yield { type: 'search-suggestions', html };
}

/** Repeated, cumulative, in every chunk. The prompt count includes the cached tokens; the output is the answer plus the thoughts. */
function readUsage(chunk: unknown): Usage | undefined {
  const usage = recordAt(chunk, 'usageMetadata');
  if (!usage) return undefined;
  const answer = numberAt(usage, 'candidatesTokenCount');
  const thoughts = numberAt(usage, 'thoughtsTokenCount');
  return definedOnly({
    inputTokens: numberAt(usage, 'promptTokenCount'),
    cachedInputTokens: numberAt(usage, 'cachedContentTokenCount') || undefined,
    outputTokens:
      answer === undefined && thoughts === undefined ? undefined : (answer ?? 0) + (thoughts ?? 0),
    reasoningTokens: thoughts || undefined,
    totalTokens: numberAt(usage, 'totalTokenCount'),
  });
}

/** Token budgets per effort for models that take one (2.5 Flash goes to 24,576, 2.5 Pro further). */
const thinkingBudget: Partial<Record<ReasoningEffort, number>> = {
  off: 0,
  low: 1024,
  medium: 8192,
  high: 24_576,
};

/**
 * Thoughts are returned only when asked for; a level (Gemini 3) or a budget (2.5) only when the
 * conversation chose an effort, and never both (a 400; docs/providers.md#gemini-thinking).
 */
function thinkingConfig(capabilities: ModelCapabilities, requested: ReasoningEffort | undefined) {
  if (!capabilities.reasoning) return undefined;
  const effort = acceptedEffort(capabilities, requested);
  if (effort && capabilities.thinking === 'level') return { includeThoughts: true, thinkingLevel: effort };
  const budget = effort && capabilities.thinking === 'budget' ? thinkingBudget[effort] : undefined;
  return budget === undefined
    ? { includeThoughts: true }
    : { includeThoughts: budget > 0, thinkingBudget: budget };
}

function blockedError(provider: ProviderId, message: string): ProviderError {
  return new ProviderError({ provider, kind: 'blocked', message });
}

/** The text of one response chunk; throws after that text when Gemini blocked the prompt or the reply. */
function* chunkParts(chunk: unknown, state: ReplyState): Generator<StreamPart, void> {
  const candidate = arrayAt(chunk, 'candidates')[0];
  const blockReason = stringAt(recordAt(chunk, 'promptFeedback'), 'blockReason');
  if (!candidate && blockReason)
    throw blockedError(state.provider, `Gemini blocked the prompt (${blockReason}).`);
  state.usage = readUsage(chunk) ?? state.usage;
  for (const part of arrayAt(recordAt(candidate, 'content'), 'parts')) {
    const call = recordAt(part, 'functionCall');
    if (call) {
      state.parts.push({ kind: 'call', start: state.text.length, text: '' });
      yield* callParts(call, stringAt(part, 'thoughtSignature'), state);
      continue;
    }
    const code = recordAt(part, 'executableCode');
    if (code) {
      yield* executableCodeParts(code, state);
      continue;
    }
    const result = recordAt(part, 'codeExecutionResult');
    if (result) {
      yield* executionResultParts(result, state);
      continue;
    }
    if (recordAt(part, 'inlineData')) {
      yield* inlineDataParts(part, state);
      continue;
    }
    // Server-side tool invocations (`toolCall`, `toolResponse`) are not shown: grounding says it all.
    const text = stringAt(part, 'text');
    if (!text) continue;
    const thought = fieldAt(part, 'thought') === true;
    addText(state, thought ? 'thought' : 'text', text);
    yield thought ? { type: 'reasoning-delta', text } : { type: 'text-delta', text };
  }
  const grounding = recordAt(candidate, 'groundingMetadata');
  if (grounding) yield* groundingParts(grounding, state);
  const reason = stringAt(candidate, 'finishReason');
  if (reason === undefined) return;
  state.rawReason = reason;
  if (blockingFinishReasons.has(reason))
    throw blockedError(state.provider, `Gemini stopped the reply (${reason}).`);
}

/**
 * A call arrives whole, in one part: its id (made up when absent), and the signature on its part,
 * kept for this provider and model.
 */
function callParts(call: unknown, signature: string | undefined, state: ReplyState): StreamPart[] {
  const id = stringAt(call, 'id') || newCallId(state.calls);
  state.calls += 1;
  const args = JSON.stringify(recordAt(call, 'args') ?? {});
  const providerData: ProviderData | undefined = signature
    ? { provider: state.provider, model: state.model, data: { thoughtSignature: signature } }
    : undefined;
  return wholeCall(id, stringAt(call, 'name') ?? '', args, providerData);
}

function finishPart(state: ReplyState): FinishPart {
  const reason = mapGeminiFinishReason(state.rawReason);
  return {
    type: 'finish',
    reason: reason === 'stop' && state.calls > 0 ? 'tool-calls' : reason,
    rawReason: state.rawReason,
    usage: state.usage,
  };
}

function createGeminiDecoder(request: HttpRequest, model: string, draws: boolean): StreamDecoder {
  const state = replyState(request.provider, model, draws);
  return {
    *decode(event) {
      yield* chunkParts(parseEventJson(request, event.data), state);
      // Gemini sends no end marker: the reply ends with the body.
      return false;
    },
    finish: () => (state.rawReason === undefined ? undefined : finishPart(state)),
  };
}

function decodeGeminiReply(json: unknown, provider: ProviderId, model: string, draws: boolean): StreamPart[] {
  const state = replyState(provider, model, draws);
  return [...chunkParts(json, state), finishPart(state)];
}

async function* withNotices(
  texts: readonly string[],
  parts: AsyncIterable<StreamPart>,
): AsyncGenerator<StreamPart> {
  for (const text of texts) yield { type: 'notice', text };
  yield* parts;
}

function modelId(model: string | undefined): string {
  return (model ?? '').replace(/^models\//, '');
}

export function createGeminiProvider(
  definition: ProviderDefinition,
  connection: Config,
  fetch: typeof globalThis.fetch,
): ChatProvider {
  const { api } = definition;
  if (api.kind !== 'gemini') throw new Error(`${definition.label} does not speak the Gemini API`);
  const base = resolveBase(connection.baseUrl, api.host);
  // Only these two headers: Google's CORS preflight refuses any header outside a short allow-list.
  const target = {
    provider: definition.id,
    fetch,
    headers: { 'x-goog-api-key': connection.apiKey, 'content-type': 'application/json' },
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
      const model = modelId(config.model);
      const tools = offeredTools(requested);
      // Function tools win over the search and code execution where the model cannot have both
      // (the reply says so).
      const combines = combinesSearchWithFunctions.test(model);
      const searches = webSearch && (!tools || combines);
      const runsCode = codeExecution && (!tools || combines);
      const toolList = [
        ...(tools ? geminiTools(tools) : []),
        ...(searches ? [{ googleSearch: {} }] : []),
        ...(runsCode ? [{ codeExecution: {} }] : []),
      ];
      const system = messages.find(({ role }) => role === 'system')?.content ?? '';
      const stopSequences = config.stop?.filter((sequence) => sequence !== '') ?? [];
      const capabilities = capabilitiesOf(config);
      const thinking = thinkingConfig(capabilities, effort);
      // An image model draws in every reply: it is always asked for pictures besides text.
      const draws = capabilities.imageOutput === 'auto';
      const body = {
        contents: geminiContents(messages, { provider: definition.id, model }, capabilities.rejectsPrefill),
        ...(system.trim() ? { systemInstruction: { parts: [{ text: system }] } } : {}),
        // Only with tools; the calling mode stays the default, AUTO.
        ...(toolList.length > 0 && { tools: toolList }),
        ...((searches || runsCode) && tools && { toolConfig: { includeServerSideToolInvocations: true } }),
        generationConfig: {
          ...(!capabilities.rejects.includes('temperature') && { temperature: config.temperature }),
          ...(!capabilities.rejects.includes('topK') && { topK: config.topK }),
          ...(!capabilities.rejects.includes('topP') && { topP: config.topP }),
          maxOutputTokens: config.maxTokens,
          ...(stopSequences.length > 0 ? { stopSequences } : {}),
          ...(thinking && { thinkingConfig: thinking }),
          ...(draws && { responseModalities: ['TEXT', 'IMAGE'] }),
        },
      };
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      const request = {
        ...target,
        url: `${base}/v1beta/models/${encodeURIComponent(model)}:${method}`,
        signal,
      };
      const reply = runChat({
        ...request,
        body,
        stream,
        createDecoder: () => createGeminiDecoder(request, model, draws),
        decodeReply: (json) => decodeGeminiReply(json, definition.id, model, draws),
      });
      const notices = [
        ...(webSearch && !searches ? [searchLeftOutNotice] : []),
        ...(codeExecution && !runsCode ? [codeLeftOutNotice] : []),
      ];
      return notices.length > 0 ? withNotices(notices, reply) : reply;
    },
    async listModels(signal) {
      const json = await getJson({ ...target, url: `${base}/v1beta/models?pageSize=1000`, signal });
      return arrayAt(json, 'models').flatMap((model): ListedModel[] => {
        const id = (stringAt(model, 'name') ?? '').replace(/^models\//, '');
        if (!id || !arrayAt(model, 'supportedGenerationMethods').includes('generateContent')) return [];
        const thinking = fieldAt(model, 'thinking');
        const capabilities = definedOnly({
          contextWindow: countAt(model, 'inputTokenLimit'),
          maxOutput: countAt(model, 'outputTokenLimit'),
          reasoning: typeof thinking === 'boolean' ? thinking : undefined,
        });
        return [{ id, capabilities }];
      });
    },
  };
}
