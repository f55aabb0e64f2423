import { useEffect, useRef, useState } from 'react';

/**
 * `value` as it was at most `intervalMs` ago, updated at most once per interval, while `enabled`;
 * `value` itself otherwise. For work too costly to redo on every streamed frame.
 */
export function useThrottledValue<T>(value: T, intervalMs: number, enabled: boolean): T {
  const [throttled, setThrottled] = useState(value);
  const lastUpdate = useRef(Number.NEGATIVE_INFINITY);

  useEffect(() => {
    if (!enabled) return;
    const wait = Math.max(0, lastUpdate.current + intervalMs - performance.now());
    const timer = setTimeout(() => {
      lastUpdate.current = performance.now();
      setThrottled(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, intervalMs, enabled]);

  return enabled ? throttled : value;
}
