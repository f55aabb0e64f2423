import { useCallback, useSyncExternalStore } from 'react';

/** One MediaQueryList per query: reading `matches` is cheap, making a list is not (every render). */
const lists = new Map<string, MediaQueryList>();
function mediaList(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) lists.set(query, (list = window.matchMedia(query)));
  return list;
}

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = mediaList(query);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => mediaList(query).matches);
}

/** Below 768 px the sidebar and the settings panel become slide-over sheets. */
export const phoneQuery = '(max-width: 767px)';

export function useIsPhone(): boolean {
  return useMediaQuery(phoneQuery);
}
