import { subscribeToStorageEvents } from '../storage/tab-sync.ts';
import type { PageEvents } from './chat-context.ts';

/** The page's events as the browser fires them. */
export const browserPage: PageEvents = {
  onSettingsChanged: (listener) => void subscribeToStorageEvents(() => listener()),
  onClose: (listener) => window.addEventListener('pagehide', () => listener()),
  onHidden: (listener) =>
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') listener();
    }),
};
