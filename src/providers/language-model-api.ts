/**
 * The part of the Prompt API (`LanguageModel`, webmachinelearning.github.io/prompt-api) the app
 * uses, typed here: TypeScript's DOM library does not have it yet. Earlier Chrome releases named
 * the context figures `inputUsage`, `inputQuota` and `measureInputUsage`; both spellings are read.
 */

export type LanguageModelAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface LanguageModelExpected {
  type: 'text' | 'image' | 'audio';
  languages?: string[];
}

export type LanguageModelContentPart = { type: 'text'; value: string } | { type: 'image'; value: Blob };

export interface LanguageModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | LanguageModelContentPart[];
}

/** What `prompt`, `promptStreaming` and `measureContextUsage` take: a text, or messages. */
export type LanguageModelPrompt = string | LanguageModelMessage[];

export interface LanguageModelOptions {
  expectedInputs?: LanguageModelExpected[];
  expectedOutputs?: LanguageModelExpected[];
}

/** The monitor's target: `downloadprogress` events carry `loaded`, from 0 to 1. */
export interface CreateMonitor extends EventTarget {
  addEventListener(
    type: 'downloadprogress',
    listener: (event: Event & { loaded: number }) => void,
    options?: AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void;
}

export interface LanguageModelCreateOptions extends LanguageModelOptions {
  initialPrompts?: LanguageModelMessage[];
  monitor?(monitor: CreateMonitor): void;
  signal?: AbortSignal;
}

export interface LanguageModelSession extends EventTarget {
  promptStreaming(input: LanguageModelPrompt, options?: { signal?: AbortSignal }): ReadableStream<string>;
  measureContextUsage?(input: LanguageModelPrompt, options?: { signal?: AbortSignal }): Promise<number>;
  measureInputUsage?(input: LanguageModelPrompt, options?: { signal?: AbortSignal }): Promise<number>;
  readonly contextUsage?: number;
  readonly contextWindow?: number;
  readonly inputUsage?: number;
  readonly inputQuota?: number;
  destroy(): void;
}

export interface LanguageModelStatic {
  availability(options?: LanguageModelOptions): Promise<LanguageModelAvailability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
}

/** The browser's `LanguageModel`, or null where it has none (any browser but a capable Chrome). */
export function languageModelOf(scope: object = globalThis): LanguageModelStatic | null {
  const api = (scope as { LanguageModel?: unknown }).LanguageModel;
  const usable =
    (typeof api === 'function' || (typeof api === 'object' && api !== null)) &&
    'availability' in api &&
    'create' in api;
  return usable ? (api as LanguageModelStatic) : null;
}

/** Only text comes back: the web API writes no images or audio. */
export const textOutput: LanguageModelExpected[] = [{ type: 'text' }];

/** The options a session is asked with: text, and images where the request carries any. */
export function sessionOptions(images: boolean): LanguageModelOptions {
  return {
    expectedInputs: images ? [{ type: 'text' }, { type: 'image' }] : [{ type: 'text' }],
    expectedOutputs: textOutput,
  };
}

/** Tokens the session has used so far, by either name. */
export function usedTokens(session: LanguageModelSession): number | undefined {
  return finite(session.contextUsage ?? session.inputUsage);
}

/** The session's context window, by either name; Infinity (no limit) counts as unknown. */
export function windowTokens(session: LanguageModelSession): number | undefined {
  return finite(session.contextWindow ?? session.inputQuota);
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
