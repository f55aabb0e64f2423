import type { ProviderId } from '../domain/config.ts';
import { browserModelId } from '../domain/provider-definitions/device.ts';
import type { ProviderDefinition } from '../domain/provider-definitions/definition.ts';
import type { Usage } from '../domain/reply-stats.ts';
import { blobOfBase64 } from '../lib/base64.ts';
import {
  languageModelOf,
  sessionOptions,
  usedTokens,
  windowTokens,
  type LanguageModelContentPart,
  type LanguageModelMessage,
  type LanguageModelPrompt,
  type LanguageModelSession,
  type LanguageModelStatic,
} from './language-model-api.ts';
import { abortFailure, errorName, ProviderError } from './provider-error.ts';
import type { ChatFile, ChatMessage, ChatProvider, ListedModel, StreamPart } from './types.ts';

/** What the messages name the model by where a timeout is reported. */
const modelName = "the browser's model";

const absentMessage =
  'On this device is not available in this browser: it has no built-in model (the Prompt API). Choose another provider in Settings.';
const unavailableMessage =
  "The browser's model is not available on this device: the hardware does not meet the model's needs, or the browser has turned it off.";
const notDownloadedMessage =
  "The browser's model is not downloaded yet: in Settings, choose On this device and press Download.";
const noImagesMessage =
  "The browser's model does not take images here: remove them from the message, or choose another provider.";
const lostSessionMessage = "The browser's model session was lost before the reply finished: try again.";
const refusedMessage =
  'The browser did not let this page use its model: it may be turned off by a policy or in its settings, or the model still needs its Download in Settings.';
const overflowNotice =
  "The conversation outgrew the model's context window: the model no longer saw its oldest messages.";

function quotaMessage(error: unknown, contextWindow: number | undefined): string {
  const { quota, requested } = (error ?? {}) as { quota?: unknown; requested?: unknown };
  const limit = typeof quota === 'number' && Number.isFinite(quota) ? quota : contextWindow;
  const count = new Intl.NumberFormat('en-US');
  const window = limit === undefined ? '' : ` of ${count.format(limit)} tokens`;
  const needs = typeof requested === 'number' && Number.isFinite(requested);
  const needed = needs ? ` (it needs ${count.format(requested)})` : '';
  return `The conversation is longer than the model's context window${window}${needed}: start a new conversation, or shorten this one.`;
}

/** A failure of the Prompt API (a DOMException by its name) as the app's ProviderError. */
export function browserModelError(
  provider: ProviderId,
  error: unknown,
  signal?: AbortSignal,
  contextWindow?: number,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted) return abortFailure(provider, modelName, signal);
  const name = errorName(error);
  const own = error instanceof Error && error.message ? error.message : String(error);
  const failure = (kind: ProviderError['kind'], message: string) =>
    new ProviderError({ provider, kind, message }, { cause: error });
  switch (name) {
    case 'AbortError':
      return failure('aborted', 'Request stopped.');
    case 'QuotaExceededError':
      return failure('invalid-request', quotaMessage(error, contextWindow));
    case 'NotSupportedError':
      return failure('invalid-request', `The browser's model cannot take this request: ${own}`);
    case 'InvalidStateError':
      return failure('server', lostSessionMessage);
    case 'NotAllowedError':
      return failure('permission', refusedMessage);
    default:
      return failure('server', `The browser's model failed: ${own}`);
  }
}

function fileParts(files: readonly ChatFile[] | undefined): LanguageModelContentPart[] {
  // PDFs reach this client as text (the model takes no PDFs); only images are files here.
  return (files ?? [])
    .filter((file) => file.kind === 'image')
    .map((file) => ({ type: 'image', value: blobOfBase64(file.data, file.mimeType) }));
}

/** A turn's content: its text, or its images then its text when it has any. */
function contentOf(message: ChatMessage): LanguageModelMessage['content'] {
  const images = fileParts(message.files);
  if (images.length === 0) return message.content;
  return message.content.trim() === '' ? images : [...images, { type: 'text', value: message.content }];
}

/** A turn of tool results (from another provider's reply) as the plain text this model reads. */
function resultsText(message: ChatMessage): string {
  const results = message.toolResults ?? [];
  if (results.length === 0) return message.content;
  return results.map(({ name, content }) => `Result of ${name}: ${content}`).join('\n\n');
}

export interface BrowserPrompts {
  /** The system prompt first (the API takes one, only there), then the history before the question. */
  initialPrompts: LanguageModelMessage[];
  /** The last user turn. */
  prompt: LanguageModelPrompt;
  /** Whether any turn carries an image (the session must then expect them). */
  images: boolean;
}

/**
 * The conversation as the Prompt API takes it: every system message joined into the one system
 * prompt that opens the initial prompts, the turns before the last user turn after it, and that
 * turn as the prompt. What follows the last user turn (a reply being continued) is left out: the
 * API has no prefill on the web, so the model answers the question afresh.
 */
export function browserPrompts(messages: readonly ChatMessage[]): BrowserPrompts {
  const system = messages
    .filter(({ role }) => role === 'system')
    .map(({ content }) => content)
    .filter((content) => content.trim() !== '')
    .join('\n\n');
  const turns: LanguageModelMessage[] = messages
    .filter(({ role }) => role !== 'system')
    .map((message): LanguageModelMessage =>
      message.role === 'assistant'
        ? { role: 'assistant', content: message.content }
        : { role: 'user', content: message.role === 'tool' ? resultsText(message) : contentOf(message) },
    )
    .filter(({ content }) => content.length > 0);
  const last = turns.findLastIndex(({ role }) => role === 'user');
  const question = turns[last];
  const initialPrompts: LanguageModelMessage[] = [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    ...turns.slice(0, Math.max(last, 0)),
  ];
  const prompt: LanguageModelPrompt = !question
    ? ''
    : typeof question.content === 'string'
      ? question.content
      : [question];
  const images = turns.some(({ content }) => typeof content !== 'string');
  return { initialPrompts, prompt, images };
}

/** The stream's chunks (each a delta); an abort cancels the read at once. */
async function* chunksOf(stream: ReadableStream<string>, signal: AbortSignal | undefined) {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as `done`: the abort is the reason, not the end of the reply.
      if (signal?.aborted) throw signal.reason;
      if (done) return;
      if (typeof value === 'string' && value !== '') yield value;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

/** Tokens a prompt will take, where the session can say; never fails the reply. */
async function measured(session: LanguageModelSession, prompt: LanguageModelPrompt, signal?: AbortSignal) {
  const measure = session.measureContextUsage ?? session.measureInputUsage;
  if (!measure) return undefined;
  try {
    const tokens = await measure.call(session, prompt, { signal });
    return Number.isFinite(tokens) ? tokens : undefined;
  } catch (error) {
    // Too large to measure is too large to send: that is the error to report.
    if (errorName(error) === 'QuotaExceededError' || signal?.aborted) throw error;
    return undefined;
  }
}

/**
 * The reply's figures from the session's own counts: input is what the session held before the
 * reply (the initial prompts and the question), output what the reply added.
 */
function usageOf(
  before: number | undefined,
  question: number | undefined,
  after: number | undefined,
): Usage | undefined {
  if (before === undefined || after === undefined) return undefined;
  if (question === undefined) return { totalTokens: after };
  const inputTokens = before + question;
  return { inputTokens, outputTokens: Math.max(0, after - inputTokens), totalTokens: after };
}

/** Checks that the model can answer now; the sentences say what to do instead. */
async function readyModel(provider: ProviderId, images: boolean): Promise<LanguageModelStatic> {
  const api = languageModelOf();
  if (!api) throw new ProviderError({ provider, kind: 'not-found', message: absentMessage });
  const availability = await api.availability(sessionOptions(images));
  if (availability === 'available') return api;
  if (availability === 'unavailable') {
    // Images may be what it cannot take: asked again without them, the text model may be there.
    const text = images ? await api.availability(sessionOptions(false)) : 'unavailable';
    const message = text === 'unavailable' ? unavailableMessage : noImagesMessage;
    throw new ProviderError({
      provider,
      kind: text === 'unavailable' ? 'not-found' : 'invalid-request',
      message,
    });
  }
  // Creating a session now would start the download without the user's click.
  throw new ProviderError({ provider, kind: 'not-found', message: notDownloadedMessage });
}

/**
 * The client of the browser's own model: a session per reply, made from the conversation (the
 * app keeps no session between turns), then the question streamed; the session is destroyed at
 * the end, also after a failure or a stop.
 */
export function createBrowserModelProvider(definition: ProviderDefinition): ChatProvider {
  // The connection has nothing to set (no key, no address, no sampling the web API takes): the
  // registry's configuration and fetch go unused.
  const provider = definition.id;

  async function* chat({
    messages,
    signal,
    stream = true,
  }: Parameters<ChatProvider['chat']>[0]): AsyncGenerator<StreamPart> {
    if (signal?.aborted) throw abortFailure(provider, modelName, signal);
    const { initialPrompts, prompt, images } = browserPrompts(messages);
    let session: LanguageModelSession | undefined;
    let contextWindow: number | undefined;
    try {
      const api = await readyModel(provider, images);
      session = await api.create({ ...sessionOptions(images), initialPrompts, signal });
      contextWindow = windowTokens(session);
      const before = usedTokens(session);
      const question = await measured(session, prompt, signal);
      let overflowed = false;
      const overflow = () => (overflowed = true);
      session.addEventListener('contextoverflow', overflow);
      // Earlier releases' name for it.
      session.addEventListener('quotaoverflow', overflow);
      let whole = '';
      for await (const delta of chunksOf(session.promptStreaming(prompt, { signal }), signal)) {
        if (stream) yield { type: 'text-delta', text: delta };
        else whole += delta;
      }
      if (!stream && whole) yield { type: 'text-delta', text: whole };
      if (overflowed) yield { type: 'notice', text: overflowNotice };
      const usage = usageOf(before, question, usedTokens(session));
      yield { type: 'finish', reason: 'stop', ...(usage && { usage }) };
    } catch (error) {
      throw browserModelError(provider, error, signal, contextWindow);
    } finally {
      session?.destroy();
    }
  }

  /**
   * The one model, with what the browser says of it: its context window (read from a session,
   * made only when the model is there: a download waits for the user's click) and whether it
   * takes images.
   */
  async function listModels(signal?: AbortSignal): Promise<ListedModel[]> {
    const api = languageModelOf();
    if (!api) throw new ProviderError({ provider, kind: 'not-found', message: absentMessage });
    try {
      if ((await api.availability(sessionOptions(false))) !== 'available')
        return [{ id: browserModelId, capabilities: {} }];
      const images = await api.availability(sessionOptions(true)).then(
        (availability) => availability === 'available',
        () => false,
      );
      const session = await api.create({ ...sessionOptions(false), signal });
      const contextWindow = windowTokens(session);
      session.destroy();
      return [{ id: browserModelId, capabilities: { images, ...(contextWindow && { contextWindow }) } }];
    } catch (error) {
      throw browserModelError(provider, error, signal);
    }
  }

  return { id: provider, chat, listModels };
}
