import { useId, type ReactNode } from 'react';

/** A checkbox with its label, and a hint under it that describes it. */
export function CheckboxField({
  label,
  hint,
  checked,
  disabled = false,
  onChange,
}: {
  label: string;
  hint: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange(checked: boolean): void;
}) {
  const hintId = useId();
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
          className="size-4 accent-indigo-600"
        />
        {label}
      </label>
      <p id={hintId} className="text-xs text-faint-foreground">
        {hint}
      </p>
    </>
  );
}
