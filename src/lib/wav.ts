/**
 * Gemini's speech is headerless 16-bit little-endian PCM (`audio/L16;codec=pcm;rate=24000`): a
 * WAV header in front makes it a file the audio element plays.
 */

/** The sample rate an `audio/L16` type names (`rate=`), else 24 kHz, Gemini's. */
export function pcmRateOf(mimeType: string): number {
  const rate = Number(/(?:^|;)\s*rate=(\d{4,6})\s*(?:;|$)/i.exec(mimeType)?.[1]);
  return Number.isInteger(rate) && rate >= 8000 && rate <= 192_000 ? rate : 24_000;
}

/** A RIFF/WAVE file of mono 16-bit PCM samples. */
export function wavOfPcm16(pcm: Uint8Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const header = new DataView(new ArrayBuffer(44));
  const text = (offset: number, value: string) => {
    for (let index = 0; index < value.length; index++)
      header.setUint8(offset + index, value.charCodeAt(index));
  };
  const bytes = pcm.length - (pcm.length % 2);
  text(0, 'RIFF');
  header.setUint32(4, 36 + bytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true); // PCM
  header.setUint16(22, 1, true); // mono
  header.setUint32(24, sampleRate, true);
  header.setUint32(28, sampleRate * 2, true); // bytes per second
  header.setUint16(32, 2, true); // bytes per frame
  header.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  header.setUint32(40, bytes, true);
  const wav = new Uint8Array(44 + bytes);
  wav.set(new Uint8Array(header.buffer), 0);
  wav.set(pcm.subarray(0, bytes), 44);
  return wav;
}
