import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** An on/off switch (role switch); name it with aria-label or aria-labelledby. */
export function Switch({
  on,
  onChange,
  className,
  ...props
}: { on: boolean; onChange(on: boolean): void } & Omit<ComponentProps<'button'>, 'onChange' | 'role'>) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={() => onChange(!on)}
      className={cn(
        'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none disabled:opacity-50 dark:focus-visible:ring-offset-gray-900',
        on ? 'bg-indigo-600' : 'bg-gray-300 dark:bg-gray-600',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden
        className={cn(
          'inline-block size-4 rounded-full bg-white shadow transition-transform',
          on ? 'translate-x-4.5' : 'translate-x-0.5',
        )}
      />
    </button>
  );
}
