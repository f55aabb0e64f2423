/**
 * The browser's own speech services, where it has them: recognition (Chromium's
 * webkitSpeechRecognition, Safari's SpeechRecognition) and the system's voices (speechSynthesis).
 * Neither is in TypeScript's DOM types everywhere, so the little used is described here.
 */

interface RecognitionResult {
  readonly isFinal: boolean;
  readonly 0: { readonly transcript: string };
}

interface Recognition extends EventTarget {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: { resultIndex: number; results: ArrayLike<RecognitionResult> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | undefined {
  const scope = globalThis as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

export const hasBrowserRecognition = (): boolean => recognitionConstructor() !== undefined;
export const hasBrowserVoices = (): boolean => typeof speechSynthesis !== 'undefined';

/** Why the browser's recognition stopped, in one sentence. */
function recognitionProblem(error: string): string {
  switch (error) {
    case 'not-allowed':
    case 'service-not-allowed':
      return 'The microphone (or the browser’s speech service) is blocked for this site: allow it in the site’s settings, then try again.';
    case 'audio-capture':
      return 'No microphone was found: connect one, then try again.';
    case 'network':
      return 'The browser’s speech recognition needs its online service, which could not be reached: choose OpenAI or Groq in Settings → Voice.';
    case 'language-not-supported':
      return 'The browser’s speech recognition does not know this language.';
    default:
      return `The browser’s speech recognition stopped (${error}).`;
  }
}

export interface BrowserRecognition {
  /** Ends listening; what was heard arrives through onEnd. */
  stop(): void;
  /** Ends listening and drops what was heard. */
  cancel(): void;
}

/**
 * Listens until stopped (or, `untilPause`, until the user pauses): `onHeard` with the text so far,
 * `onEnd` with the final text, or the problem in one sentence.
 */
export function listenWithBrowser({
  untilPause = false,
  onHeard,
  onEnd,
}: {
  untilPause?: boolean;
  onHeard(text: string): void;
  onEnd(result: { text: string } | { problem: string }): void;
}): BrowserRecognition {
  const Constructor = recognitionConstructor();
  if (!Constructor) {
    onEnd({ problem: 'This browser has no speech recognition: choose OpenAI or Groq in Settings → Voice.' });
    return { stop() {}, cancel() {} };
  }
  const recognition = new Constructor();
  recognition.continuous = !untilPause;
  recognition.interimResults = true;
  recognition.lang = navigator.language;
  let final = '';
  let interim = '';
  let problem: string | null = null;
  let cancelled = false;
  recognition.onresult = (event) => {
    interim = '';
    for (let index = event.resultIndex; index < event.results.length; index++) {
      const result = event.results[index];
      if (!result) continue;
      if (result.isFinal) final += result[0].transcript;
      else interim += result[0].transcript;
    }
    onHeard(`${final}${interim}`.trim());
  };
  recognition.onerror = (event) => {
    if (event.error !== 'aborted' && event.error !== 'no-speech') problem = recognitionProblem(event.error);
  };
  recognition.onend = () => {
    if (cancelled) return;
    onEnd(problem === null ? { text: `${final}${interim}`.trim() } : { problem });
  };
  recognition.start();
  return {
    stop: () => recognition.stop(),
    cancel() {
      cancelled = true;
      recognition.abort();
    },
  };
}

/** The system's voices, once the browser has listed them (Chromium lists them after a moment). */
export function browserVoices(): Promise<SpeechSynthesisVoice[]> {
  if (!hasBrowserVoices()) return Promise.resolve([]);
  const now = speechSynthesis.getVoices();
  if (now.length > 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => resolve(speechSynthesis.getVoices());
    speechSynthesis.addEventListener('voiceschanged', done, { once: true });
    setTimeout(done, 1000);
  });
}
