import { PlugZap } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { isProviderId, providerIds, type Config, type ProviderId } from '../../domain/config.ts';
import { providerCatalog, switchProvider, takesKey, withModel } from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { ApiKeyField, ConnectionTest, SettingControl, useModelFromList } from './config-fields.tsx';
import { Button } from '../ui/button.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';
import { WaysToStart } from './ways-to-start.tsx';

/** The select's choice for a new OpenAI-compatible endpoint. */
const endpointChoice = '__endpoint';

/**
 * The draft for a provider: its remembered connection, or else its defaults with its recommended
 * model (first in its catalog) rather than the stored default (docs/behaviour.md#default-configuration), retired upstream.
 */
function draftFor(config: Config, provider: ProviderId, remembered: Config | undefined): Config {
  const next = switchProvider(config, provider, remembered);
  const recommended = providerCatalog[provider].models[0];
  return remembered || !recommended ? next : withModel(next, recommended);
}

/**
 * First run, no key and no conversation: choose a provider, paste a key, test, pick a model from
 * the live list, save; a conversation then opens with its message box focused. The same commands
 * and fields as the settings panel.
 */
export default function ConnectProviderCard() {
  const saved = useChatState((state) => state.config);
  const connections = useChatState((state) => state.connections);
  const [draft, setDraft] = useState<Config>(() =>
    draftFor(saved, saved.provider, connections[saved.provider]),
  );
  const [refused, setRefused] = useState<{ for: Config; reason: string } | null>(null);
  const modelFromList = useModelFromList();
  const headingId = useId();
  const providerId = useId();
  const definition = providerCatalog[draft.provider];
  const update = (patch: Partial<Config>) => setDraft((current) => ({ ...current, ...patch }));
  const form = useRef<HTMLFormElement>(null);

  return (
    <section
      aria-labelledby={headingId}
      className="w-full max-w-md rounded-lg border border-gray-200 bg-gray-50 p-4 text-left shadow-sm dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
        <PlugZap className="size-4" aria-hidden /> Connect a provider
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Your key stays in this browser; messages go straight to the provider.
      </p>
      <WaysToStart
        onAddKey={() => {
          form.current?.scrollIntoView({ block: 'nearest' });
          form.current?.querySelector<HTMLInputElement>('input[type=password]')?.focus();
        }}
      />
      <form
        ref={form}
        className="mt-4 flex flex-col gap-4 border-t border-gray-200 pt-4 dark:border-gray-800"
        onSubmit={(event) => {
          event.preventDefault();
          const reason = chat.saveConfiguration(draft);
          setRefused(reason ? { for: draft, reason } : null);
          if (!reason) void chat.newConversation().then(() => chat.focus('composer'));
        }}
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={providerId}>Provider</Label>
          <NativeSelect
            id={providerId}
            value={definition.multipleConnections ? endpointChoice : draft.provider}
            onChange={(event) => {
              const choice = event.target.value;
              if (choice === endpointChoice) setDraft(chat.newEndpointDraft(draft));
              else if (isProviderId(choice)) setDraft(draftFor(draft, choice, connections[choice]));
            }}
          >
            {providerIds
              // The browser's own model is a way of its own, above: this form is for keys.
              .filter((id) => !providerCatalog[id].multipleConnections && takesKey(id))
              .map((id) => (
                <option key={id} value={id}>
                  {providerCatalog[id].label}
                </option>
              ))}
            <option value={endpointChoice}>OpenAI-compatible server (Ollama, LM Studio…)</option>
          </NativeSelect>
        </div>
        <ApiKeyField draft={draft} update={update} />
        {definition.fields
          .filter(({ kind }) => kind === 'text' || kind === 'model')
          .map((field) => (
            <SettingControl key={field.key} field={field} draft={draft} update={update} />
          ))}
        <ConnectionTest
          draft={draft}
          onListed={(models) =>
            // The recommended model where the key can use it; a model the key cannot use is replaced.
            setDraft((current) =>
              models.some(({ id }) => id === current.model)
                ? current
                : { ...current, model: modelFromList(current, models) },
            )
          }
        />
        <Button type="submit">Save and start chatting</Button>
        {refused?.for === draft && (
          <p role="alert" className="text-xs text-red-700 dark:text-red-400">
            {refused.reason}
          </p>
        )}
      </form>
    </section>
  );
}
