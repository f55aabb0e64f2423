import { ChevronRight, Settings } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { connectionIdOf, isProviderId, providerIds, type Config } from '../../domain/config.ts';
import {
  capabilitiesOf,
  connectionLabel,
  modelOf,
  providerCatalog,
  switchProvider,
  type SettingField,
} from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { connectionsOf } from '../../state/chat-store.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { Input, Label, NativeSelect } from '../ui/input.tsx';
import { SliderField } from '../ui/slider.tsx';
import { ModelField } from './model-field.tsx';
import { Preferences } from './preferences.tsx';

function TextField(props: {
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
      {props.hint && <p className="text-xs text-gray-500 dark:text-gray-400">{props.hint}</p>}
    </div>
  );
}

/** One setting of the chosen provider, as its definition describes it. */
function SettingControl({
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
          connectionId={connectionIdOf(draft)}
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

/** 'Test connection': checks the drafted settings without saving them, and says what it found. */
function ConnectionTest({ draft }: { draft: Config }) {
  const [check, setCheck] = useState<{ for: Config; ok: boolean; message: string } | null>(null);
  const [pending, setPending] = useState(false);
  // A result is about the settings it tested: editing them clears it.
  const shown = check?.for === draft ? check : null;
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="outline"
        disabled={pending}
        onClick={() => {
          setPending(true);
          void chat.checkConnection(draft).then((result) => {
            setCheck({ ...result, for: draft });
            setPending(false);
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

/** The provider select's choice that starts a new OpenAI-compatible endpoint. */
const addEndpoint = '__add-endpoint';

function ConfigForm() {
  const saved = useChatState((state) => state.config);
  const connections = useChatState((state) => state.connections);
  const locked = useChatState((state) => state.keyLock === 'locked');
  const [draft, setDraft] = useState<Config>(saved);
  const [draftOf, setDraftOf] = useState(saved);
  // A configuration saved elsewhere (import, another tab) replaces the unsaved edits.
  if (draftOf !== saved) {
    setDraftOf(saved);
    setDraft(saved);
  }
  const providerSelectId = useId();
  const definition = providerCatalog[draft.provider];
  const update = (patch: Partial<Config>) => setDraft((current) => ({ ...current, ...patch }));
  const draftId = connectionIdOf(draft);
  // The saved endpoints, each once (the saved configuration may be one of them).
  const endpoints = useMemo(() => {
    return connectionsOf({ config: saved, connections })
      .filter((config) => providerCatalog[config.provider].multipleConnections === true)
      .sort((a, b) => connectionLabel(a).localeCompare(connectionLabel(b)));
  }, [saved, connections]);
  // An endpoint's base URL is its own field, not an advanced override.
  const ownBaseUrl = definition.fields.some((field) => field.key === 'baseUrl');

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        chat.saveConfiguration(draft);
      }}
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={providerSelectId}>Provider</Label>
        <NativeSelect
          id={providerSelectId}
          value={draftId}
          onChange={(event) => {
            const choice = event.target.value;
            if (choice === addEndpoint) setDraft(chat.newEndpointDraft(draft));
            else if (isProviderId(choice)) setDraft(switchProvider(draft, choice, connections[choice]));
            else setDraft(connections[choice] ?? draft);
          }}
        >
          {providerIds
            .filter((id) => !providerCatalog[id].multipleConnections)
            .map((id) => (
              <option key={id} value={id}>
                {providerCatalog[id].label}
              </option>
            ))}
          {endpoints.map((endpoint) => (
            <option key={connectionIdOf(endpoint)} value={connectionIdOf(endpoint)}>
              {connectionLabel(endpoint)}
            </option>
          ))}
          {definition.multipleConnections &&
            !endpoints.some((endpoint) => connectionIdOf(endpoint) === draftId) && (
              <option value={draftId}>{draft.name?.trim() || 'New endpoint'} (not saved)</option>
            )}
          <option value={addEndpoint}>Add OpenAI-compatible endpoint…</option>
        </NativeSelect>
        {definition.multipleConnections && connections[draftId] && connectionIdOf(saved) !== draftId && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="self-start"
            onClick={() => {
              chat.forgetConnection(draftId);
              setDraft(saved);
            }}
          >
            Remove endpoint
          </Button>
        )}
      </div>
      <TextField
        label="API Key"
        type="password"
        value={draft.apiKey}
        placeholder={locked ? 'Locked with your passphrase' : `Your ${definition.label} API key`}
        onChange={(apiKey) => update({ apiKey })}
        disabled={locked}
        hint={
          locked ? (
            <>
              Your keys are protected with a passphrase.{' '}
              <button
                type="button"
                className="font-medium text-indigo-700 underline dark:text-indigo-300"
                onClick={() => chat.setOverlay('unlock-keys')}
              >
                Unlock keys
              </button>
            </>
          ) : definition.keyOptional ? (
            <>Kept only in this browser. Optional: {definition.keyHint}.</>
          ) : (
            <>Kept only in this browser. Get one at {definition.keyHint}.</>
          )
        }
      />
      {definition.fields.map((field) => (
        <SettingControl key={field.key} field={field} draft={draft} update={update} />
      ))}
      {!ownBaseUrl && (
        <details className="rounded-md border border-gray-200 p-2 dark:border-gray-800">
          <summary className="cursor-pointer text-sm font-medium">Advanced</summary>
          <div className="mt-3">
            <TextField
              label="Base URL"
              value={draft.baseUrl ?? ''}
              placeholder="Provider default"
              onChange={(baseUrl) => update({ baseUrl: baseUrl.trim() || undefined })}
              hint="Replaces the provider's host: a proxy, an OpenAI-compatible server or a local mock."
            />
          </div>
        </details>
      )}
      <ConnectionTest draft={draft} />
      <Button type="submit">Save Configuration</Button>
    </form>
  );
}

/** The right panel: collapsible on desktop, a sheet on phones (the app shell decides). */
export function SettingsPanel({ collapsible = true }: { collapsible?: boolean }) {
  // Folded by its buttons or by the 'Toggle the settings panel' action.
  const collapsed = useChatState((state) => state.settingsCollapsed);
  const setCollapsed = chat.setSettingsCollapsed;

  if (collapsible && collapsed) {
    return (
      <div className="flex h-full w-12 flex-col items-center border-l border-gray-200 py-3 dark:border-gray-800">
        <Button variant="ghost" size="icon" aria-label="Expand settings" onClick={() => setCollapsed(false)}>
          <Settings />
        </Button>
      </div>
    );
  }

  return (
    <section
      aria-label="AI Provider Configuration"
      className="flex h-full w-96 max-w-full flex-col border-l border-gray-200 dark:border-gray-800"
    >
      <div className="flex items-center justify-between p-4 pb-2">
        <h2 className="text-base font-semibold">AI Provider Configuration</h2>
        {collapsible && (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Collapse settings"
            onClick={() => setCollapsed(true)}
          >
            <ChevronRight />
          </Button>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4 pt-2">
        <ConfigForm />
        <Preferences />
      </div>
    </section>
  );
}
