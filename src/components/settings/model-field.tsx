import { useId, useMemo } from 'react';
import type { ProviderId } from '../../domain/config.ts';
import { providerCatalog } from '../../domain/provider-catalog.ts';
import { dayOf, retirementLabel, type CatalogEntry } from '../../domain/provider-definitions/retirement.ts';
import { useRetirements } from '../../hooks/use-retirements.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { Input, Label, NativeSelect } from '../ui/input.tsx';

const customValue = '__custom__';

interface ModelFieldProps {
  provider: ProviderId;
  /** Whose live list to offer: the drafted connection's (see modelListKey). */
  listKey: string;
  value: string;
  onChange(model: string): void;
}

/** The built-in list, the provider's live list once fetched, or any model id typed in. */
export function ModelField({ provider, listKey, value, onChange }: ModelFieldProps) {
  const selectId = useId();
  const listed = useChatState((state) => state.modelLists[listKey] ?? null);
  const retirements = useRetirements();
  const today = dayOf(new Date());
  const liveIds = useMemo(() => listed?.map(({ id }) => id) ?? null, [listed]);
  const builtIn = providerCatalog[provider].models;
  const entries = useMemo(
    () => retirements.modelEntries(provider, today, listed ?? []),
    [retirements, provider, today, listed],
  );
  const suggested = entries.filter(({ id, retired }) => !retired && builtIn.includes(id));
  const extra = entries
    .filter(({ id, retired }) => !retired && !builtIn.includes(id))
    .sort((a, b) => a.id.localeCompare(b.id));
  const retired = entries.filter((entry) => entry.retired);
  const known = entries.some(({ id }) => id === value);
  const missingUpstream = liveIds !== null && liveIds.length > 0 && value !== '' && !liveIds.includes(value);
  const recommended = missingUpstream ? retirements.recommendedModel(provider, today, listed) : undefined;
  const option = (entry: CatalogEntry) => {
    const note = retirementLabel(entry);
    return (
      <option key={entry.id} value={entry.id}>
        {note ? `${entry.id} (${note})` : entry.id}
      </option>
    );
  };

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={selectId}>Model</Label>
      <NativeSelect
        id={selectId}
        value={known ? value : customValue}
        onChange={(event) => onChange(event.target.value === customValue ? '' : event.target.value)}
      >
        <optgroup label="Suggested">{suggested.map(option)}</optgroup>
        {extra.length > 0 && <optgroup label="Available to your key">{extra.map(option)}</optgroup>}
        {retired.length > 0 && <optgroup label="Retired upstream">{retired.map(option)}</optgroup>}
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
          {value} is not in the list of models your key can use; sending may fail.{' '}
          {recommended && recommended !== value && (
            <button type="button" className="underline" onClick={() => onChange(recommended)}>
              Use {recommended}
            </button>
          )}
        </p>
      )}
    </div>
  );
}
