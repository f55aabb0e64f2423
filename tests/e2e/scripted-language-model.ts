import type { Page } from '@playwright/test';

/**
 * A scripted `LanguageModel` (the Prompt API) put in the page before the app loads: Chromium
 * here has no built-in model, so the browser's own model is played by this script, as the mock
 * server plays the providers. It answers `availability` as told, downloads over time after the
 * Download click, streams its reply in deltas and honours the abort signal, and keeps what it was
 * asked (`window.__languageModel`) for the test to read.
 */
export interface LanguageModelScript {
  availability: 'unavailable' | 'downloadable' | 'downloading' | 'available';
  /** What a download reports, one value every `progressMs`; the model is then available. */
  progress?: number[];
  progressMs?: number;
  /** The reply's deltas, one every `chunkMs`. */
  reply?: string[];
  chunkMs?: number;
  /** After this many deltas the reply waits until it is stopped. */
  holdAfter?: number;
  /** `create` fails with a QuotaExceededError carrying these figures (a conversation too long). */
  quota?: { requested: number; quota: number };
  contextWindow?: number;
}

/** What the app asked of the model: each session's initial prompts and each prompt, as text. */
export interface LanguageModelRecord {
  creates: { initialPrompts: { role: string; content: unknown }[]; expectedInputs: unknown }[];
  prompts: unknown[];
  aborted: number;
}

/** Runs in the page: no imports, no closures over the test's scope. */
function install(script: LanguageModelScript): void {
  const record: LanguageModelRecord = { creates: [], prompts: [], aborted: 0 };
  Object.assign(window, { __languageModel: record });
  let availability = script.availability;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const abortError = () => new DOMException('The operation was aborted.', 'AbortError');
  // A token per word, as a rough stand-in for the model's own count.
  const tokens = (content: unknown): number =>
    typeof content === 'string'
      ? content.split(/\s+/).filter(Boolean).length
      : Array.isArray(content)
        ? content.reduce<number>(
            (sum, part: { content?: unknown; value?: unknown }) => sum + tokens(part.content ?? part.value),
            0,
          )
        : 0;

  class Session extends EventTarget {
    contextUsage: number;
    contextWindow = script.contextWindow ?? 4096;
    constructor(initialPrompts: { content: unknown }[]) {
      super();
      this.contextUsage = tokens(initialPrompts);
    }
    measureContextUsage(input: unknown) {
      return Promise.resolve(tokens(input));
    }
    promptStreaming(input: unknown, options: { signal?: AbortSignal } = {}) {
      record.prompts.push(input);
      this.contextUsage += tokens(input);
      const chunks = [...(script.reply ?? [])];
      let sent = 0;
      const spend = (count: number) => (this.contextUsage += count);
      return new ReadableStream<string>({
        start(controller) {
          options.signal?.addEventListener('abort', () => {
            record.aborted += 1;
            controller.error(abortError());
          });
        },
        async pull(controller) {
          if (script.holdAfter !== undefined && sent >= script.holdAfter) return new Promise<void>(() => {});
          await wait(script.chunkMs ?? 50);
          if (options.signal?.aborted) return;
          const chunk = chunks.shift();
          if (chunk === undefined) return controller.close();
          sent += 1;
          spend(tokens(chunk));
          controller.enqueue(chunk);
        },
      });
    }
    destroy() {}
  }

  const LanguageModel = {
    availability: () => Promise.resolve(availability),
    async create(
      options: {
        initialPrompts?: { role: string; content: unknown }[];
        expectedInputs?: unknown;
        signal?: AbortSignal;
        monitor?: (target: EventTarget) => void;
      } = {},
    ) {
      const initialPrompts = options.initialPrompts ?? [];
      record.creates.push({ initialPrompts, expectedInputs: options.expectedInputs });
      if (options.signal?.aborted) throw abortError();
      if (availability === 'unavailable') throw new DOMException('Unavailable.', 'NotSupportedError');
      if (availability !== 'available') {
        if (!navigator.userActivation.isActive && availability === 'downloadable')
          throw new DOMException('Requires a user gesture.', 'NotAllowedError');
        availability = 'downloading';
        const monitor = new EventTarget();
        options.monitor?.(monitor);
        for (const loaded of script.progress ?? [1]) {
          await wait(script.progressMs ?? 100);
          monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
        }
        availability = 'available';
      }
      if (script.quota)
        throw Object.assign(new DOMException('The input is too large.', 'QuotaExceededError'), script.quota);
      return new Session(initialPrompts);
    },
  };
  Object.assign(window, { LanguageModel });
}

/** Puts the scripted model in the page (before its scripts run, on every load). */
export async function scriptLanguageModel(page: Page, script: LanguageModelScript): Promise<void> {
  await page.addInitScript(install, script);
}

/** What the scripted model was asked so far. */
export async function languageModelRecord(page: Page): Promise<LanguageModelRecord> {
  return page.evaluate(() => (window as unknown as { __languageModel: LanguageModelRecord }).__languageModel);
}
