import { useId, useState, type ReactNode } from 'react';
import type { Config } from '../../domain/config.ts';
import {
  capabilitiesOf,
  modelOf,
  providerCatalog,
  type SettingField,
} from '../../domain/provider-catalog.ts';
import { dayOf } from '../../domain/provider-definitions/retirement.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useRetirements } from '../../hooks/use-retirements.ts';
import { chat } from '../../state/chat.ts';
import { modelListKey, type ChatState } from '../../state/chat-store.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { Input, Label } from '../ui/input.tsx';
import { LockedKeysHint } from '../ui/locked-keys-hint.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import { SliderField } from '../ui/slider.tsx';
import { ModelField } from './model-field.tsx';

/** A provider's own model list, as fetched. */
type ListedModels = ChatState['modelLists'][string];

/** The fields of a drafted configuration, shared by the settings panel and the first-run card. */

export function TextField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  type?: string;
  placeholder?: string;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{props.label}</Label>
      <Input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        spellCheck={false}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && <div className="text-xs text-faint-foreground">{props.hint}</div>}
    </div>
  );
}

/** 'API Key', with where to get one; and a key of another provider's shape held back until confirmed. */
export function ApiKeyField({ draft, update }: { draft: Config; update(patch: Partial<Config>): void }) {
  const locked = useChatState((state) => state.keyLock === 'locked');
  // Read with the store so that 'Use it anyway' and a save refresh it.
  const warning = useChatState(() => chat.keyWarning(draft));
  const definition = providerCatalog[draft.provider];
  return (
    <TextField
      label="API Key"
      type="password"
      value={draft.apiKey}
      placeholder={locked ? 'Locked with your passphrase' : `Your ${definition.label} API key`}
      onChange={(apiKey) => update({ apiKey })}
      disabled={locked}
      hint={
        <>
          {locked ? (
            <p>
              <LockedKeysHint
                onUnlock={() => chat.setOverlay('unlock-keys')}
                buttonClassName="text-indigo-700 dark:text-indigo-300"
              />
            </p>
          ) : definition.keyOptional ? (
            <p>Kept only in this browser. Optional: {definition.keyHint}.</p>
          ) : (
            <p>Kept only in this browser. Get one at {definition.keyHint}.</p>
          )}
          {warning && (
            <p role="alert" className="mt-1 text-amber-800 dark:text-amber-300">
              {warning}: it is not sent to {definition.label} until you say so.{' '}
              <button type="button" className="font-medium underline" onClick={() => chat.confirmKey(draft)}>
                Use it anyway
              </button>
            </p>
          )}
        </>
      }
    />
  );
}

/** One setting of the chosen provider, as its definition describes it. */
export function SettingControl({
  field,
  draft,
  update,
}: {
  field: SettingField;
  draft: Config;
  update(patch: Partial<Config>): void;
}) {
  switch (field.kind) {
    case 'text':
      return (
        <TextField
          label={field.label}
          value={draft[field.key] ?? ''}
          placeholder={field.placeholder}
          onChange={(value) => update({ [field.key]: value })}
        />
      );
    case 'model':
      return (
        <ModelField
          provider={draft.provider}
          listKey={modelListKey(draft)}
          value={draft.model ?? ''}
          onChange={(model) => update({ model })}
        />
      );
    case 'slider': {
      const { rejects, rejectsBecause } = capabilitiesOf(draft);
      const ignored = (rejects as readonly string[]).includes(field.key);
      return (
        <SliderField
          label={field.label}
          disabledReason={
            ignored
              ? `Not sent: ${modelOf(draft)} does not accept it${rejectsBecause ? ` (${rejectsBecause})` : ''}.`
              : undefined
          }
          {...field.bounds}
          value={Math.min(draft[field.key] ?? 0, field.bounds.max)}
          onChange={(value) => update({ [field.key]: value })}
        />
      );
    }
    case 'list':
      return (
        <TextField
          label={field.label}
          value={(draft[field.key] ?? []).join(', ')}
          placeholder={field.placeholder}
          onChange={(text) =>
            update({
              [field.key]: text
                .split(',')
                .map((part) => part.trim())
                .filter(Boolean)
                .slice(0, field.max),
            })
          }
        />
      );
  }
}

/**
 * In place of the key and 'Test connection' for the browser's own model: where it stands, and its
 * Download. Loaded only when that provider is chosen.
 */
export const DeviceModelStatus = lazyPart<object>(() => import('./device-model-status.tsx'));

/** The model to preselect from a live list: the provider's recommended one it serves, else its first. */
export function useModelFromList(): (draft: Config, models: ListedModels) => string | undefined {
  const { recommendedModel } = useRetirements();
  return (draft, models) => recommendedModel(draft.provider, dayOf(new Date()), models) ?? models[0]?.id;
}

/** What a test depends on: all of the configuration, less the model where the test lists models. */
function testedPart(config: Config): string {
  return JSON.stringify(
    providerCatalog[config.provider].modelKey === 'model' ? { ...config, model: '' } : config,
  );
}

/**
 * 'Test connection': checks the drafted settings without saving them, and says what it found;
 * `onListed` hears the models it listed.
 */
export function ConnectionTest({
  draft,
  onListed,
}: {
  draft: Config;
  onListed?(models: ListedModels): void;
}) {
  const [check, setCheck] = useState<{ for: Config; ok: boolean; message: string } | null>(null);
  const [pending, setPending] = useState(false);
  // A result is about the settings it tested: editing them clears it (but picking a model from a
  // listing does not).
  const shown = check && testedPart(check.for) === testedPart(draft) ? check : null;
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="outline"
        disabled={pending}
        onClick={() => {
          setPending(true);
          void chat.checkConnection(draft).then(({ ok, message, models }) => {
            setCheck({ ok, message, for: draft });
            setPending(false);
            if (models) onListed?.(models);
          });
        }}
      >
        {pending ? 'Testing…' : 'Test connection'}
      </Button>
      <p
        role="status"
        className={cn(
          'text-xs',
          shown?.ok ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400',
        )}
      >
        {shown?.message}
      </p>
    </div>
  );
}
