import { levelOf } from '../domain/voice-activity.ts';
import { errorName } from '../providers/provider-error.ts';

/**
 * The microphone, opened only on the user's click (the browser asks for permission then): its
 * level, for the meter and for hearing when speech starts and ends, and recordings of it.
 */
export interface Microphone {
  /** The level now, RMS from 0 to 1. */
  level(): number;
  /** Starts a recording (ending any one running, whose audio is dropped). */
  record(): void;
  readonly recording: boolean;
  /** Ends the recording: its audio. */
  stop(): Promise<Blob>;
  /** Lets the microphone go (the browser's recording indicator goes off). */
  close(): void;
}

/** Why the microphone cannot be used, in one sentence with the fix. */
export class MicrophoneProblem extends Error {}

/** The first recording format this browser makes: Opus in WebM (Chromium, Firefox), else MP4 (Safari). */
function recordingType(): string | undefined {
  return ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'].find((type) =>
    MediaRecorder.isTypeSupported(type),
  );
}

export function microphoneProblem(error: unknown): MicrophoneProblem {
  switch (errorName(error)) {
    case 'NotAllowedError':
    case 'SecurityError':
      return new MicrophoneProblem(
        'The microphone is blocked for this site: allow it in the site’s settings (the icon left of the address), then try again.',
      );
    case 'NotFoundError':
    case 'OverconstrainedError':
      return new MicrophoneProblem(
        'No microphone was found: connect one (or turn it on in the system’s sound settings), then try again.',
      );
    case 'NotReadableError':
    case 'AbortError':
      return new MicrophoneProblem(
        'The microphone could not start, perhaps because another app is using it: close that app, then try again.',
      );
    default:
      return new MicrophoneProblem(`The microphone could not be opened (${String(error)}).`);
  }
}

export async function openMicrophone(): Promise<Microphone> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new MicrophoneProblem(
      'This browser gives this page no microphone: open the app over https (or on localhost) in a current browser.',
    );
  if (typeof MediaRecorder === 'undefined')
    throw new MicrophoneProblem(
      'This browser cannot record audio: use a current Chrome, Edge, Firefox or Safari.',
    );
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      // The reply read aloud must not be heard as the user speaking (hands-free).
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
  } catch (error) {
    throw microphoneProblem(error);
  }
  const context = new AudioContext();
  // Made after the permission's wait, it may start suspended, and would then hear silence.
  void context.resume();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  const type = recordingType();
  let recorder: MediaRecorder | null = null;
  let chunks: Blob[] = [];

  return {
    level() {
      analyser.getByteTimeDomainData(samples);
      return levelOf(samples);
    },
    record() {
      if (recorder?.state === 'recording') recorder.stop();
      const current = new MediaRecorder(stream, type ? { mimeType: type } : {});
      const mine: Blob[] = [];
      chunks = mine;
      current.ondataavailable = (event) => {
        if (event.data.size > 0) mine.push(event.data);
      };
      current.start(250);
      recorder = current;
    },
    get recording() {
      return recorder?.state === 'recording';
    },
    stop() {
      const current = recorder;
      recorder = null;
      if (!current || current.state === 'inactive') return Promise.resolve(new Blob(chunks, { type }));
      const audio = chunks;
      return new Promise((resolve) => {
        current.onstop = () => resolve(new Blob(audio, { type: current.mimeType || type }));
        current.stop();
      });
    },
    close() {
      if (recorder?.state === 'recording') recorder.stop();
      recorder = null;
      for (const track of stream.getTracks()) track.stop();
      void context.close();
    },
  };
}
