import { useId, useMemo } from 'react';
import type { ProviderId } from '../../domain/config.ts';
import { providerCatalog } from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { liveModelsOf } from '../../state/chat-store.ts';
import { Input, Label, NativeSelect } from '../ui/input.tsx';

const customValue = '__custom__';

interface ModelFieldProps {
  provider: ProviderId;
  /** Whose live list to offer: the drafted connection. */
  connectionId: string;
  value: string;
  onChange(model: string): void;
}

/** The built-in list, the provider's live list once fetched, or any model id typed in. */
export function ModelField({ provider, connectionId, value, onChange }: ModelFieldProps) {
  const selectId = useId();
  const listed = useChatState((state) => liveModelsOf(state, connectionId));
  const liveModels = useMemo(() => listed?.map(({ id }) => id) ?? null, [listed]);
  const builtIn = providerCatalog[provider].models;
  const extra = (liveModels ?? []).filter((model) => !builtIn.includes(model)).sort();
  const known = builtIn.includes(value) || extra.includes(value);
  const missingUpstream =
    liveModels !== null && liveModels.length > 0 && value !== '' && !liveModels.includes(value);

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={selectId}>Model</Label>
      <NativeSelect
        id={selectId}
        value={known ? value : customValue}
        onChange={(event) => onChange(event.target.value === customValue ? '' : event.target.value)}
      >
        <optgroup label="Suggested">
          {builtIn.map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </optgroup>
        {extra.length > 0 && (
          <optgroup label="Available to your key">
            {extra.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </optgroup>
        )}
        <option value={customValue}>Other model id…</option>
      </NativeSelect>
      {!known && (
        <Input
          aria-label="Model id"
          placeholder="Type any model id"
          value={value}
          onChange={(event) => onChange(event.target.value.trim())}
        />
      )}
      {missingUpstream && (
        <p role="status" className="text-xs text-amber-700 dark:text-amber-400">
          {value} is not in the list of models your key can use; sending may fail.
        </p>
      )}
    </div>
  );
}
