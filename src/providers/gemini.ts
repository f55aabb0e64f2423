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
import type { ChatMessage, ChatProvider, ListedModel, StreamPart } from './types.ts';

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

/**
 * Gemini's history: roles user and model only, no empty parts, and it must open with a user turn
 * (the system prompt travels as systemInstruction). Adjacent turns of one role are accepted.
 */
function geminiContents(
  messages: readonly ChatMessage[],
  rejectsPrefill = false,
): { role: string; parts: unknown[] }[] {
  const contents = messages
    .filter(({ role, content, files }) => role !== 'system' && (content.trim() !== '' || files?.length))
    .map(({ role, content, files = [] }) => ({
      role: role === 'assistant' ? 'model' : 'user',
      // Files as inline data (bare base64, no `data:` prefix), then the text.
      parts: [
        ...files.map((file) => ({ inlineData: { mimeType: file.mimeType, data: file.data } })),
        ...(content.trim() === '' ? [] : [{ text: content }]),
      ],
    }));
  const firstUser = contents.findIndex(({ role }) => role === 'user');
  // A model that refuses a prefill gets the history up to its last user turn.
  const end = rejectsPrefill ? contents.findLastIndex(({ role }) => role === 'user') + 1 : contents.length;
  return contents.slice(Math.max(firstUser, 0), end);
}

interface ReplyState {
  provider: ProviderId;
  rawReason?: string;
  usage?: Usage;
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
    const text = stringAt(part, 'text');
    if (!text) continue;
    yield fieldAt(part, 'thought') === true
      ? { type: 'reasoning-delta', text }
      : { type: 'text-delta', text };
  }
  const reason = stringAt(candidate, 'finishReason');
  if (reason === undefined) return;
  state.rawReason = reason;
  if (blockingFinishReasons.has(reason))
    throw blockedError(state.provider, `Gemini stopped the reply (${reason}).`);
}

function finishPart(state: ReplyState): FinishPart {
  return {
    type: 'finish',
    reason: mapGeminiFinishReason(state.rawReason),
    rawReason: state.rawReason,
    usage: state.usage,
  };
}

function createGeminiDecoder(request: HttpRequest): StreamDecoder {
  const state: ReplyState = { provider: request.provider };
  return {
    *decode(event) {
      yield* chunkParts(parseEventJson(request, event.data), state);
      // Gemini sends no end marker: the reply ends with the body.
      return false;
    },
    finish: () => (state.rawReason === undefined ? undefined : finishPart(state)),
  };
}

function decodeGeminiReply(json: unknown, provider: ProviderId): StreamPart[] {
  const state: ReplyState = { provider };
  return [...chunkParts(json, state), finishPart(state)];
}

function modelPath(model: string | undefined): string {
  return encodeURIComponent((model ?? '').replace(/^models\//, ''));
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
    chat({ messages, settings, effort, signal, stream = true }) {
      const config: Config = { ...connection, ...settings };
      const system = messages.find(({ role }) => role === 'system')?.content ?? '';
      const stopSequences = config.stop?.filter((sequence) => sequence !== '') ?? [];
      const capabilities = capabilitiesOf(config);
      const thinking = thinkingConfig(capabilities, effort);
      const body = {
        contents: geminiContents(messages, capabilities.rejectsPrefill),
        ...(system.trim() ? { systemInstruction: { parts: [{ text: system }] } } : {}),
        generationConfig: {
          ...(!capabilities.rejects.includes('temperature') && { temperature: config.temperature }),
          ...(!capabilities.rejects.includes('topK') && { topK: config.topK }),
          ...(!capabilities.rejects.includes('topP') && { topP: config.topP }),
          maxOutputTokens: config.maxTokens,
          ...(stopSequences.length > 0 ? { stopSequences } : {}),
          ...(thinking && { thinkingConfig: thinking }),
        },
      };
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      const request = {
        ...target,
        url: `${base}/v1beta/models/${modelPath(config.model)}:${method}`,
        signal,
      };
      return runChat({
        ...request,
        body,
        stream,
        createDecoder: () => createGeminiDecoder(request),
        decodeReply: (json) => decodeGeminiReply(json, definition.id),
      });
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
