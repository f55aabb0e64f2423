import { saveTheme } from '../storage/local-settings.ts';
import { setState, type Theme } from './chat-store.ts';

export function setTheme(theme: Theme): void {
  setState({ theme });
  saveTheme(theme);
}
