import { useId, useState } from 'react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { builtinTools } from '../../state/builtin-source.ts';
import { Button } from '../ui/button.tsx';
import { Input, Label } from '../ui/input.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';

// Outside the first load: the MCP servers' list and its dialog load with the settings' first paint.
const McpServerSettings = lazyPart<Record<string, never>>(() =>
  import('./mcp-server-settings.tsx').then((loaded) => ({ default: loaded.McpServerSettings })),
);

/** An 'Always allow' key (`{server}/{tool}`) as the user knows it: the tool and where it runs. */
function allowedTool(key: string): { tool: string; source: string } {
  const at = key.lastIndexOf('/');
  const server = at === -1 ? '' : key.slice(0, at);
  return { tool: key.slice(at + 1), source: server === builtinTools.id ? builtinTools.label : server };
}

/** 'Tools': how many tool steps a reply may take, and the tools allowed without asking. */
export function ToolSettings() {
  const { alwaysAllowed, stepLimit } = useChatState((state) => state.toolSettings);
  const stepsId = useId();
  const hintId = useId();
  // What is typed, until it is a whole number from 1 to 100 (then saved) or the field is left.
  const [typed, setTyped] = useState<string | null>(null);
  const save = (value: string) => {
    const limit = Number(value);
    if (value.trim() !== '' && Number.isInteger(limit) && limit >= 1 && limit <= 100)
      chat.setToolStepLimit(limit);
  };

  return (
    <section
      aria-labelledby={`${stepsId}-heading`}
      className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
    >
      <h3 id={`${stepsId}-heading`} className="text-sm font-semibold">
        Tools
      </h3>
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={stepsId}>Tool steps per reply</Label>
        <Input
          id={stepsId}
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          step={1}
          aria-describedby={hintId}
          value={typed ?? String(stepLimit)}
          onChange={(event) => {
            setTyped(event.target.value);
            save(event.target.value);
          }}
          onBlur={() => setTyped(null)}
          className="w-20"
        />
      </div>
      <p id={hintId} className="text-xs text-faint-foreground">
        How many times in a row a reply may call tools before it must answer (1 to 100).
      </p>
      <McpServerSettings />
      <p className="mt-1 text-sm font-medium text-gray-700 dark:text-gray-300">Always allowed</p>
      {alwaysAllowed.length === 0 ? (
        <p className="text-xs text-faint-foreground">
          None: every tool call asks first. 'Always allow' on a call adds its tool here.
        </p>
      ) : (
        <ul aria-label="Always allowed tools" className="flex flex-col gap-1">
          {alwaysAllowed.map((key) => {
            const { tool, source } = allowedTool(key);
            return (
              <li key={key} className="flex items-center justify-between gap-2 text-sm">
                <span className="min-w-0 truncate" title={key}>
                  <code className="font-mono text-xs">{tool}</code>
                  {source && <span className="text-faint-foreground"> ({source})</span>}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Revoke ${tool}`}
                  onClick={() => chat.revokeToolPermission(key)}
                >
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
