import type {
  LanguageModelAvailability,
  LanguageModelCreateOptions,
  LanguageModelPrompt,
} from '../language-model-api.ts';

/**
 * A scripted stand-in for the Prompt API's `LanguageModel`, for node: what `availability` answers
 * (per input kind), the reply's deltas, where it fails, and a token count of one per word (an
 * image counts 10), so that usage figures can be checked to the token.
 */
export interface LanguageModelScript {
  availability?: { text?: LanguageModelAvailability; image?: LanguageModelAvailability };
  /** The reply's chunks, each a delta. */
  chunks?: string[];
  /** After this many chunks the stream waits until it is aborted. */
  holdAfter?: number;
  /** The stream fails with this after its chunks. */
  streamError?: unknown;
  /** `create` fails with this. */
  createError?: unknown;
  contextWindow?: number;
  /** Left out: an older Chrome's session without `measureContextUsage`. */
  noMeasure?: boolean;
  /** The session fires `contextoverflow` during the reply. */
  overflow?: boolean;
  /** What a `create` that downloads reports to its monitor, in order; the model is then available. */
  progress?: number[];
}

export interface FakeLanguageModel {
  /** Every `create` call's options, in order. */
  creates: LanguageModelCreateOptions[];
  /** Every prompt given to `promptStreaming`. */
  prompts: LanguageModelPrompt[];
  /** How many sessions were destroyed. */
  destroyed(): number;
  api: unknown;
}

/** A DOMException with the Prompt API's name, and the quota figures a QuotaExceededError carries. */
export function domError(name: string, message: string, extra: object = {}): DOMException {
  return Object.assign(new DOMException(message, name), extra);
}

function tokensOf(input: LanguageModelPrompt | { content: unknown }[]): number {
  const count = (content: unknown): number => {
    if (typeof content === 'string') return content.split(/\s+/).filter(Boolean).length;
    if (Array.isArray(content))
      return content.reduce<number>(
        (sum, part: { type?: string; value?: unknown; content?: unknown }) =>
          sum + (part.type === 'image' ? 10 : count(part.value ?? part.content)),
        0,
      );
    return 0;
  };
  return count(input);
}

export function fakeLanguageModel(script: LanguageModelScript = {}): FakeLanguageModel {
  const creates: LanguageModelCreateOptions[] = [];
  const prompts: LanguageModelPrompt[] = [];
  let destroyed = 0;
  const contextWindow = script.contextWindow ?? 1000;
  let text = script.availability?.text ?? 'available';

  class Session extends EventTarget {
    contextUsage: number;
    readonly contextWindow = contextWindow;
    measureContextUsage?: (input: LanguageModelPrompt) => Promise<number>;
    private gone = false;

    constructor(options: LanguageModelCreateOptions) {
      super();
      this.contextUsage = tokensOf(options.initialPrompts ?? []);
      if (!script.noMeasure) this.measureContextUsage = (input) => Promise.resolve(tokensOf(input));
    }

    promptStreaming(input: LanguageModelPrompt, { signal }: { signal?: AbortSignal } = {}) {
      if (this.gone) throw domError('InvalidStateError', 'The session was destroyed.');
      prompts.push(input);
      this.contextUsage += tokensOf(input);
      const chunks = [...(script.chunks ?? [])];
      let sent = 0;
      const spend = (count: number) => (this.contextUsage += count);
      const overflow = () => this.dispatchEvent(new Event('contextoverflow'));
      return new ReadableStream<string>({
        start(controller) {
          signal?.addEventListener('abort', () => controller.error(domError('AbortError', 'Aborted')));
        },
        async pull(controller) {
          if (script.holdAfter !== undefined && sent >= script.holdAfter)
            return new Promise<void>(() => undefined);
          const chunk = chunks.shift();
          if (chunk === undefined) {
            if (script.overflow) overflow();
            if (script.streamError) controller.error(script.streamError);
            else controller.close();
            return;
          }
          sent += 1;
          spend(tokensOf(chunk));
          await Promise.resolve();
          controller.enqueue(chunk);
        },
      });
    }

    destroy() {
      if (!this.gone) destroyed += 1;
      this.gone = true;
    }
  }

  const api = {
    availability(options: LanguageModelCreateOptions = {}) {
      const images = options.expectedInputs?.some(({ type }) => type === 'image');
      return Promise.resolve(images ? (script.availability?.image ?? 'unavailable') : text);
    },
    async create(options: LanguageModelCreateOptions = {}) {
      creates.push(options);
      if (options.signal?.aborted) throw domError('AbortError', 'Aborted');
      if (script.createError) throw script.createError;
      if (text !== 'available') {
        // As the browser does: the download reports to the monitor, then the model is there.
        const monitor = new EventTarget();
        options.monitor?.(monitor as never);
        for (const loaded of script.progress ?? []) {
          await Promise.resolve();
          monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
        }
        text = 'available';
      }
      return new Session(options);
    },
  };
  return { creates, prompts, destroyed: () => destroyed, api };
}
