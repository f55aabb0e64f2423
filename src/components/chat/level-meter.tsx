import { useEffect, useRef } from 'react';
import { cn } from '../../lib/cn.ts';

/**
 * The microphone's level as a bar, read ten times a second and drawn without React (a render per
 * reading would be waste). Speech RMS rarely passes 0.3, so that is the full bar.
 */
export function LevelMeter({ level, className }: { level(): number; className?: string }) {
  const meter = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setInterval(() => {
      const percent = Math.round(Math.min(1, level() / 0.3) * 100);
      meter.current?.setAttribute('aria-valuenow', String(percent));
      if (bar.current) bar.current.style.width = `${percent}%`;
    }, 100);
    return () => clearInterval(timer);
  }, [level]);
  return (
    <div
      ref={meter}
      role="meter"
      aria-label="Microphone level"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
      className={cn('h-2 w-24 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700', className)}
    >
      <div ref={bar} className="h-full w-0 bg-emerald-500 transition-[width] duration-100" />
    </div>
  );
}
