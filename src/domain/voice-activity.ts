/**
 * Voice activity detection for hands-free talk: from the microphone's level, frame by frame, when
 * the user starts speaking and when they have finished. Speech is a level well above the room's
 * own noise (learnt while nobody speaks) for a moment; the end is a pause long enough not to be
 * one between words.
 */

export interface VoiceActivityOptions {
  /** Below this level (RMS, 0 to 1) nothing counts as speech, however quiet the room. */
  minLevel?: number;
  /** How far above the noise floor speech is. */
  overNoise?: number;
  /** Loud for this long before it counts as speech (a cough, a click does not). */
  speechMs?: number;
  /** Quiet for this long after speech: the end of what was said. */
  silenceMs?: number;
  /** The first frames, for this long, only learn the room's noise. */
  calibrationMs?: number;
}

export type VoiceEvent = 'speech-start' | 'speech-end';

export interface VoiceActivity {
  /** One frame's level at a time (ms); what it ends or starts, if anything. */
  push(level: number, time: number): VoiceEvent | null;
  readonly speaking: boolean;
  /** Forgets what was heard, the noise floor apart (listening again). */
  reset(): void;
}

export function createVoiceActivity({
  minLevel = 0.015,
  overNoise = 3,
  speechMs = 150,
  silenceMs = 900,
  calibrationMs = 300,
}: VoiceActivityOptions = {}): VoiceActivity {
  let noise = minLevel / overNoise;
  /** When the first frame came, and the levels heard while calibrating. */
  let firstFrame: number | null = null;
  let calibration: number[] | null = [];
  let speaking = false;
  /** When the current run of loud (or, while speaking, quiet) frames began; null outside one. */
  let runStart: number | null = null;
  return {
    get speaking() {
      return speaking;
    },
    reset() {
      speaking = false;
      runStart = null;
    },
    push(level, time) {
      firstFrame ??= time;
      if (calibration) {
        calibration.push(level);
        if (time - firstFrame < calibrationMs) return null;
        noise = Math.max(noise, calibration.reduce((sum, each) => sum + each, 0) / calibration.length);
        calibration = null;
      }
      const loud = level > Math.max(minLevel, noise * overNoise);
      if (!speaking) {
        // The floor follows the room slowly while nobody speaks, and never learns speech itself.
        if (!loud) noise = noise * 0.95 + level * 0.05;
        if (!loud) runStart = null;
        else if (runStart === null) runStart = time;
        else if (time - runStart >= speechMs) {
          speaking = true;
          runStart = null;
          return 'speech-start';
        }
        return null;
      }
      if (loud) runStart = null;
      else if (runStart === null) runStart = time;
      else if (time - runStart >= silenceMs) {
        speaking = false;
        runStart = null;
        return 'speech-end';
      }
      return null;
    },
  };
}

/** The RMS level (0 to 1) of a frame of samples centred on 128 (AnalyserNode's byte time domain). */
export function levelOf(samples: Uint8Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) {
    const centred = (sample - 128) / 128;
    sum += centred * centred;
  }
  return Math.sqrt(sum / samples.length);
}
