import { ChevronLeft, ChevronRight } from 'lucide-react';

interface MessageVersionsProps {
  /** 1-based. */
  version: number;
  count: number;
  disabled: boolean;
  onStep(step: -1 | 1): void;
}

const stepButton =
  'rounded p-0.5 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-40 disabled:hover:bg-transparent dark:hover:bg-gray-700';

/** 'Previous version', 'n / m', 'Next version': for a message that has other versions. */
export function MessageVersions({ version, count, disabled, onStep }: MessageVersionsProps) {
  return (
    <div className="flex items-center gap-0.5 text-xs text-muted-foreground tabular-nums">
      <button
        type="button"
        aria-label="Previous version"
        disabled={disabled || version <= 1}
        onClick={() => onStep(-1)}
        className={stepButton}
      >
        <ChevronLeft className="size-3.5" />
      </button>
      <span data-testid="message-version">
        {version} / {count}
      </span>
      <button
        type="button"
        aria-label="Next version"
        disabled={disabled || version >= count}
        onClick={() => onStep(1)}
        className={stepButton}
      >
        <ChevronRight className="size-3.5" />
      </button>
    </div>
  );
}
