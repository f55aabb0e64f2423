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
import { isRecord } from '../domain/json-guards.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { withParameterRetry } from './parameter-retry.ts';
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
function fileBlock(file: ChatFile): unknown {
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

function hasContent({ content, files, toolCalls, toolResults }: ChatMessage): boolean {
  return content.trim() !== '' || Boolean(files?.length || toolCalls?.length || toolResults?.length);
}

/**
 * The Messages API takes the system prompt as a top-level field, rejects empty or whitespace-only
 * content, and expects the conversation to open with a user turn. With thinking on, an assistant
 * turn carries its signed thinking blocks before its text (with it off they would be a 400), and
 * its `tool_use` blocks after it; the results follow as a user turn of `tool_result` blocks.
 */
function anthropicMessages(messages: readonly ChatMessage[], thinking: boolean) {
  const kept = messages.filter((message) => message.role !== 'system' && hasContent(message));
  // A history that opens with results or the assistant starts at its first user turn.
  const firstUser = kept.findIndex(({ role }) => role === 'user');
  return kept.slice(Math.max(firstUser, 0)).map((message) => {
    if (message.role === 'tool')
      return { role: 'user', content: (message.toolResults ?? []).map(toolResultBlock) };
    const assistant = message.role === 'assistant';
    const blocks = thinking && assistant ? thinkingBlocks(message) : (message.files ?? []).map(fileBlock);
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

/** A `tool_use` block as it streams: its id, and its input's JSON text so far. */
interface StreamedToolUse {
  id: string;
  json: string;
  /** The input the block started with: a proxy may send it whole there, with no deltas. */
  input: unknown;
}

function createMessagesDecoder(request: HttpRequest): StreamDecoder {
  let rawReason: string | undefined;
  let usage: Usage = {};
  let stopped = false;
  const toolUses = new Map<number, StreamedToolUse>();
  return {
    *decode(event) {
      const data = parseEventJson(request, event.data);
      const index = numberAt(data, 'index') ?? -1;
      switch (event.event ?? stringAt(data, 'type')) {
        case 'message_start':
          usage = readUsage(recordAt(recordAt(data, 'message'), 'usage'), usage);
          break;
        case 'content_block_start': {
          const block = recordAt(data, 'content_block');
          if (stringAt(block, 'type') === 'tool_use') {
            const id = stringAt(block, 'id') ?? '';
            toolUses.set(index, { id, json: '', input: fieldAt(block, 'input') });
            yield { type: 'tool-call-start', callId: id, name: stringAt(block, 'name') ?? '' };
          } else yield* blockParts(block);
          break;
        }
        case 'content_block_delta': {
          const delta = recordAt(data, 'delta');
          const type = stringAt(delta, 'type');
          const text = stringAt(delta, type === 'thinking_delta' ? 'thinking' : 'text');
          if (type === 'text_delta' && text) yield { type: 'text-delta', text };
          if (type === 'thinking_delta' && text) yield { type: 'reasoning-delta', text };
          // The signature arrives just before the thinking block stops: it closes the block.
          if (type === 'signature_delta')
            yield { type: 'reasoning-end', signature: stringAt(delta, 'signature') };
          const json = type === 'input_json_delta' ? stringAt(delta, 'partial_json') : undefined;
          const toolUse = toolUses.get(index);
          if (toolUse && json) {
            toolUse.json += json;
            yield { type: 'tool-call-delta', callId: toolUse.id, delta: json };
          }
          break;
        }
        case 'content_block_stop': {
          // The joined partial JSON is the input; none at all is `{}`.
          const toolUse = toolUses.get(index);
          if (!toolUse) break;
          toolUses.delete(index);
          const whole = toolUse.json === '' && isRecord(toolUse.input) ? JSON.stringify(toolUse.input) : '';
          yield {
            type: 'tool-call-end',
            callId: toolUse.id,
            arguments: wholeArguments(toolUse.json || whole),
          };
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
        // ping and event types added later carry no text.
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
  const parts = arrayAt(json, 'content').flatMap((block) =>
    stringAt(block, 'type') === 'tool_use'
      ? wholeCall(
          stringAt(block, 'id') ?? '',
          stringAt(block, 'name') ?? '',
          JSON.stringify(recordAt(block, 'input') ?? {}),
        )
      : [...blockParts(block)],
  );
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
    chat({ messages, settings, effort, signal, stream = true, tools: requested }) {
      const config: Config = { ...connection, ...settings };
      const system = messages.find(({ role }) => role === 'system')?.content ?? '';
      const capabilities = capabilitiesOf(config);
      const { rejects } = capabilities;
      const tools = offeredTools(requested);
      // A loop answering calls that carry no signed thinking (another model's) cannot think this step.
      const thinking = thinkingFields(config, capabilities, answersUnsignedCalls(messages) ? 'off' : effort);
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
              // Only with tools; tool_choice stays the default, auto (thinking refuses any other).
              ...(tools && { tools: anthropicTools(tools) }),
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
