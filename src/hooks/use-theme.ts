import { useEffect, useSyncExternalStore } from 'react';
import { chat } from '../state/chat.ts';
import { useChatState } from './use-chat-state.ts';

const darkQuery = '(prefers-color-scheme: dark)';

function subscribeToSystemTheme(onChange: () => void) {
  const media = window.matchMedia(darkQuery);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function systemPrefersDark() {
  return window.matchMedia(darkQuery).matches;
}

/** The theme in effect, light or dark, for what only reads it (a diagram's colours). */
export function useResolvedTheme(): 'light' | 'dark' {
  const theme = useChatState((state) => state.theme);
  const systemDark = useSyncExternalStore(subscribeToSystemTheme, systemPrefersDark);
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}

/** The chosen theme (light, dark or system) and the one in effect; keeps <html> in step. */
export function useTheme() {
  const theme = useChatState((state) => state.theme);
  const resolved = useResolvedTheme();

  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', resolved === 'dark');
    root.style.colorScheme = resolved;
  }, [resolved]);

  return { theme, resolved, setTheme: chat.setTheme };
}
