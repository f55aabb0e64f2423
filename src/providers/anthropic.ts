import type { Config } from '../domain/config.ts';
import { capabilitiesOf } from '../domain/provider-catalog.ts';
import type { ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { errorFromPayload } from './error-mapping.ts';
import { getJson, resolveBase, type HttpRequest } from './http.ts';
import { arrayAt, countAt, definedOnly, numberAt, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { withParameterRetry } from './parameter-retry.ts';
import type { ChatMessage, ChatProvider, FinishReason, ListedModel, StreamPart, Usage } from './types.ts';

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

/**
 * The Messages API takes the system prompt as a top-level field, rejects empty or whitespace-only
 * content, and expects the conversation to open with a user turn.
 */
function anthropicMessages(messages: readonly ChatMessage[]): { role: string; content: string }[] {
  const turns = messages
    .filter(({ role, content }) => role !== 'system' && content.trim() !== '')
    .map(({ role, content }) => ({ role, content }));
  const firstUser = turns.findIndex(({ role }) => role === 'user');
  return firstUser > 0 ? turns.slice(firstUser) : turns;
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
  const result: Usage = { inputTokens: input, outputTokens: output };
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  if (input !== undefined && output !== undefined) result.totalTokens = input + output;
  return result;
}

function finishPart(rawReason: string | undefined, usage: Usage): FinishPart {
  return { type: 'finish', reason: mapAnthropicStopReason(rawReason), rawReason, usage };
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
        case 'content_block_start': {
          const block = recordAt(data, 'content_block');
          const text = stringAt(block, 'type') === 'text' ? stringAt(block, 'text') : undefined;
          if (text) yield { type: 'text-delta', text };
          break;
        }
        case 'content_block_delta': {
          // Thinking and signature deltas are not part of the reply text.
          const delta = recordAt(data, 'delta');
          const text = stringAt(delta, 'type') === 'text_delta' ? stringAt(delta, 'text') : undefined;
          if (text) yield { type: 'text-delta', text };
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
  const value = recordAt(capabilities, key)?.supported;
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
  const text = arrayAt(json, 'content')
    .filter((block) => stringAt(block, 'type') === 'text')
    .map((block) => stringAt(block, 'text') ?? '')
    .join('');
  const finish = finishPart(stringAt(json, 'stop_reason'), readUsage(recordAt(json, 'usage')));
  return text ? [{ type: 'text-delta', text }, finish] : [finish];
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
      'anthropic-version': '2023-06-01',
      // Without it Anthropic refuses every request that carries an Origin (every browser request).
      'anthropic-dangerous-direct-browser-access': 'true',
      'content-type': 'application/json',
    },
  };
  return {
    id: definition.id,
    chat({ messages, settings, signal, stream = true }) {
      const config: Config = { ...connection, ...settings };
      const system = messages.find(({ role }) => role === 'system')?.content ?? '';
      const { rejects } = capabilitiesOf(config);
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
              ...(!rejects.includes('temperature') &&
                !leftOut.has('temperature') && { temperature: Math.min(1, Math.max(0, config.temperature)) }),
              // Omitted when empty: an empty system prompt means none, and omitting it is always accepted.
              ...(system.trim() ? { system } : {}),
              messages: anthropicMessages(messages),
              stream,
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
