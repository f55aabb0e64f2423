import { useId, useState, type FormEvent } from 'react';
import type { McpAuth, McpServer } from '../../domain/mcp-servers.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { cn } from '../../lib/cn.ts';
import { boundedText } from '../../lib/bounded-text.ts';
import { chat } from '../../state/chat.ts';
import type { McpToolView } from '../../state/mcp-servers.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';
import { Switch } from '../ui/switch.tsx';
import { mcpStatusLine } from './mcp-status.ts';

/** 'MCP servers' in Tools settings: each server with its state and tools, and 'Add server'. */
export function McpServerSettings() {
  const servers = useChatState((state) => state.mcpServers);
  const [adding, setAdding] = useState(false);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-2 flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <p id={headingId} className="text-sm font-medium text-gray-700 dark:text-gray-300">
          MCP servers
        </p>
        <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
          Add server
        </Button>
      </div>
      {servers.length === 0 ? (
        <p className="text-xs text-faint-foreground">
          None yet. An MCP server gives models tools of its own; the browser calls it directly, so it must
          allow this site (CORS).
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {servers.map((server) => (
            <ServerRow key={server.id} server={server} />
          ))}
        </ul>
      )}
      <AddServerDialog open={adding} onOpenChange={setAdding} />
    </section>
  );
}

function ServerRow({ server }: { server: McpServer }) {
  const status = useChatState((state) => state.mcpStatus[server.id]);
  const [tools, setTools] = useState<McpToolView[] | 'loading' | string | null>(null);
  const nameId = useId();
  const line = mcpStatusLine(server, status);
  const showTools = () => {
    setTools('loading');
    chat
      .mcpServerTools(server.id)
      .then(setTools, (error: unknown) => setTools(error instanceof Error ? error.message : String(error)));
  };
  return (
    <li
      aria-labelledby={nameId}
      className="flex flex-col gap-1.5 rounded-md border border-gray-200 p-2 dark:border-gray-800"
    >
      <div className="flex items-center justify-between gap-2">
        <span id={nameId} className="min-w-0 truncate text-sm font-medium" title={server.url}>
          {server.name}
        </span>
        <Switch
          on={server.enabled}
          onChange={(on) => chat.setMcpServerEnabled(server.id, on)}
          aria-label={`Use ${server.name}`}
        />
      </div>
      <p className="truncate text-xs text-faint-foreground" title={server.url}>
        {server.url}
      </p>
      <p
        role="status"
        className={cn(
          'text-xs',
          line.tone === 'ok' && 'text-green-700 dark:text-green-400',
          line.tone === 'muted' && 'text-muted-foreground',
          line.tone === 'problem' && 'text-red-700 dark:text-red-400',
        )}
      >
        {boundedText(line.text, 400).shown}
      </p>
      <div className="flex flex-wrap gap-1.5">
        {server.enabled && status?.state === 'needs-sign-in' && (
          <Button size="sm" onClick={() => chat.signInMcpServer(server.id)}>
            Sign in to {server.name}
          </Button>
        )}
        {server.enabled && status?.state === 'failed' && (
          <Button variant="outline" size="sm" onClick={() => chat.reconnectMcpServer(server.id)}>
            Try again
          </Button>
        )}
        {server.enabled && status?.state !== 'failed' && status?.state !== 'needs-sign-in' && (
          <Button
            variant="outline"
            size="sm"
            aria-expanded={tools !== null}
            onClick={() => (tools === null ? showTools() : setTools(null))}
          >
            {tools === null ? 'Show tools' : 'Hide tools'}
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Remove ${server.name}`}
          onClick={() => chat.removeMcpServer(server.id)}
        >
          Remove
        </Button>
      </div>
      {tools !== null && <ToolList server={server} tools={tools} onChange={setTools} />}
    </li>
  );
}

function ToolList({
  server,
  tools,
  onChange,
}: {
  server: McpServer;
  tools: McpToolView[] | 'loading' | string;
  onChange(tools: McpToolView[]): void;
}) {
  if (tools === 'loading') return <p className="text-xs text-muted-foreground">Loading its tools…</p>;
  if (typeof tools === 'string')
    return <p className="text-xs text-red-700 dark:text-red-400">{boundedText(tools, 400).shown}</p>;
  if (tools.length === 0) return <p className="text-xs text-muted-foreground">It offers no tools.</p>;
  return (
    <ul
      aria-label={`Tools of ${server.name}`}
      className="flex flex-col gap-1.5 border-l-2 border-gray-200 pl-2 dark:border-gray-700"
    >
      {tools.map(({ tool, on }) => {
        const name = tool.definition.name;
        const hints = [tool.hints.readOnly && 'read-only', tool.hints.destructive && 'destructive'].filter(
          Boolean,
        );
        return (
          <li key={name} className="flex items-start justify-between gap-2 text-xs">
            <span className="min-w-0">
              <span className="font-medium text-gray-800 dark:text-gray-200">
                {boundedText(tool.hints.title || name, 120).shown}
              </span>
              {hints.length > 0 && <span className="text-faint-foreground"> ({hints.join(', ')})</span>}
              {tool.definition.description && (
                <span className="line-clamp-2 text-muted-foreground">
                  {boundedText(tool.definition.description, 400).shown}
                </span>
              )}
            </span>
            <Switch
              on={on}
              aria-label={`Offer ${name}`}
              onChange={(next) => {
                chat.setMcpToolEnabled(server.id, name, next);
                onChange(tools.map((entry) => (entry.tool === tool ? { ...entry, on: next } : entry)));
              }}
            />
          </li>
        );
      })}
    </ul>
  );
}

const authChoices: { value: McpAuth; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'bearer', label: 'Bearer token' },
  { value: 'headers', label: 'Custom headers' },
  { value: 'oauth', label: 'Sign in (OAuth)' },
];

function AddServerDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [auth, setAuth] = useState<McpAuth>('none');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { url: useId(), name: useId(), auth: useId(), secret: useId(), problem: useId() };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const added = await chat.addMcpServer({
      url: field('url'),
      name: field('name'),
      auth,
      token: field('token'),
      headerLines: field('headers'),
      clientId: field('clientId'),
    });
    if (added.ok) {
      setProblem(null);
      setAuth('none');
      onOpenChange(false);
    } else setProblem(added.problem);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setProblem(null);
        onOpenChange(next);
      }}
    >
      <DialogContent
        title="Add MCP server"
        description="Its tools are offered to models that take tools, and each call asks you first. Tokens and headers are kept like your API keys: never exported."
        className="w-[min(30rem,calc(100vw-2rem))]"
      >
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3" noValidate>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.url}>Server URL</Label>
            <Input
              id={ids.url}
              name="url"
              type="url"
              required
              placeholder="https://example.com/mcp"
              autoComplete="off"
              aria-describedby={problem ? ids.problem : undefined}
              aria-invalid={problem ? true : undefined}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.name}>Name (optional)</Label>
            <Input id={ids.name} name="name" autoComplete="off" maxLength={100} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.auth}>Authentication</Label>
            <select
              id={ids.auth}
              value={auth}
              onChange={(event) => setAuth(event.target.value as McpAuth)}
              className="h-9 rounded-md border border-gray-300 bg-white px-2 text-sm dark:border-gray-700 dark:bg-gray-900"
            >
              {authChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
          {auth === 'bearer' && (
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.secret}>Token</Label>
              <Input id={ids.secret} name="token" type="password" autoComplete="off" />
            </div>
          )}
          {auth === 'headers' && (
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.secret}>Headers, one per line</Label>
              <textarea
                id={ids.secret}
                name="headers"
                rows={3}
                placeholder="X-Api-Key: …"
                spellCheck={false}
                className="rounded-md border border-gray-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-gray-700 dark:bg-gray-900"
              />
            </div>
          )}
          {auth === 'oauth' && (
            <div className="flex flex-col gap-1">
              <Label htmlFor={ids.secret}>Client ID (optional)</Label>
              <Input id={ids.secret} name="clientId" autoComplete="off" />
              <p className="text-xs text-faint-foreground">
                Only if the server’s owner registered this app for you; otherwise it registers itself. You
                sign in after adding it.
              </p>
            </div>
          )}
          {problem && (
            <p id={ids.problem} role="alert" className="text-sm text-red-700 dark:text-red-400">
              {problem}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Add server</Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
