// @ts-check
/**
 * What Chromium's fake microphone plays (`--use-file-for-fake-audio-capture=<wav>`) for the voice
 * e2e tests (tests/e2e/voice.spec.ts) and the hands-free screenshot (tools/screenshots.mjs):
 * espeak-ng speaking the mock's `spokenQuestion`, with half a second of silence before and six
 * seconds after. Chromium loops the file, so the question comes back every ~8.5 s.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spokenQuestion } from './mock-providers/voice.mjs';

/**
 * Speaks `spokenQuestion` into a WAV (16-bit mono PCM at espeak-ng's rate) and returns its path,
 * in the system's temporary folder. Fails with how to install espeak-ng when it is missing.
 * @returns {string}
 */
export function questionWav() {
  const folder = join(tmpdir(), 'byok-chat-voice');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'question.wav');
  const spoken = join(folder, `spoken-${process.pid}.wav`);
  try {
    execFileSync('espeak-ng', ['-w', spoken, spokenQuestion]);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT')
      throw new Error(
        'espeak-ng is not installed; it speaks into the fake microphone. Install it with `sudo apt-get install espeak-ng`.',
        { cause: error },
      );
    throw error;
  }
  const wav = readFileSync(spoken);
  rmSync(spoken, { force: true });
  // espeak-ng writes 16-bit mono PCM with a 44-byte header; the rate is at byte 24.
  const rate = wav.readUInt32LE(24);
  const silence = (/** @type {number} */ seconds) => Buffer.alloc(Math.round(rate * seconds) * 2);
  const samples = Buffer.concat([silence(0.5), wav.subarray(44), silence(6)]);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + samples.length, 4);
  header.writeUInt32LE(samples.length, 40);
  // Written beside and renamed: processes starting together never read half a file.
  const partial = join(folder, `question-${process.pid}.wav`);
  writeFileSync(partial, Buffer.concat([header, samples]));
  renameSync(partial, path);
  return path;
}

/**
 * Chromium's flags for a fake microphone playing `wav` (permission granted without asking) and
 * for playing audio without a click, as the hands-free talk reads replies aloud.
 * @param {string} [wav] the WAV to play; `questionWav()` when left out
 * @returns {string[]}
 */
export function fakeMicrophoneArgs(wav = questionWav()) {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}
