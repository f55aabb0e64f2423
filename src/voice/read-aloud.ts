import { speechChunks, spokenText } from '../domain/spoken-text.ts';
import { speakerOf, type VoiceSettings } from '../domain/voice-settings.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import { chat } from '../state/chat.ts';
import { notify } from '../state/notify.ts';
import { loadVoiceSettings } from '../storage/voice-settings-store.ts';
import { browserVoices } from './browser-speech.ts';
import { voiceConnection, voiceKeys, voiceMeans } from './voice-means.ts';
import { synthesize } from './voice-requests.ts';

/**
 * 'Read aloud': one reply at a time, in pieces (spoken-text.ts), each synthesized while the one
 * before plays, so speech starts after the first short piece, not the whole reply. The reading's
 * state is the view's (`reading`), so every reply's button shows it.
 */

interface Reading {
  messageId: string;
  pause(): void;
  resume(): void;
  stop(): void;
}

let current: Reading | null = null;

const setStatus = (messageId: string, status: 'loading' | 'playing' | 'paused' | null) => {
  if (current?.messageId !== messageId) return;
  chat.view.setState({ reading: status === null ? null : { messageId, status } });
};

export const pauseReading = () => current?.pause();
export const resumeReading = () => current?.resume();
export const stopReading = () => current?.stop();

/** A pause that playing waits on: open, or closed until resumed. */
function createGate() {
  let open = true;
  let waiters: (() => void)[] = [];
  return {
    close: () => void (open = false),
    open() {
      open = true;
      for (const waiter of waiters) waiter();
      waiters = [];
    },
    passed: () => (open ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

/** Plays the audio element's source to its end; stopping ends it early. */
function playToEnd(audio: HTMLAudioElement, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = () => {
      audio.removeEventListener('ended', finish);
      audio.removeEventListener('error', fail);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const fail = () => {
      audio.removeEventListener('ended', finish);
      signal.removeEventListener('abort', finish);
      reject(new Error(`The audio could not be played (${audio.error?.message || 'unknown format'}).`));
    };
    audio.addEventListener('ended', finish);
    audio.addEventListener('error', fail, { once: true });
    signal.addEventListener('abort', finish);
    audio.play().catch(fail);
  });
}

/** Reads `chunks` through a provider's speech service into one hidden audio element. */
async function readWithProvider(
  messageId: string,
  chunks: string[],
  speaker: 'openai' | 'gemini',
  settings: VoiceSettings,
  audio: HTMLAudioElement,
  signal: AbortSignal,
  gate: ReturnType<typeof createGate>,
): Promise<void> {
  const connection = voiceConnection(chat.store.getState(), speaker);
  if (!connection) throw new Error(`No ${speaker === 'openai' ? 'OpenAI' : 'Gemini'} key is set.`);
  // OpenAI takes the speed in the request; Gemini has none, so the element plays faster.
  audio.defaultPlaybackRate = speaker === 'gemini' ? settings.speed : 1;
  audio.addEventListener('playing', () => setStatus(messageId, 'playing'));
  document.body.append(audio);
  const fetchPiece = (text: string) => {
    const piece = synthesize(text, speaker, connection, settings, signal);
    piece.catch(() => {}); // awaited in turn; a stopped reading never awaits it
    return piece;
  };
  try {
    let next = fetchPiece(chunks[0] ?? '');
    for (let index = 0; index < chunks.length && !signal.aborted; index++) {
      const piece = await next;
      if (index + 1 < chunks.length) next = fetchPiece(chunks[index + 1] ?? '');
      await gate.passed();
      if (signal.aborted) break;
      const url = URL.createObjectURL(piece);
      audio.src = url;
      try {
        await playToEnd(audio, signal);
      } finally {
        URL.revokeObjectURL(url);
      }
    }
  } finally {
    audio.pause();
    audio.remove();
  }
}

/** Reads `chunks` with the system's voices: they queue, and the browser pauses and resumes them. */
async function readWithBrowser(
  chunks: string[],
  settings: VoiceSettings,
  signal: AbortSignal,
): Promise<void> {
  const voice = (await browserVoices()).find((candidate) => candidate.voiceURI === settings.voice.browser);
  if (signal.aborted) return;
  await new Promise<void>((resolve, reject) => {
    signal.addEventListener('abort', () => {
      speechSynthesis.cancel();
      resolve();
    });
    chunks.forEach((chunk, index) => {
      const utterance = new SpeechSynthesisUtterance(chunk);
      if (voice) utterance.voice = voice;
      utterance.rate = settings.speed;
      if (index === chunks.length - 1) utterance.onend = () => resolve();
      utterance.onerror = (event) => {
        if (event.error !== 'canceled' && event.error !== 'interrupted')
          reject(new Error(`The browser could not speak (${event.error}).`));
      };
      speechSynthesis.speak(utterance);
    });
  });
}

/**
 * Reads a reply's answer aloud (any reading before it stops); resolves when it has been read,
 * stopped or has failed (the failure said in a toast).
 */
export async function readAloud(messageId: string, markdown: string): Promise<void> {
  current?.stop();
  const settings = loadVoiceSettings();
  const speaker = speakerOf(settings, voiceMeans(voiceKeys(chat.store.getState())));
  if (speaker === null) {
    notify.error(
      'Nothing can read aloud here',
      'Add an OpenAI or Gemini key, or use a browser with speech voices (Settings → Voice).',
    );
    return;
  }
  const controller = new AbortController();
  const gate = createGate();
  const browser = speaker === 'browser';
  // Hidden, in the page: what plays can be seen in the document (and by the tests).
  const audio = document.createElement('audio');
  audio.hidden = true;
  audio.dataset.readAloud = messageId;
  const reading: Reading = {
    messageId,
    pause() {
      gate.close();
      if (browser) speechSynthesis.pause();
      else audio.pause();
      setStatus(messageId, 'paused');
    },
    resume() {
      gate.open();
      if (browser) speechSynthesis.resume();
      else if (audio.src && !audio.ended) void audio.play();
      setStatus(messageId, browser || audio.src ? 'playing' : 'loading');
    },
    stop() {
      controller.abort();
      gate.open();
    },
  };
  current = reading;
  setStatus(messageId, 'loading');
  const chunks = speechChunks(spokenText(markdown), browser ? { rest: 300 } : undefined);
  try {
    if (browser) {
      setStatus(messageId, 'playing');
      await readWithBrowser(chunks, settings, controller.signal);
    } else await readWithProvider(messageId, chunks, speaker, settings, audio, controller.signal, gate);
  } catch (error) {
    if (!controller.signal.aborted)
      notify.error(
        'The reply could not be read aloud',
        isProviderError(error)
          ? describeProviderError(error)
          : error instanceof Error
            ? error.message
            : String(error),
      );
  } finally {
    if (current === reading) {
      setStatus(messageId, null);
      current = null;
    }
  }
}
