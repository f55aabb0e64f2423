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
import { arrayAt, countAt, definedOnly, fieldAt, numberAt, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { withParameterRetry } from './parameter-retry.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { ChatFile, ChatMessage, ChatProvider, ListedModel, StreamPart } from './types.ts';

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
function fileBlock(file: ChatFile): unknown {
  const source = { type: 'base64', media_type: file.mimeType, data: file.data };
  return file.kind === 'image' ? { type: 'image', source } : { type: 'document', source, title: file.name };
}

/**
 * The Messages API takes the system prompt as a top-level field, rejects empty or whitespace-only
 * content, and expects the conversation to open with a user turn. With thinking on, an assistant
 * turn carries its signed thinking blocks before its text (with it off they would be a 400).
 */
function anthropicMessages(messages: readonly ChatMessage[], thinking: boolean) {
  const turns = messages
    .filter(({ role, content, files }) => role !== 'system' && (content.trim() !== '' || files?.length))
    .map((message) => {
      const blocks =
        thinking && message.role === 'assistant'
          ? thinkingBlocks(message)
          : (message.files ?? []).map(fileBlock);
      if (blocks.length === 0) return { role: message.role, content: message.content };
      const text = message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }];
      return { role: message.role, content: [...blocks, ...text] };
    });
  const firstUser = turns.findIndex(({ role }) => role === 'user');
  return firstUser > 0 ? turns.slice(firstUser) : turns;
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
  return messages.reduce((sum, message) => sum + message.content.length, 0);
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
  const result: Usage = { inputTokens: input, outputTokens: output };
  if (reasoning) result.reasoningTokens = reasoning;
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  if (input !== undefined && output !== undefined) result.totalTokens = input + output;
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

function createMessagesDecoder(request: HttpRequest): StreamDecoder {
  let rawReason: string | undefined;
  let usage: Usage = {};
  let stopped = false;
  return {
    *decode(event) {
      const data = parseEventJson(request, event.data);
      switch (event.event ?? stringAt(data, 'type')) {
        case 'message_start':
          usage = readUsage(recordAt(recordAt(data, 'message'), 'usage'), usage);
          break;
        case 'content_block_start':
          yield* blockParts(recordAt(data, 'content_block'));
          break;
        case 'content_block_delta': {
          const delta = recordAt(data, 'delta');
          const type = stringAt(delta, 'type');
          const text = stringAt(delta, type === 'thinking_delta' ? 'thinking' : 'text');
          if (type === 'text_delta' && text) yield { type: 'text-delta', text };
          if (type === 'thinking_delta' && text) yield { type: 'reasoning-delta', text };
          // The signature arrives just before the thinking block stops: it closes the block.
          if (type === 'signature_delta')
            yield { type: 'reasoning-end', signature: stringAt(delta, 'signature') };
          break;
        }
        case 'message_delta':
          rawReason = stringAt(recordAt(data, 'delta'), 'stop_reason') ?? rawReason;
          usage = readUsage(recordAt(data, 'usage'), usage);
          break;
        case 'message_stop':
          stopped = true;
          return true;
        case 'error':
          throw errorFromPayload(request.provider, data);
        default:
        // ping, content_block_stop and event types added later carry no text.
      }
      return false;
    },
    finish: () => (stopped || rawReason !== undefined ? finishPart(rawReason, usage) : undefined),
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

function decodeMessagesReply(json: unknown): StreamPart[] {
  const parts = arrayAt(json, 'content').flatMap((block) => [...blockParts(block)]);
  return [...parts, finishPart(stringAt(json, 'stop_reason'), readUsage(recordAt(json, 'usage')))];
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
    chat({ messages, settings, effort, signal, stream = true }) {
      const config: Config = { ...connection, ...settings };
      const system = messages.find(({ role }) => role === 'system')?.content ?? '';
      const capabilities = capabilitiesOf(config);
      const { rejects } = capabilities;
      const thinking = thinkingFields(config, capabilities, effort);
      const thinkingOn = thinking !== undefined && thinking.thinking.type !== 'disabled';
      // With thinking on, temperature, top_p and top_k are refused (docs/providers.md#anthropic-thinking).
      const sendsTemperature = !rejects.includes('temperature') && !thinkingOn;
      const request = { ...target, url: `${base}/v1/messages`, signal };
      return withParameterRetry({
        modelKey: `${definition.id}|${base}|${config.model ?? ''}`,
        droppable: ['temperature'],
        call: (leftOut) =>
          runChat({
            ...request,
            body: {
              model: config.model,
              max_tokens: config.maxTokens,
              // The app's slider goes to 2 (the OpenAI range); Anthropic accepts 0 to 1 and rejects more.
              ...(sendsTemperature &&
                !leftOut.has('temperature') && { temperature: Math.min(1, Math.max(0, config.temperature)) }),
              // Omitted when empty: an empty system prompt means none, and omitting it is always accepted.
              ...(system.trim() ? { system } : {}),
              messages: anthropicMessages(messages, thinkingOn),
              stream,
              ...thinking,
              // Long chats cost less: the conversation so far is read from Claude's prompt cache.
              ...(promptChars(messages) >= cacheWorthChars && { cache_control: { type: 'ephemeral' } }),
              // Never top_p: newer models reject temperature and top_p together.
            },
            stream,
            createDecoder: () => createMessagesDecoder(request),
            decodeReply: decodeMessagesReply,
          }),
      });
    },
    async listModels(signal) {
      const json = await getJson({ ...target, url: `${base}/v1/models?limit=1000`, signal });
      return arrayAt(json, 'data').flatMap(listedModel);
    },
  };
}
