import { MessageSquare } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useAvailableActions } from '../../hooks/use-actions.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { isMac } from '../../hooks/use-shortcuts.ts';
import { cn } from '../../lib/cn.ts';
import { orderConversations } from '../../domain/conversation-order.ts';
import { orderProjects } from '../../domain/projects.ts';
import { messagePrompts, personasOf } from '../../domain/prompts.ts';
import { matchScore } from '../../lib/fuzzy-match.ts';
import { shortcutLabel } from '../../state/actions.ts';
import { chat } from '../../state/chat.ts';

interface Entry {
  key: string;
  title: string;
  hint?: string;
  score: number;
  conversation: boolean;
  run(): unknown;
}

/** Conversations (and prompts) listed at most: the rest are a few more letters away. */
const conversationLimit = 50;

/**
 * The command palette (Ctrl+K, Cmd+K on macOS): every action available now and every
 * conversation, filtered as one types; Enter or a click runs the chosen one.
 */
export default function CommandPalette() {
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const available = useAvailableActions();
  const conversations = useChatState((state) => state.list);
  const projects = useChatState((state) => state.projects);
  const prompts = useChatState((state) => state.prompts);
  const activeId = useChatState((state) => state.activeId);
  const listId = useId();
  const chosen = useRef(false);
  // Read while the palette first renders, before its input takes the focus.
  const [opener] = useState(() => document.activeElement);

  // Dismissed, the focus goes back where it was.
  useEffect(
    () => () => {
      if (!chosen.current && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [opener],
  );

  const entries = useMemo(() => {
    const commands: Entry[] = available
      .filter((action) => action.id !== 'palette')
      .map((action) => ({
        key: action.id,
        title: action.title,
        hint: action.shortcut && shortcutLabel(action.shortcut, isMac),
        score: matchScore(query, action.title, action.keywords),
        conversation: false,
        run: () => action.run(),
      }));
    // Each project's 'New conversation in {name}', found by the project's name.
    const starts: Entry[] = orderProjects(projects).map((project) => ({
      key: `project:${project.id}`,
      title: `New conversation in ${project.name}`,
      hint: 'Project',
      score: matchScore(query, `New conversation in ${project.name}`, 'project'),
      conversation: false,
      run: () => chat.newConversationInProject(project.id),
    }));
    // Each persona's 'New conversation as {name}'.
    const personas: Entry[] = personasOf(prompts).map((persona) => ({
      key: `persona:${persona.id}`,
      title: `New conversation as ${persona.title}`,
      hint: 'Persona',
      score: matchScore(query, `New conversation as ${persona.title}`, 'persona'),
      conversation: false,
      run: () => chat.newConversationAs(persona.id),
    }));
    // Each saved prompt, put into the message box (through its variables' form): there is one
    // while a conversation is open.
    const inserts: Entry[] = (activeId === null ? [] : messagePrompts(prompts)).map((prompt) => ({
      key: `prompt:${prompt.id}`,
      title: `Prompt: ${prompt.title}`,
      hint: 'Prompt',
      score: matchScore(query, `Prompt: ${prompt.title}`),
      conversation: false,
      run: () => chat.insertPrompt(prompt.id),
    }));
    const places: Entry[] = orderConversations(conversations)
      .filter((row) => row.id !== activeId)
      .map((row) => ({
        key: `conversation:${row.id}`,
        title: row.name,
        hint: row.place === 'archived' ? 'Archived' : 'Conversation',
        score: matchScore(query, row.name),
        conversation: true,
        run: () => chat.selectConversation(row.id),
      }));
    const found = (list: Entry[]) =>
      list.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score);
    // Typing a conversation's name puts it first; with nothing typed, commands lead.
    const all = [
      ...found(commands),
      ...found(starts),
      ...found(personas),
      ...found(inserts).slice(0, conversationLimit),
      ...found(places).slice(0, conversationLimit),
    ];
    return query.trim() === '' ? all : all.sort((a, b) => b.score - a.score);
  }, [available, conversations, projects, prompts, activeId, query]);

  const active = Math.min(activeIndex, Math.max(0, entries.length - 1));
  const optionId = (index: number) => `${listId}-${index}`;

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    // Closed first: an action may open another overlay (the model picker, the shortcuts).
    chosen.current = true;
    chat.setOverlay(null);
    void entry.run();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that compose a character (an input method's Enter) are the input method's.
    if (event.nativeEvent.isComposing) return;
    const last = entries.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: active >= last ? 0 : active + 1,
      ArrowUp: active <= 0 ? last : active - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next !== undefined && entries.length > 0) {
      event.preventDefault();
      setActiveIndex(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(entries[active]);
    }
  };

  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && chat.setOverlay(null)}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed top-[12dvh] left-1/2 z-50 flex max-h-[70dvh] w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 flex-col overflow-hidden rounded-lg border border-gray-200 bg-white shadow-xl dark:border-gray-800 dark:bg-gray-900"
        >
          <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
          <input
            role="combobox"
            aria-label="Search commands and conversations"
            aria-expanded
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={entries.length > 0 ? optionId(active) : undefined}
            placeholder="Type a command or a conversation…"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActiveIndex(0);
            }}
            onKeyDown={onKeyDown}
            className="w-full border-b border-gray-200 bg-transparent px-4 py-3 text-sm outline-none placeholder:text-gray-500 dark:border-gray-800 dark:placeholder:text-gray-400"
          />
          <p role="status" className="sr-only">
            {entries.length === 0 ? 'Nothing matches.' : `${entries.length} results`}
          </p>
          <ul id={listId} role="listbox" aria-label="Commands" className="overflow-y-auto p-1">
            {entries.map((entry, index) => (
              <li
                key={entry.key}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                onMouseMove={() => index !== active && setActiveIndex(index)}
                onClick={() => choose(entry)}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm',
                  index === active && 'bg-indigo-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100',
                )}
              >
                {entry.conversation && <MessageSquare className="size-4 shrink-0 opacity-70" aria-hidden />}
                <span className="min-w-0 flex-1 truncate">{entry.title}</span>
                {entry.hint && <span className="shrink-0 text-xs text-muted-foreground">{entry.hint}</span>}
              </li>
            ))}
            {entries.length === 0 && (
              <li role="presentation" className="px-3 py-2 text-sm text-muted-foreground">
                Nothing matches.
              </li>
            )}
          </ul>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
