import { Check } from 'lucide-react';
import { Fragment, useEffect, useId, useMemo, useRef, useState } from 'react';
import { connectionIdOf, providerIds, type Config } from '../../domain/config.ts';
import type { ModelPin } from '../../domain/conversation.ts';
import {
  capabilitiesOf,
  configProblem,
  connectionLabel,
  isOffered,
  modelOf,
  withModel,
} from '../../domain/provider-catalog.ts';
import { describeCapabilities } from '../../domain/provider-definitions/capabilities.ts';
import { dayOf, retirementLabel, type Day } from '../../domain/provider-definitions/retirement.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useRetirements } from '../../hooks/use-retirements.ts';
import { matchesIdentifier } from '../../lib/fuzzy-match.ts';
import { chat } from '../../state/chat.ts';
import { connectionsOf, liveModelsOf, type ConnectionState } from '../../state/chat-store.ts';
import { Input } from '../ui/input.tsx';

interface ModelGroup {
  connectionId: string;
  pin: Omit<ModelPin, 'model'>;
  label: string;
  models: { id: string; retired: boolean; summary: string }[];
}

/**
 * Every connection that can be asked (a key, an endpoint where one is needed, a browser that has
 * the model), in the providers' order, and its models: the built-in list, its live list and its
 * saved model.
 */
function modelGroups(
  state: ConnectionState,
  { modelEntries }: ReturnType<typeof useRetirements>,
  today: Day,
): ModelGroup[] {
  // The saved configuration last: it is newer than its remembered copy.
  const order = (connection: Config) => providerIds.indexOf(connection.provider);
  return (
    connectionsOf(state)
      .filter((connection) => configProblem(withModel(connection, 'any')) === null)
      // The browser's own model only where this browser has one (a connection saved elsewhere stays hidden).
      .filter((connection) => isOffered(connection.provider))
      .sort((a, b) => order(a) - order(b) || connectionLabel(a).localeCompare(connectionLabel(b)))
      .map((connection) => {
        const connectionId = connectionIdOf(connection);
        const live = liveModelsOf(state, connectionId) ?? [];
        const reported = new Map(live.map((model) => [model.id, model.capabilities]));
        const saved = modelOf(connection);
        // Current models first, the recommended on top; retired ones last, marked.
        const entries = modelEntries(connection.provider, today, live, saved ? [saved] : []);
        const models = entries.map((entry) => ({
          id: entry.id,
          retired: entry.retired,
          summary: [
            retirementLabel(entry),
            describeCapabilities(capabilitiesOf(withModel(connection, entry.id), reported.get(entry.id))),
          ]
            .filter(Boolean)
            .join(' · '),
        }));
        const pin = connection.endpointId
          ? { provider: connection.provider, endpointId: connection.endpointId }
          : { provider: connection.provider };
        return { connectionId, pin, label: connectionLabel(connection), models };
      })
  );
}

export interface ModelListProps {
  /** The choice shown as current, if any; several while picking models to compare. */
  current?: ModelPin | readonly ModelPin[] | undefined;
  onChoose(pin: ModelPin): void;
}

/** A searchable list of the models of every configured provider, grouped by provider. */
export function ModelList({ current, onChoose }: ModelListProps) {
  const config = useChatState((state) => state.config);
  const connections = useChatState((state) => state.connections);
  const modelLists = useChatState((state) => state.modelLists);
  const retirements = useRetirements();
  const groups = useMemo(
    () => modelGroups({ config, connections, modelLists }, retirements, dayOf(new Date())),
    [config, connections, modelLists, retirements],
  );
  const [query, setQuery] = useState('');
  const baseId = useId();
  const currents = current === undefined ? [] : 'provider' in current ? [current] : current;
  const isChosen = (connectionId: string, model: string) =>
    currents.some((pin) => connectionIdOf(pin) === connectionId && pin.model === model);

  // Opened, the list shows the current model, which may be far down it: once, on the first render.
  // Only the list scrolls (not the page behind the popover), and the search field keeps the focus.
  const list = useRef<HTMLDivElement>(null);
  const chosenItem = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const box = list.current;
    const item = chosenItem.current;
    // As scrollIntoView({ block: 'nearest' }) would, but in the list alone (its offset parent).
    if (box && item) box.scrollTop = Math.max(0, item.offsetTop + item.offsetHeight - box.clientHeight);
  }, []);

  // The live lists are asked for when the list opens, once per connection.
  const connectionIds = groups.map(({ connectionId }) => connectionId).join('\n');
  useEffect(() => {
    for (const id of connectionIds.split('\n')) if (id) void chat.refreshModelList(id);
  }, [connectionIds]);

  const needle = query.trim().toLowerCase();
  const shown = groups
    .map((group) => ({
      ...group,
      models: group.label.toLowerCase().includes(needle)
        ? group.models
        : group.models.filter(({ id }) => matchesIdentifier(needle, id)),
    }))
    .filter((group) => group.models.length > 0);

  // The list opens scrolled to the first chosen model.
  const firstChosen = shown
    .flatMap((group) =>
      group.models
        .filter(({ id }) => isChosen(group.connectionId, id))
        .map(({ id }) => `${group.connectionId}\n${id}`),
    )
    .at(0);

  return (
    <div className="flex flex-col gap-2">
      <Input
        aria-label="Search models"
        placeholder="Search models"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        className="h-8"
      />
      <div ref={list} className="relative max-h-72 overflow-y-auto">
        {groups.length === 0 && (
          <p className="p-2 text-xs text-muted-foreground">
            Save a key for a provider in the settings panel to choose its models here.
          </p>
        )}
        {groups.length > 0 && shown.length === 0 && (
          <p className="p-2 text-xs text-muted-foreground">No model matches “{query}”.</p>
        )}
        {shown.map((group, index) => (
          <div key={group.connectionId} role="group" aria-labelledby={`${baseId}-${index}`} className="mb-2">
            <div id={`${baseId}-${index}`} className="px-2 py-1 text-xs font-semibold text-muted-foreground">
              {group.label}
            </div>
            {group.models.map(({ id: model, retired, summary }, modelIndex) => {
              const chosen = isChosen(group.connectionId, model);
              const summaryId = `${baseId}-${index}-${modelIndex}`;
              const firstRetired = retired && !group.models[modelIndex - 1]?.retired;
              return (
                <Fragment key={model}>
                  {firstRetired && (
                    <div className="mt-1 border-t border-gray-200 px-2 pt-1 text-xs text-faint-foreground dark:border-gray-700">
                      Retired upstream
                    </div>
                  )}
                  <button
                    ref={chosen && firstChosen === `${group.connectionId}\n${model}` ? chosenItem : undefined}
                    type="button"
                    aria-pressed={chosen}
                    aria-label={model}
                    aria-describedby={summary ? summaryId : undefined}
                    onClick={() => onChoose({ ...group.pin, model })}
                    className="flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-sm hover:bg-gray-100 focus-visible:bg-gray-100 focus-visible:outline-none dark:hover:bg-gray-800 dark:focus-visible:bg-gray-800"
                  >
                    <span className="flex min-w-0 flex-col">
                      <span className="truncate">{model}</span>
                      {summary && (
                        <span id={summaryId} className="truncate text-xs text-faint-foreground">
                          {summary}
                        </span>
                      )}
                    </span>
                    {chosen && <Check className="size-3.5 shrink-0" aria-hidden />}
                  </button>
                </Fragment>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
