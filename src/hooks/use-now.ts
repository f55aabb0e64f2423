import { useSyncExternalStore } from 'react';

// One shared clock for every relative time on screen, ticking every 30 seconds.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const notify of listeners) notify();
  }, 30_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, refreshed every 30 s, so 'x minutes ago' labels stay current. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
