import { transcriberOf, type TranscriberId } from '../domain/voice-settings.ts';
import { describeProviderError, isProviderError } from '../providers/provider-error.ts';
import { chat } from '../state/chat.ts';
import { loadVoiceSettings } from '../storage/voice-settings-store.ts';
import { listenWithBrowser, type BrowserRecognition } from './browser-speech.ts';
import { MicrophoneProblem, openMicrophone, type Microphone } from './microphone.ts';
import { voiceConnection, voiceKeys, voiceMeans } from './voice-means.ts';
import { transcribe } from './voice-requests.ts';

/**
 * One dictation: recording from the click to 'Stop dictation', then the provider's transcript (or
 * the browser's recognition, heard as it goes). A failed transcription keeps the recording, to
 * try again: nothing said is lost.
 */
export type DictationPhase =
  | { kind: 'starting' }
  | { kind: 'recording'; since: number; heard: string | null }
  | { kind: 'transcribing' }
  | { kind: 'failed'; problem: string; canRetry: boolean }
  | { kind: 'done'; text: string };

export interface Dictation {
  /** The microphone's level now (0 to 1); 0 while the browser's recognition listens. */
  level(): number;
  /** Ends the recording and transcribes it. */
  finish(): void;
  /** Transcribes the kept recording again. */
  retry(): void;
  /** Drops everything and lets the microphone go. */
  cancel(): void;
}

export const noTranscriber =
  'Nothing here turns speech into text: add an OpenAI or Groq key, or use a browser with speech recognition (Settings → Voice).';

export function startDictation(onPhase: (phase: DictationPhase) => void): Dictation {
  const settings = loadVoiceSettings();
  const state = chat.store.getState();
  const transcriber: TranscriberId | null = transcriberOf(settings, voiceMeans(voiceKeys(state)));
  let microphone: Microphone | null = null;
  let recognition: BrowserRecognition | null = null;
  let recording: Blob | null = null;
  let cancelled = false;
  const controller = new AbortController();
  const phase = (next: DictationPhase) => {
    if (!cancelled) onPhase(next);
  };

  const send = async () => {
    if (!recording || transcriber === null || transcriber === 'browser') return;
    const connection = voiceConnection(chat.store.getState(), transcriber);
    if (!connection) return phase({ kind: 'failed', problem: noTranscriber, canRetry: false });
    phase({ kind: 'transcribing' });
    try {
      const text = await transcribe(recording, transcriber, connection, settings, controller.signal);
      phase({ kind: 'done', text });
    } catch (error) {
      if (controller.signal.aborted) return;
      const problem = isProviderError(error) ? describeProviderError(error) : String(error);
      phase({
        kind: 'failed',
        problem: `The recording could not be transcribed: ${problem}`,
        canRetry: true,
      });
    }
  };

  if (transcriber === null) phase({ kind: 'failed', problem: noTranscriber, canRetry: false });
  else if (transcriber === 'browser') {
    const since = Date.now();
    phase({ kind: 'recording', since, heard: '' });
    recognition = listenWithBrowser({
      onHeard: (heard) => phase({ kind: 'recording', since, heard }),
      onEnd: (result) =>
        phase(
          'text' in result
            ? { kind: 'done', text: result.text }
            : { kind: 'failed', ...result, canRetry: false },
        ),
    });
  } else {
    phase({ kind: 'starting' });
    openMicrophone().then(
      (opened) => {
        if (cancelled) return opened.close();
        microphone = opened;
        opened.record();
        phase({ kind: 'recording', since: Date.now(), heard: null });
      },
      (error: unknown) =>
        phase({
          kind: 'failed',
          problem: error instanceof MicrophoneProblem ? error.message : String(error),
          canRetry: false,
        }),
    );
  }

  return {
    level: () => microphone?.level() ?? 0,
    finish() {
      if (recognition) return recognition.stop();
      const mic = microphone;
      if (!mic?.recording) return;
      void mic.stop().then((audio) => {
        mic.close();
        microphone = null;
        recording = audio;
        return send();
      });
    },
    retry: () => void send(),
    cancel() {
      cancelled = true;
      controller.abort();
      recognition?.cancel();
      microphone?.close();
      microphone = null;
    },
  };
}
