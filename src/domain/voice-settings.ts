import { isRecord, ownField } from './json-guards.ts';

/**
 * Voice: who turns speech into text (dictation), who reads replies aloud, with which model, voice
 * and speed. A provider's service is offered only while its key is known; the browser's own
 * recognition and voices only where the browser has them (docs/voice.md).
 */

export type TranscriberId = 'openai' | 'groq' | 'browser';
export type SpeakerId = 'openai' | 'gemini' | 'browser';

export interface VoiceSettings {
  /** The chosen transcriber; the first one available when it is not (or none was chosen). */
  transcriber: TranscriberId | null;
  transcriptionModel: { openai: string; groq: string };
  speaker: SpeakerId | null;
  speechModel: { openai: string; gemini: string };
  /** A voice per speaker; the browser's by its voiceURI ('' for the browser's default). */
  voice: { openai: string; gemini: string; browser: string };
  /** 1 is the voice's own pace. */
  speed: number;
}

export const transcriberLabels: Readonly<Record<TranscriberId, string>> = {
  openai: 'OpenAI',
  groq: 'Groq',
  browser: 'This browser’s speech recognition',
};

export const speakerLabels: Readonly<Record<SpeakerId, string>> = {
  openai: 'OpenAI',
  gemini: 'Google Gemini',
  browser: 'This browser’s voices',
};

/** The transcription models, the default first (whisper-1 and the gpt-4o ones retire on 2027-02-26). */
export const transcriptionModels = {
  openai: ['gpt-4o-mini-transcribe', 'gpt-4o-transcribe', 'gpt-transcribe', 'whisper-1'],
  groq: ['whisper-large-v3-turbo', 'whisper-large-v3'],
} as const;

export const speechModels = {
  openai: ['gpt-4o-mini-tts', 'tts-1', 'tts-1-hd'],
  gemini: ['gemini-3.8-flash-tts', 'gemini-3.8-flash-lite-tts', 'gemini-3.1-flash-tts-preview'],
} as const;

export const openaiVoices = [
  'alloy',
  'ash',
  'ballad',
  'cedar',
  'coral',
  'echo',
  'fable',
  'marin',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;

/** tts-1 and tts-1-hd speak with the first nine voices only (the API refuses the others). */
const classicVoices: ReadonlySet<string> = new Set([
  'alloy',
  'ash',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
]);

export function openaiVoicesFor(model: string): readonly string[] {
  return model.startsWith('tts-1') ? openaiVoices.filter((voice) => classicVoices.has(voice)) : openaiVoices;
}

/** The settings with an OpenAI voice its speech model has (the default voice in place of one it has not). */
export function withSpeakableVoice(settings: VoiceSettings): VoiceSettings {
  return openaiVoicesFor(settings.speechModel.openai).includes(settings.voice.openai)
    ? settings
    : { ...settings, voice: { ...settings.voice, openai: defaultVoiceSettings.voice.openai } };
}

export const geminiVoices = [
  'Kore',
  'Puck',
  'Zephyr',
  'Charon',
  'Fenrir',
  'Leda',
  'Orus',
  'Aoede',
  'Callirrhoe',
  'Autonoe',
  'Enceladus',
  'Iapetus',
  'Umbriel',
  'Algieba',
  'Despina',
  'Erinome',
  'Algenib',
  'Rasalgethi',
  'Laomedeia',
  'Achernar',
  'Alnilam',
  'Schedar',
  'Gacrux',
  'Pulcherrima',
  'Achird',
  'Zubenelgenubi',
  'Vindemiatrix',
  'Sadachbia',
  'Sadaltager',
  'Sulafat',
] as const;

export const speedBounds = { min: 0.5, max: 2, step: 0.25 } as const;

export const defaultVoiceSettings: VoiceSettings = {
  transcriber: null,
  transcriptionModel: { openai: transcriptionModels.openai[0], groq: transcriptionModels.groq[0] },
  speaker: null,
  speechModel: { openai: speechModels.openai[0], gemini: speechModels.gemini[0] },
  voice: { openai: 'coral', gemini: 'Kore', browser: '' },
  speed: 1,
};

/** `value` when it is one of `options`, else `fallback`. */
function oneOf<T extends string>(value: unknown, options: readonly T[], fallback: T): T {
  return options.includes(value as T) ? (value as T) : fallback;
}

/** Stored settings read back: what does not read is the default, field by field. */
export function readVoiceSettings(value: unknown): VoiceSettings {
  const defaults = defaultVoiceSettings;
  if (!isRecord(value)) return defaults;
  const field = (name: string) => ownField(value, name);
  const nested = (name: string, key: string) => {
    const record = field(name);
    return isRecord(record) ? ownField(record, key) : undefined;
  };
  const speed = field('speed');
  const browserVoice = nested('voice', 'browser');
  return withSpeakableVoice({
    transcriber: (['openai', 'groq', 'browser'] as const).find((id) => id === field('transcriber')) ?? null,
    transcriptionModel: {
      openai: oneOf(
        nested('transcriptionModel', 'openai'),
        transcriptionModels.openai,
        defaults.transcriptionModel.openai,
      ),
      groq: oneOf(
        nested('transcriptionModel', 'groq'),
        transcriptionModels.groq,
        defaults.transcriptionModel.groq,
      ),
    },
    speaker: (['openai', 'gemini', 'browser'] as const).find((id) => id === field('speaker')) ?? null,
    speechModel: {
      openai: oneOf(nested('speechModel', 'openai'), speechModels.openai, defaults.speechModel.openai),
      gemini: oneOf(nested('speechModel', 'gemini'), speechModels.gemini, defaults.speechModel.gemini),
    },
    voice: {
      openai: oneOf(nested('voice', 'openai'), openaiVoices, defaults.voice.openai),
      gemini: oneOf(nested('voice', 'gemini'), geminiVoices, defaults.voice.gemini),
      browser: typeof browserVoice === 'string' && browserVoice.length <= 500 ? browserVoice : '',
    },
    speed:
      typeof speed === 'number' && speed >= speedBounds.min && speed <= speedBounds.max
        ? Math.round(speed / speedBounds.step) * speedBounds.step
        : defaults.speed,
  });
}

/** What this browser and the user's keys make possible. */
export interface VoiceMeans {
  /** Providers with a key. */
  keys: ReadonlySet<string>;
  browserRecognition: boolean;
  browserVoices: boolean;
}

/** The transcribers that can serve now, in the order offered. */
export function availableTranscribers(means: VoiceMeans): TranscriberId[] {
  return (['openai', 'groq', 'browser'] as const).filter((id) =>
    id === 'browser' ? means.browserRecognition : means.keys.has(id),
  );
}

export function availableSpeakers(means: VoiceMeans): SpeakerId[] {
  return (['openai', 'gemini', 'browser'] as const).filter((id) =>
    id === 'browser' ? means.browserVoices : means.keys.has(id),
  );
}

/** The transcriber dictation uses: the chosen one while it can serve, else the first that can; null: none. */
export function transcriberOf(settings: VoiceSettings, means: VoiceMeans): TranscriberId | null {
  const available = availableTranscribers(means);
  return settings.transcriber && available.includes(settings.transcriber)
    ? settings.transcriber
    : (available[0] ?? null);
}

export function speakerOf(settings: VoiceSettings, means: VoiceMeans): SpeakerId | null {
  const available = availableSpeakers(means);
  return settings.speaker && available.includes(settings.speaker) ? settings.speaker : (available[0] ?? null);
}
