import { describe, expect, it } from 'vitest';
import { codeBlockWords, speechChunks, spokenText } from './spoken-text.ts';
import { createVoiceActivity, levelOf } from './voice-activity.ts';
import {
  defaultVoiceSettings,
  readVoiceSettings,
  speakerOf,
  transcriberOf,
  type VoiceMeans,
} from './voice-settings.ts';
import { pcmRateOf, wavOfPcm16 } from '../lib/wav.ts';

describe('spokenText', () => {
  it('reads the answer: code blocks are announced, marks and addresses left out', () => {
    const reply = [
      '# Plan',
      'Use **bold** and _care_, see [the docs](https://example.com/x) or https://example.com/y.',
      '',
      '```ts',
      'const secret = 1;',
      '```',
      '- one `item`',
      '1. two',
      '> quoted',
      '---',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '![a chart](https://example.com/c.png)',
      '<b>markup</b>',
    ].join('\n');
    const spoken = spokenText(reply);
    expect(spoken).toBe(
      [
        'Plan',
        'Use bold and _care_, see the docs or link',
        `(${codeBlockWords}.)`,
        'one item',
        'two',
        'quoted',
        'a, b',
        '1, 2',
        'a chart',
        'markup',
      ].join('\n'),
    );
    expect(spoken).not.toContain('secret');
  });

  it('a code block left open (a reply cut short) is announced, not read', () => {
    expect(spokenText('Here:\n~~~\nrm -rf /\nmore')).toBe(`Here:\n(${codeBlockWords}.)`);
  });

  it('is bounded on hostile replies', () => {
    const hostile = `${'['.repeat(200_000)}${' '.repeat(200_000)}|${'<a'.repeat(100_000)}`;
    const started = performance.now();
    spokenText(hostile);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('speechChunks', () => {
  it('cuts at sentences: a short first piece, longer ones after, nothing lost', () => {
    const sentence = 'This is one sentence of the reply. ';
    const text = sentence.repeat(100).trim();
    const chunks = speechChunks(text);
    expect(chunks[0]?.length).toBeLessThanOrEqual(220);
    expect(chunks.slice(1).every((chunk) => chunk.length <= 1200)).toBe(true);
    expect(chunks.every((chunk) => chunk.endsWith('.'))).toBe(true);
    expect(chunks.join(' ').replace(/ +/g, ' ')).toBe(text);
  });

  it('cuts a sentence longer than a piece at a space', () => {
    const words = 'word '.repeat(400).trim();
    const chunks = speechChunks(words, { first: 100, rest: 300 });
    expect(chunks.every((chunk) => chunk.length <= 300)).toBe(true);
    expect(chunks.join(' ')).toBe(words);
  });

  it('nothing to say, no pieces', () => {
    expect(speechChunks('')).toEqual([]);
  });
});

describe('voice settings', () => {
  const means = (keys: string[], browser = false): VoiceMeans => ({
    keys: new Set(keys),
    browserRecognition: browser,
    browserVoices: browser,
  });

  it('reads back what was stored, field by field, and the default for the rest', () => {
    expect(readVoiceSettings(null)).toEqual(defaultVoiceSettings);
    const read = readVoiceSettings({
      transcriber: 'groq',
      transcriptionModel: { openai: 'made-up', groq: 'whisper-large-v3' },
      speaker: 'gemini',
      voice: { openai: 'nova', gemini: 'Puck', browser: 'x'.repeat(501) },
      speed: 1.3,
      __proto__: { speaker: 'openai' },
    });
    expect(read).toMatchObject({
      transcriber: 'groq',
      transcriptionModel: { openai: 'gpt-4o-mini-transcribe', groq: 'whisper-large-v3' },
      speaker: 'gemini',
      voice: { openai: 'nova', gemini: 'Puck', browser: '' },
      speed: 1.25,
    });
    expect(readVoiceSettings({ speed: 9, transcriber: 'elsewhere' })).toMatchObject({
      speed: 1,
      transcriber: null,
    });
  });

  it('uses the chosen service while it can serve, else the first that can', () => {
    const settings = { ...defaultVoiceSettings, transcriber: 'groq' as const, speaker: 'gemini' as const };
    expect(transcriberOf(settings, means(['openai', 'groq']))).toBe('groq');
    expect(transcriberOf(settings, means(['openai']))).toBe('openai');
    expect(transcriberOf(settings, means([], true))).toBe('browser');
    expect(transcriberOf(settings, means(['gemini']))).toBeNull();
    expect(speakerOf(settings, means(['openai', 'gemini']))).toBe('gemini');
    expect(speakerOf(settings, means(['groq']))).toBeNull();
  });
});

describe('voice activity', () => {
  /** Frames every 50 ms at these levels; the events they raise, with their times. */
  function run(levels: number[]) {
    const activity = createVoiceActivity();
    return levels.flatMap((level, index) => {
      const event = activity.push(level, index * 50);
      return event ? [[event, index * 50] as const] : [];
    });
  }

  it('hears speech after a moment above the room, and its end after a pause', () => {
    const quiet = Array<number>(20).fill(0.002);
    const speech = Array<number>(30).fill(0.2);
    expect(run([...quiet, ...speech, ...Array<number>(30).fill(0.002)])).toEqual([
      ['speech-start', 1150],
      ['speech-end', 3400],
    ]);
  });

  it('a click is not speech, nor a short pause between words its end', () => {
    const quiet = Array<number>(20).fill(0.002);
    const words = [
      ...Array<number>(10).fill(0.2),
      ...Array<number>(8).fill(0.002),
      ...Array<number>(10).fill(0.2),
    ];
    expect(run([...quiet, 0.3, 0.3, ...quiet])).toEqual([]);
    expect(run([...quiet, ...words]).map(([event]) => event)).toEqual(['speech-start']);
  });

  it('a noisy room raises the bar', () => {
    const noisy = Array.from({ length: 100 }, (_, index) => (index % 2 ? 0.03 : 0.05));
    expect(run(noisy)).toEqual([]);
  });

  it('measures a frame of samples', () => {
    expect(levelOf(new Uint8Array(64).fill(128))).toBe(0);
    expect(levelOf(Uint8Array.from({ length: 64 }, (_, index) => (index % 2 ? 0 : 255)))).toBeCloseTo(1, 1);
  });
});

describe('wav', () => {
  it('puts a WAV header before 16-bit PCM, at the rate its type names', () => {
    expect(pcmRateOf('audio/L16;codec=pcm;rate=24000')).toBe(24_000);
    expect(pcmRateOf('audio/L16; rate=16000')).toBe(16_000);
    expect(pcmRateOf('audio/L16;rate=1')).toBe(24_000);
    const wav = wavOfPcm16(new Uint8Array(101), 16_000);
    const view = new DataView(wav.buffer);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(wav.subarray(8, 16))).toBe('WAVEfmt ');
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(40, true)).toBe(100);
    expect(wav.length).toBe(144);
  });
});

describe('OpenAI voices per model', () => {
  it('tts-1 speaks with the nine classic voices: another chosen falls back to the default', () => {
    const settings = readVoiceSettings({ speechModel: { openai: 'tts-1' }, voice: { openai: 'marin' } });
    expect(settings.voice.openai).toBe('coral');
    expect(
      readVoiceSettings({ speechModel: { openai: 'gpt-4o-mini-tts' }, voice: { openai: 'marin' } }).voice
        .openai,
    ).toBe('marin');
  });
});
