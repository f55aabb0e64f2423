import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** Below 768 px the sidebar and the settings panel become slide-over sheets. */
export const phoneQuery = '(max-width: 767px)';

export function useIsPhone(): boolean {
  return useMediaQuery(phoneQuery);
}
