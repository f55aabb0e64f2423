import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/**
 * Tabs (an artifact's 'Preview', 'Code', 'Changes'; a compared turn's models on a phone): a
 * tablist whose arrow keys move between the tabs that can be chosen, each tab naming its panel.
 * Written here rather than with the dialog library's tabs, which were cut into chunks of their own
 * that the first screen then loaded (0.8 kB).
 */
export interface PanelTab<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
  content: ReactNode;
  className?: string;
}

export function PanelTabs<T extends string>({
  tabs,
  value,
  onChange,
  className,
  children,
}: {
  tabs: readonly PanelTab<T>[];
  value: T;
  onChange(value: T): void;
  className?: string;
  /** Above the tab list (the panel's header). */
  children?: ReactNode;
}) {
  const base = useId();
  const id = (tab: T, part: 'tab' | 'panel') => `${base}-${tab}-${part}`;
  const enabled = tabs.filter((tab) => !tab.disabled);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = enabled.findIndex((tab) => tab.value === value);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const to =
      event.key === 'Home'
        ? enabled[0]
        : event.key === 'End'
          ? enabled.at(-1)
          : step
            ? enabled.at((at + step) % enabled.length)
            : undefined;
    if (!to) return;
    event.preventDefault();
    onChange(to.value);
    document.getElementById(id(to.value, 'tab'))?.focus();
  };
  const shown = tabs.find((tab) => tab.value === value);
  return (
    <div className={className}>
      {children}
      <div
        role="tablist"
        onKeyDown={move}
        className="mx-3 mb-2 flex rounded-md bg-gray-100 p-1 dark:bg-gray-800"
      >
        {tabs.map((tab) => (
          <button
            key={tab.value}
            id={id(tab.value, 'tab')}
            type="button"
            role="tab"
            aria-selected={tab.value === value}
            aria-controls={tab.value === value ? id(tab.value, 'panel') : undefined}
            tabIndex={tab.value === value ? 0 : -1}
            disabled={tab.disabled}
            onClick={() => onChange(tab.value)}
            className={cn(
              'rounded px-3 py-1 text-sm font-medium text-gray-600 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50 dark:text-gray-300',
              tab.value === value && 'bg-white text-gray-900 shadow-sm dark:bg-gray-950 dark:text-gray-100',
            )}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {shown && (
        <div
          id={id(shown.value, 'panel')}
          role="tabpanel"
          aria-labelledby={id(shown.value, 'tab')}
          tabIndex={0}
          className={shown.className}
        >
          {shown.content}
        </div>
      )}
    </div>
  );
}
