import { useId } from 'react';
import { Label } from './input.tsx';

interface SliderFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
  /** Set when the setting does not apply: the slider is disabled and says why. */
  disabledReason?: string | undefined;
}

/**
 * A labelled slider that shows its current value. The browser's own range input: it has the
 * slider role, keys and touch built in, and costs the first load nothing (a component library's
 * slider cost 5 kB gzip of it).
 */
export function SliderField({ label, value, min, max, step, onChange, disabledReason }: SliderFieldProps) {
  const id = useId();
  const reasonId = useId();
  const disabled = disabledReason !== undefined;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <Label id={id}>{label}</Label>
        <span className="text-xs text-faint-foreground tabular-nums">{value}</span>
      </div>
      <input
        type="range"
        aria-labelledby={id}
        aria-describedby={disabled ? reasonId : undefined}
        // Stated as well as implied, for assistive technology and tools that read the attributes.
        aria-valuemin={min}
        aria-valuemax={max}
        aria-valuenow={value}
        aria-disabled={disabled ? true : undefined}
        min={min}
        max={max}
        step={step}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          const next = Number(event.currentTarget.value);
          if (Number.isFinite(next)) onChange(next);
        }}
        // Only the track fades when disabled: the label, value and reason keep their contrast.
        className="h-5 w-full cursor-pointer accent-indigo-600 disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-indigo-500"
      />
      {disabledReason && (
        <p id={reasonId} className="text-xs text-muted-foreground">
          {disabledReason}
        </p>
      )}
    </div>
  );
}
