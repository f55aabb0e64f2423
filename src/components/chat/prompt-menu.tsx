import { useEffect, useId, useMemo, useState, type RefObject } from 'react';
import { orderPrompts, promptPreview, promptVariables, type Prompt } from '../../domain/prompts.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { cn } from '../../lib/cn.ts';
import { matchScore } from '../../lib/fuzzy-match.ts';
import { chat } from '../../state/chat.ts';
import { PromptForm } from './prompt-form.tsx';

export interface PromptMenuProps {
  /** The message box. */
  textarea: RefObject<HTMLTextAreaElement | null>;
  text: string;
  setText(text: string): void;
}

/** Options listed at most: the rest are a few more letters away. */
const optionLimit = 50;

/** The variables' form, open for a prompt: replacing the `/query` (from the menu) or at the caret (the palette). */
interface Filling {
  prompt: Prompt;
  variables: string[];
  whole: boolean;
}

/**
 * The `/` menu of saved prompts, above the message box while its text starts with `/`, and the
 * form asking for a prompt's variables. Loaded when first wanted (docs/prompts.md): the message box
 * hands it its element, whose keys it takes while the list is open, and which it wires as the
 * list's combobox meanwhile. Also inserts the prompt the palette asks for (view-store.ts).
 */
export default function PromptMenu({ textarea, text, setText }: PromptMenuProps) {
  const prompts = useChatState((state) => state.prompts);
  const asked = useViewState((state) => state.promptToInsert);
  const listId = useId();
  const [activeIndex, setActiveIndex] = useState(0);
  // Escape hides the list until the text is shorter than when it was pressed.
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const [filling, setFilling] = useState<Filling | null>(null);

  const query = text.slice(1);
  const entries = useMemo(
    () =>
      orderPrompts(prompts)
        .map((prompt) => ({ prompt, score: matchScore(query, prompt.title) }))
        .filter((entry) => entry.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, optionLimit),
    [prompts, query],
  );
  // The palette asked for a prompt, to go in at the caret: one without variables goes in at once,
  // one with variables once its form is filled in (the request stays until then, and keeps this
  // part mounted).
  const askedPrompt = asked === null ? undefined : prompts.find((prompt) => prompt.id === asked);
  const askedVariables = askedPrompt ? promptVariables(askedPrompt.body) : [];
  const form: Filling | null =
    filling ??
    (askedPrompt && askedVariables.length > 0
      ? { prompt: askedPrompt, variables: askedVariables, whole: false }
      : null);
  const shown =
    text.startsWith('/') &&
    !query.includes('\n') &&
    form === null &&
    !(closedAt !== null && text.startsWith(closedAt)) &&
    (entries.length > 0 || prompts.length === 0);
  const active = Math.min(activeIndex, Math.max(0, entries.length - 1));
  const optionId = (index: number) => `${listId}-${index}`;
  // With nothing saved, a hint only: the message box keeps its role and its keys (Enter sends).
  const listed = shown && entries.length > 0;
  const activeOption = listed ? optionId(active) : null;

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

  const choose = (prompt: Prompt) => {
    const variables = promptVariables(prompt.body);
    if (variables.length > 0) return setFilling({ prompt, variables, whole: true });
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
        choose(chosen.prompt);
      } else if (event.key === 'Escape') {
        // Escape closes the list and keeps the text.
        setClosedAt(text);
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
      {shown && !listed && (
        <p className="mx-auto mb-2 max-w-3xl px-1 text-xs text-muted-foreground">
          No saved prompts yet — add some in Settings → Prompts.
        </p>
      )}
      {listed && (
        <div className="relative mx-auto max-w-3xl">
          <ul
            id={listId}
            role="listbox"
            aria-label="Prompts"
            className="absolute right-0 bottom-2 left-0 z-20 max-h-72 overflow-y-auto rounded-md border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-800 dark:bg-gray-900"
          >
            {entries.map((entry, index) => (
              <li
                key={entry.prompt.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // Named by its title; its first line describes it.
                aria-labelledby={`${optionId(index)}-title`}
                aria-describedby={`${optionId(index)}-text`}
                // The focus stays in the message box.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => index !== active && setActiveIndex(index)}
                onClick={() => choose(entry.prompt)}
                className={cn(
                  'flex cursor-pointer flex-col rounded px-3 py-1.5 text-sm',
                  index === active && 'bg-indigo-50 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100',
                )}
              >
                <span id={`${optionId(index)}-title`} className="truncate font-medium">
                  {entry.prompt.title}
                </span>
                <span id={`${optionId(index)}-text`} className="truncate text-xs text-muted-foreground">
                  {promptPreview(entry.prompt.body)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {form && (
        <PromptForm
          key={form.prompt.id}
          prompt={form.prompt}
          variables={form.variables}
          onInsert={(filled) => {
            insert(filled, form.whole);
            if (form.whole) setClosedAt(filled);
            closeForm();
          }}
          onCancel={closeForm}
          onClosed={() => textarea.current?.focus()}
        />
      )}
    </>
  );
}
