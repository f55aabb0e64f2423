import { ChevronRight, Settings } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { connectionIdOf, isProviderId, providerIds, type Config } from '../../domain/config.ts';
import {
  connectionLabel,
  isOffered,
  providerCatalog,
  switchProvider,
} from '../../domain/provider-catalog.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { connectionsOf } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';
import {
  ApiKeyField,
  ConnectionTest,
  DeviceModelStatus,
  SettingControl,
  TextField,
  useModelFromList,
} from './config-fields.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';

// Below the configuration, out of view at first: loaded after the chat screen.
// 'Find local models', with its hint: beside the provider, loaded with the panel's first paint.
const FindLocalModels = lazyPart<object>(() =>
  import('./find-local-models.tsx').then((module) => ({ default: module.FindLocalModels })),
);
const Preferences = lazyPart<object>(() =>
  import('./preferences.tsx').then((module) => ({ default: module.Preferences })),
);

/** The provider select's choice that starts a new OpenAI-compatible endpoint. */
const addEndpoint = '__add-endpoint';

function ConfigForm() {
  const saved = useChatState((state) => state.config);
  const connections = useChatState((state) => state.connections);
  const [draft, setDraft] = useState<Config>(saved);
  const [draftOf, setDraftOf] = useState(saved);
  // Why the last 'Save Configuration' was refused, while the draft is the one refused.
  const [refused, setRefused] = useState<{ for: Config; reason: string } | null>(null);
  const modelFromList = useModelFromList();
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
  // The browser's own model: no key, no address, nothing to test over the network.
  const inBrowser = definition.browserGlobal !== undefined;

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const reason = chat.saveConfiguration(draft);
        setRefused(reason ? { for: draft, reason } : null);
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
            // One this browser cannot run is listed only while it is the drafted one (saved elsewhere).
            .filter((id) => isOffered(id) || id === draft.provider)
            .map((id) => (
              <option key={id} value={id}>
                {providerCatalog[id].label}
                {!isOffered(id) && ' (not available in this browser)'}
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
      <FindLocalModels />
      {inBrowser ? <DeviceModelStatus /> : <ApiKeyField draft={draft} update={update} />}
      {definition.fields.map((field) => (
        <SettingControl key={field.key} field={field} draft={draft} update={update} />
      ))}
      {!ownBaseUrl && !inBrowser && (
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
      {!inBrowser && (
        <ConnectionTest
          draft={draft}
          onListed={(models) =>
            // An endpoint's first test fills in a model; a model already chosen is never changed.
            setDraft((current) =>
              current.model ? current : { ...current, model: modelFromList(current, models) },
            )
          }
        />
      )}
      <Button type="submit">Save Configuration</Button>
      {refused?.for === draft && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {refused.reason}
        </p>
      )}
    </form>
  );
}

/** The right panel: collapsible on desktop, a sheet on phones (the app shell decides). */
export function SettingsPanel({ collapsible = true }: { collapsible?: boolean }) {
  // Folded by its buttons or by the 'Toggle the settings panel' action.
  const collapsed = useViewState((state) => state.settingsCollapsed);
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
