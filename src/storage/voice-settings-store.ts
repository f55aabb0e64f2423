import { defaultVoiceSettings, readVoiceSettings, type VoiceSettings } from '../domain/voice-settings.ts';
import { storageKeys } from './keys.ts';
import { browserStorage } from './local-settings.ts';

/** The voice settings in localStorage: apart from the other settings, so only voice loads them. */

/** What does not read is the default. */
export function loadVoiceSettings(): VoiceSettings {
  try {
    return readVoiceSettings(JSON.parse(browserStorage()?.getItem(storageKeys.voice) ?? 'null'));
  } catch {
    return defaultVoiceSettings;
  }
}

/** False when it could not be stored (storage full or blocked): the choice then lasts this visit. */
export function saveVoiceSettings(settings: VoiceSettings): boolean {
  try {
    browserStorage()?.setItem(storageKeys.voice, JSON.stringify(settings));
    return true;
  } catch {
    return false;
  }
}
