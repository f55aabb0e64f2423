import { Slider as SliderPrimitive } from 'radix-ui';
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

/** A labelled slider that shows its current value. */
export function SliderField({ label, value, min, max, step, onChange, disabledReason }: SliderFieldProps) {
  const id = useId();
  const reasonId = useId();
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <Label id={id}>{label}</Label>
        <span className="text-xs text-faint-foreground tabular-nums">{value}</span>
      </div>
      <SliderPrimitive.Root
        // Only the track fades when disabled: the label, value and reason keep their contrast.
        className="relative flex h-5 touch-none items-center select-none data-[disabled]:opacity-40"
        value={[value]}
        min={min}
        max={max}
        step={step}
        disabled={disabledReason !== undefined}
        onValueChange={([next]) => {
          if (next !== undefined) onChange(next);
        }}
      >
        <SliderPrimitive.Track className="relative h-1.5 grow rounded-full bg-gray-200 dark:bg-gray-700">
          <SliderPrimitive.Range className="absolute h-full rounded-full bg-indigo-600" />
        </SliderPrimitive.Track>
        <SliderPrimitive.Thumb
          aria-labelledby={id}
          aria-describedby={disabledReason ? reasonId : undefined}
          // Radix marks a disabled thumb with data-disabled only; assistive technology needs this.
          aria-disabled={disabledReason ? true : undefined}
          className="block size-4 rounded-full border-2 border-indigo-600 bg-white shadow outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        />
      </SliderPrimitive.Root>
      {disabledReason && (
        <p id={reasonId} className="text-xs text-muted-foreground">
          {disabledReason}
        </p>
      )}
    </div>
  );
}
