import type { Config } from '../domain/config.ts';
import type { VoiceMeans } from '../domain/voice-settings.ts';
import { connectionOf, type ChatState } from '../state/chat-store.ts';
import { hasBrowserRecognition, hasBrowserVoices } from './browser-speech.ts';

export { loadVoiceSettings, saveVoiceSettings } from '../storage/voice-settings-store.ts';

const voiceProviders = ['openai', 'groq', 'gemini'] as const;

/** A provider's own connection (not an endpoint), while its key is known (not locked away). */
export function voiceConnection(
  state: ChatState,
  provider: (typeof voiceProviders)[number],
): Config | undefined {
  const connection = connectionOf(state, provider);
  return connection?.apiKey ? connection : undefined;
}

/** The voice providers with a key now, space-separated: a plain value a component can select. */
export const voiceKeys = (state: ChatState): string =>
  voiceProviders.filter((provider) => voiceConnection(state, provider)).join(' ');

/** What this browser and the user's keys (voiceKeys) make possible. */
export function voiceMeans(keys: string): VoiceMeans {
  return {
    keys: new Set(keys.split(' ')),
    browserRecognition: hasBrowserRecognition(),
    browserVoices: hasBrowserVoices(),
  };
}
