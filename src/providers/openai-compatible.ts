import type { Config } from '../domain/config.ts';
import { capabilitiesOf, modelOf } from '../domain/provider-catalog.ts';
import type { SamplingSetting } from '../domain/provider-definitions/capabilities.ts';
import type { CompletionOption, ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import { errorFromPayload } from './error-mapping.ts';
import { getJson, resolveBase, type HttpRequest } from './http.ts';
import { arrayAt, countAt, definedOnly, numberAt, recordAt, stringAt } from './json.ts';
import { parseEventJson, runChat, type StreamDecoder } from './chat-run.ts';
import { withParameterRetry } from './parameter-retry.ts';
import { ProviderError } from './provider-error.ts';
import type { ChatMessage, ChatProvider, FinishReason, ListedModel, StreamPart, Usage } from './types.ts';

/**
 * A /models item. OpenAI and Azure report no limits; Groq reports `context_window` and
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
  });
  return [{ id, capabilities }];
}

/** The one client for every server that speaks Chat Completions: OpenAI, Azure, Groq and compatible ones. */

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
];

/**
 * The request body: the spec's fields in the spec's order, then what this server accepts of the
 * rest. What the model's capabilities reject, or a 400 refused before, is left out.
 */
function completionBody(
  api: ChatCompletionsApi,
  config: Config,
  messages: readonly ChatMessage[],
  stream: boolean,
  leftOut: ReadonlySet<string>,
) {
  const { rejects, tokenLimitField } = capabilitiesOf(config);
  const sends = (field: CompletionOption | 'temperature', setting?: SamplingSetting) =>
    (field === 'temperature' || api.sends.includes(field)) &&
    !leftOut.has(field) &&
    !(setting && rejects.includes(setting));
  const tokenField = leftOut.has('max_tokens') ? 'max_completion_tokens' : tokenLimitField;
  const stop = config.stop?.filter((sequence) => sequence !== '') ?? [];
  return {
    model: modelOf(config),
    messages: completionMessages(messages),
    ...(sends('temperature', 'temperature') && { temperature: config.temperature }),
    [tokenField]: config.maxTokens,
    ...(sends('top_p', 'topP') && { top_p: config.topP }),
    ...(sends('frequency_penalty', 'frequencyPenalty') && { frequency_penalty: config.frequencyPenalty }),
    ...(sends('presence_penalty', 'presencePenalty') && { presence_penalty: config.presencePenalty }),
    ...(sends('stop') && stop.length > 0 && { stop }),
    stream,
    ...(stream && sends('stream_options') && { stream_options: { include_usage: true } }),
  };
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
    chat({ messages, settings, signal, stream = true }) {
      const config: Config = { ...connection, ...settings };
      const request = { ...target, url: `${base}${fillPath(api.chatPath, config)}`, signal };
      return withParameterRetry({
        modelKey: `${definition.id}|${base}|${modelOf(config)}`,
        droppable,
        renamed: { max_tokens: 'max_completion_tokens' },
        call: (leftOut) =>
          runChat({
            ...request,
            body: completionBody(api, config, messages, stream, leftOut),
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
