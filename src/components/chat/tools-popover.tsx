import { useCallback, useEffect, useId, useState } from 'react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { boundedText } from '../../lib/bounded-text.ts';
import { chat } from '../../state/chat.ts';
import type { ToolSourceView } from '../../state/tool-commands.ts';
import { Switch } from '../ui/switch.tsx';

export interface ToolsPopoverProps {
  conversationId: string;
  /** The model the next message goes to when it takes no tools (none is offered then); else ''. */
  offFor: string;
}

/** The places tools come from, each switched on or off for this conversation, with the tools it offers. */
export function ToolsPopover({ conversationId, offFor }: ToolsPopoverProps) {
  const [sources, setSources] = useState<ToolSourceView[] | null>(null);
  const switches = useChatState((state) => state.loaded[conversationId]?.toolSwitches);
  const read = useCallback(() => chat.toolSources(conversationId), [conversationId]);
  useEffect(() => {
    let live = true;
    void read().then((listed) => {
      if (live) setSources(listed);
    });
    return () => {
      live = false;
    };
  }, [read, switches]);

  return (
    <div className="flex flex-col gap-3 text-xs">
      <p className="text-sm font-medium">Tools in this conversation</p>
      {offFor && (
        <p role="note" className="text-amber-800 dark:text-amber-300">
          Tools are off for {offFor}: this model takes no tools, so none is offered to it. Choose another
          model to use them.
        </p>
      )}
      {sources === null ? (
        <p className="text-muted-foreground">Loading…</p>
      ) : (
        sources.map((source) => (
          <SourceSwitch
            key={source.id}
            source={source}
            onChange={(on) => {
              setSources(
                (current) =>
                  current && current.map((entry) => (entry.id === source.id ? { ...entry, on } : entry)),
              );
              void chat.setConversationTools(conversationId, source.id, on);
            }}
          />
        ))
      )}
      <p className="text-faint-foreground">Each call asks you first: allow it once, always, or deny it.</p>
    </div>
  );
}

function SourceSwitch({ source, onChange }: { source: ToolSourceView; onChange(on: boolean): void }) {
  const labelId = useId();
  const listId = useId();
  return (
    <section aria-labelledby={labelId} className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <span id={labelId} className="min-w-0 truncate text-sm font-medium" title={source.label}>
          {source.label}
        </span>
        <Switch
          on={source.on}
          onChange={onChange}
          aria-labelledby={labelId}
          aria-describedby={source.tools.length > 0 ? listId : undefined}
        />
      </div>
      {source.problem && (
        <p className="text-red-700 dark:text-red-400">
          Its tools could not be listed: {boundedText(source.problem, 300).shown}
        </p>
      )}
      {source.tools.length > 0 && (
        <ul id={listId} className="flex flex-col gap-1 border-l-2 border-gray-200 pl-2 dark:border-gray-700">
          {source.tools.map(({ definition, hints }) => (
            <li key={definition.name} className="min-w-0">
              <span className="font-medium text-gray-800 dark:text-gray-200">
                {boundedText(hints.title || definition.name, 120).shown}
              </span>
              {definition.description && (
                <span className="line-clamp-2 text-muted-foreground">
                  {boundedText(definition.description, 400).shown}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
