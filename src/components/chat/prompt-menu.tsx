import { useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import {
  fillPrompt,
  messagePrompts,
  orderPrompts,
  promptPreview,
  promptVariables,
  type Prompt,
} from '../../domain/prompts.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { cn } from '../../lib/cn.ts';
import { matchScore } from '../../lib/fuzzy-match.ts';
import { chat } from '../../state/chat.ts';
import { notify } from '../../state/notify.ts';
import type { McpPrompt } from '../../tools/mcp/types.ts';
import { PromptForm } from './prompt-form.tsx';

export interface PromptMenuProps {
  /** The message box. */
  textarea: RefObject<HTMLTextAreaElement | null>;
  text: string;
  setText(text: string): void;
}

/** Options listed at most of each kind (saved, MCP servers'): the rest are a few more letters away. */
const optionLimit = 50;

/** A prompt of a connected MCP server, with the server it comes from. */
interface ServerPrompt {
  serverId: string;
  serverName: string;
  prompt: McpPrompt;
  /** What the list shows: its title, else its name. */
  title: string;
}

type Entry =
  | { kind: 'saved'; key: string; prompt: Prompt; score: number }
  | ({ kind: 'mcp'; key: string; score: number } & ServerPrompt);

/** The variables' form, open for a prompt: replacing the `/query` (from the menu) or at the caret (the palette). */
type Filling =
  | { kind: 'saved'; prompt: Prompt; variables: string[]; whole: boolean }
  | { kind: 'mcp'; served: ServerPrompt };

/** An MCP server's prompt being got, and how to stop it. */
interface Getting {
  served: ServerPrompt;
  stop: AbortController;
}

/**
 * The `/` menu of saved prompts, then of the connected MCP servers' prompts (each marked with its
 * server), above the message box while its text starts with `/`; and the form asking for a
 * prompt's variables or arguments. Loaded when first wanted (docs/prompts.md): the message box
 * hands it its element, whose keys it takes while the list is open, and which it wires as the
 * list's combobox meanwhile. Also inserts the prompt the palette asks for (view-store.ts).
 *
 * The MCP prompts come after the saved ones rather than among them by score: they arrive and
 * change while the list is open (a server connecting, its list changing), and appended they never
 * move an option from under the user's keys; a library the user wrote also comes first.
 */
export default function PromptMenu({ textarea, text, setText }: PromptMenuProps) {
  const prompts = useChatState((state) => state.prompts);
  const servers = useChatState((state) => state.mcpServers);
  const statuses = useChatState((state) => state.mcpStatus);
  const asked = useViewState((state) => state.promptToInsert);
  const listId = useId();
  const [activeIndex, setActiveIndex] = useState(0);
  // Escape hides the list until the text is shorter than when it was pressed.
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const [filling, setFilling] = useState<Filling | null>(null);
  const [getting, setGetting] = useState<Getting | null>(null);
  // Why the last prompt could not be got, said while the text is what it was.
  const [failure, setFailure] = useState<{ message: string; text: string } | null>(null);
  const stopOnUnmount = useRef<AbortController | null>(null);
  useEffect(() => () => stopOnUnmount.current?.abort(), []);

  const saved = useMemo(() => orderPrompts(messagePrompts(prompts)), [prompts]);
  // Only what the servers already connected said: the menu connects nothing and waits for nothing.
  const served = useMemo(
    () =>
      servers
        .filter((server) => server.enabled)
        .flatMap((server): ServerPrompt[] => {
          const status = statuses[server.id];
          if (status?.state !== 'connected') return [];
          return status.prompts.map((prompt) => ({
            serverId: server.id,
            serverName: server.name,
            prompt,
            title: prompt.title ?? prompt.name,
          }));
        }),
    [servers, statuses],
  );
  const query = text.slice(1);
  const entries = useMemo((): Entry[] => {
    const best = <T extends { score: number }>(list: T[]) =>
      list
        .filter((entry) => entry.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, optionLimit);
    return [
      ...best(
        saved.map((prompt) => ({
          kind: 'saved' as const,
          key: `saved:${prompt.id}`,
          prompt,
          score: matchScore(query, prompt.title),
        })),
      ),
      ...best(
        served.map((item) => ({
          kind: 'mcp' as const,
          key: `mcp:${item.serverId}:${item.prompt.name}`,
          ...item,
          score: matchScore(query, item.title, item.prompt.name),
        })),
      ),
    ];
  }, [saved, served, query]);
  // The palette asked for a prompt, to go in at the caret: one without variables goes in at once,
  // one with variables once its form is filled in (the request stays until then, and keeps this
  // part mounted).
  const askedPrompt = asked === null ? undefined : prompts.find((prompt) => prompt.id === asked);
  const askedVariables = askedPrompt ? promptVariables(askedPrompt.body) : [];
  const form: Filling | null =
    filling ??
    (askedPrompt && askedVariables.length > 0
      ? { kind: 'saved', prompt: askedPrompt, variables: askedVariables, whole: false }
      : null);
  const shown =
    text.startsWith('/') &&
    !query.includes('\n') &&
    form === null &&
    getting === null &&
    !(closedAt !== null && text.startsWith(closedAt)) &&
    (entries.length > 0 || (saved.length === 0 && served.length === 0));
  const active = Math.min(activeIndex, Math.max(0, entries.length - 1));
  const optionId = (index: number) => `${listId}-${index}`;
  // With nothing saved, a hint only: the message box keeps its role and its keys (Enter sends).
  const listed = shown && entries.length > 0;
  const activeOption = listed ? optionId(active) : null;
  const failed = failure !== null && failure.text === text && getting === null ? failure.message : null;

  /**
   * Puts a body in the message box, in place of the whole `/query` or at the caret (over a
   * selection), the caret after it and the focus there. Written into the element first: React then
   * finds its value current, and leaves the caret where it is.
   */
  const insert = (body: string, whole: boolean) => {
    const element = textarea.current;
    if (!element) return;
    if (whole) element.setRangeText(body, 0, element.value.length, 'end');
    else element.setRangeText(body, element.selectionStart, element.selectionEnd, 'end');
    setText(element.value);
    element.focus();
  };

  /** Gets an MCP server's prompt, the arguments given (empty ones are not sent), into the message box. */
  const getServerPrompt = (item: ServerPrompt, values: Readonly<Record<string, string>>) => {
    stopOnUnmount.current?.abort();
    const stop = new AbortController();
    stopOnUnmount.current = stop;
    setFailure(null);
    setGetting({ served: item, stop });
    const asked = text;
    chat.getMcpPrompt(item.serverId, item.prompt.name, values, stop.signal).then(
      (got) => {
        if (stop.signal.aborted) return;
        setGetting(null);
        if (got.text.trim() === '') {
          setFailure({
            message: `The prompt ${item.title} of ${item.serverName} has no text to insert.`,
            text: asked,
          });
        } else {
          insert(got.text, true);
          // A text that starts with '/' is text, not a new query.
          setClosedAt(got.text);
        }
        if (got.note) notify.warning(got.note);
      },
      (error: unknown) => {
        if (stop.signal.aborted) return;
        setGetting(null);
        setFailure({ message: error instanceof Error ? error.message : String(error), text: asked });
      },
    );
  };

  const choose = (entry: Entry) => {
    if (entry.kind === 'mcp') {
      if (entry.prompt.arguments.length > 0) return setFilling({ kind: 'mcp', served: entry });
      return getServerPrompt(entry, {});
    }
    const { prompt } = entry;
    const variables = promptVariables(prompt.body);
    if (variables.length > 0) return setFilling({ kind: 'saved', prompt, variables, whole: true });
    insert(prompt.body, true);
    // A body that starts with '/' is text, not a new query.
    setClosedAt(prompt.body);
  };

  useEffect(() => {
    // Asked for a prompt without variables, or one that is gone.
    if (asked === null || askedVariables.length > 0) return;
    chat.insertPrompt(null);
    if (askedPrompt) insert(askedPrompt.body, false);
  });
  const closeForm = () => {
    if (filling) setFilling(null);
    else chat.insertPrompt(null);
  };

  // While a prompt is being got, Enter does not send the `/query`, and Escape stops; so does
  // typing: the text typed is the user's, and the prompt would replace it.
  useEffect(() => {
    const element = textarea.current;
    if (!element || !getting) return;
    const stopGetting = () => {
      getting.stop.abort();
      setGetting(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || (event.key !== 'Enter' && event.key !== 'Escape')) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.key !== 'Escape') return;
      stopGetting();
      setClosedAt(text);
    };
    element.addEventListener('keydown', onKeyDown);
    element.addEventListener('input', stopGetting);
    return () => {
      element.removeEventListener('keydown', onKeyDown);
      element.removeEventListener('input', stopGetting);
    };
  }, [textarea, getting, text]);

  // While the list is shown, the message box is its combobox, and its keys move and choose.
  useEffect(() => {
    const element = textarea.current;
    if (!element || !listed) return;
    const wiring: Record<string, string> = {
      role: 'combobox',
      'aria-expanded': 'true',
      'aria-controls': listId,
      'aria-autocomplete': 'list',
    };
    if (activeOption) wiring['aria-activedescendant'] = activeOption;
    for (const [name, value] of Object.entries(wiring)) element.setAttribute(name, value);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
      const last = entries.length - 1;
      const moves: Record<string, number> = {
        ArrowDown: active >= last ? 0 : active + 1,
        ArrowUp: active <= 0 ? last : active - 1,
      };
      const next = moves[event.key];
      const chosen = entries[active];
      if (next !== undefined && entries.length > 0) {
        setActiveIndex(next);
        document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
      } else if ((event.key === 'Enter' || event.key === 'Tab') && chosen && !event.shiftKey) {
        choose(chosen);
      } else if (event.key === 'Escape') {
        // Escape closes the list and keeps the text.
        setClosedAt(text);
        setFailure(null);
      } else return;
      // Taken here: the message box does not send, nor a shortcut run.
      event.preventDefault();
      event.stopPropagation();
    };
    element.addEventListener('keydown', onKeyDown);
    return () => {
      element.removeEventListener('keydown', onKeyDown);
      for (const name of Object.keys(wiring)) element.removeAttribute(name);
    };
  });

  return (
    <>
      {listed && (
        <div className="relative mx-auto max-w-3xl">
          <ul
            id={listId}
            role="listbox"
            aria-label="Prompts"
            className="absolute right-0 bottom-2 left-0 z-20 max-h-72 overflow-y-auto rounded-md border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-800 dark:bg-gray-900"
          >
            {entries.map((entry, index) => {
              const id = optionId(index);
              const about =
                entry.kind === 'saved' ? promptPreview(entry.prompt.body) : entry.prompt.description;
              return (
                <li
                  key={entry.key}
                  id={id}
                  role="option"
                  aria-selected={index === active}
                  // Named by its title, and an MCP prompt by its server too; its first line (a
                  // saved prompt's text, a server's description) describes it.
                  {...(entry.kind === 'saved'
                    ? { 'aria-labelledby': `${id}-title` }
                    : { 'aria-label': `${entry.title} — from ${entry.serverName}` })}
                  aria-describedby={about ? `${id}-text` : undefined}
                  // The focus stays in the message box.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseMove={() => index !== active && setActiveIndex(index)}
                  onClick={() => choose(entry)}
                  className={cn(
                    'flex cursor-pointer flex-col rounded px-3 py-1.5 text-sm',
                    index === active &&
                      'bg-indigo-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100',
                  )}
                >
                  <span className="flex items-baseline gap-2">
                    <span id={`${id}-title`} className="min-w-0 truncate font-medium">
                      {entry.kind === 'saved' ? entry.prompt.title : entry.title}
                    </span>
                    {entry.kind === 'mcp' && (
                      <span className="ml-auto max-w-[50%] shrink-0 truncate text-xs text-muted-foreground">
                        from {entry.serverName}
                      </span>
                    )}
                  </span>
                  {about && (
                    <span id={`${id}-text`} className="truncate text-xs text-muted-foreground">
                      {about}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {shown && !listed && (
        <p className="mx-auto mb-2 max-w-3xl px-1 text-xs text-muted-foreground">
          No saved prompts yet — add some in Settings → Prompts.
        </p>
      )}
      {/* There from the start, so that screen readers announce what goes into it. */}
      <p
        role="status"
        className={getting ? 'mx-auto mb-2 max-w-3xl px-1 text-xs text-muted-foreground' : 'sr-only'}
      >
        {getting && `Getting ${getting.served.title} from ${getting.served.serverName}… (Escape stops)`}
      </p>
      {failed && (
        <p role="alert" className="mx-auto mb-2 max-w-3xl px-1 text-xs text-red-700 dark:text-red-400">
          {failed}
        </p>
      )}
      {form?.kind === 'saved' && (
        <PromptForm
          key={form.prompt.id}
          title={form.prompt.title}
          fields={form.variables.map((name) => ({ name }))}
          onInsert={(values) => {
            // A field left empty leaves nothing in its place.
            const filled = fillPrompt(
              form.prompt.body,
              Object.fromEntries(form.variables.map((name) => [name, values.get(name) ?? ''])),
            );
            insert(filled, form.whole);
            if (form.whole) setClosedAt(filled);
            closeForm();
          }}
          onCancel={closeForm}
          onClosed={() => textarea.current?.focus()}
        />
      )}
      {form?.kind === 'mcp' && (
        <PromptForm
          key={`${form.served.serverId}:${form.served.prompt.name}`}
          title={form.served.title}
          description={`${form.served.serverName} writes the prompt with these values; its text goes into the message box. A field left empty is not sent.`}
          fields={form.served.prompt.arguments}
          onInsert={(values) => {
            closeForm();
            getServerPrompt(form.served, Object.fromEntries(values));
          }}
          onCancel={closeForm}
          onClosed={() => textarea.current?.focus()}
        />
      )}
    </>
  );
}
