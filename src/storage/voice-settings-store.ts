import { readVoiceSettings, type VoiceSettings } from '../domain/voice-settings.ts';
import { storageKeys } from './keys.ts';
import { parsed, storeJson } from './local-settings.ts';

/** The voice settings in localStorage: apart from the other settings, so only voice loads them. */

/** What does not read is the default. */
export const loadVoiceSettings = (): VoiceSettings => readVoiceSettings(parsed(storageKeys.voice));

/** False when it could not be stored (storage full or blocked): the choice then lasts this visit. */
export const saveVoiceSettings = (settings: VoiceSettings): boolean =>
  storeJson(storageKeys.voice, settings).ok;
