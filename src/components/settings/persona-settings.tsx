import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import type { ModelPin } from '../../domain/conversation.ts';
import { personasOf, promptLimits, promptPreview, promptProblem, type Prompt } from '../../domain/prompts.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { LazyModelList } from '../chat/lazy-model-list.tsx';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';
import { SavedRow } from './saved-row.tsx';

/** 'gpt-5 (OpenAI)': a model as the model list names it. */
function useModelName(pin: ModelPin | undefined): string {
  return useChatState((state) => {
    if (!pin) return '';
    const config = targetConfig(state, null, pin);
    return `${modelOf(config)} (${connectionLabel(config)})`;
  });
}

/** 'Model': none (the conversation keeps its own) or one from the model list. */
function PersonaModelField({
  model,
  onChange,
}: {
  model: ModelPin | undefined;
  onChange(model?: ModelPin): void;
}) {
  const [open, setOpen] = useState(false);
  const name = useModelName(model);
  const shown = model ? name : "The conversation's own";
  const choose = (pin?: ModelPin) => {
    onChange(pin);
    setOpen(false);
  };
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-gray-700 dark:text-gray-300">Model</span>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger
          aria-label={`Model: ${shown}`}
          className="inline-flex h-9 w-full items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-3 text-left text-sm hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-gray-800"
        >
          <span className="truncate">{shown}</span>
          <ChevronDown className="size-4 shrink-0 text-gray-500" aria-hidden />
        </PopoverTrigger>
        <PopoverContent align="start" className="w-80" aria-label="Choose the persona's model">
          {model && (
            <button
              type="button"
              onClick={() => choose()}
              className="mb-2 w-full rounded border border-gray-200 px-2 py-1 text-left text-xs hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
            >
              No model of its own: the conversation keeps its model
            </button>
          )}
          <LazyModelList current={model} onChoose={choose} />
        </PopoverContent>
      </Popover>
      <p className="text-xs text-faint-foreground">
        Conversations started with this persona, or given it, are set to this model.
      </p>
    </div>
  );
}

/** 'New persona' or 'Edit persona': a name, a system prompt and optionally a model. */
function PersonaEditor({ persona, onClose }: { persona: Prompt | null; onClose(): void }) {
  const [name, setName] = useState(persona?.title ?? '');
  const [body, setBody] = useState(persona?.body ?? '');
  const [model, setModel] = useState(persona?.model);
  const [refused, setRefused] = useState<{ name: string; body: string; reason: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const nameId = useId();
  const bodyId = useId();

  const save = async () => {
    const reason = promptProblem(name, body, true);
    if (reason) return setRefused({ name, body, reason });
    setSaving(true);
    // Null or false: refused or not saved, and the toast said why.
    const saved = persona
      ? await chat.changePrompt(persona.id, { title: name, body, model })
      : await chat.createPrompt(name, body, model ? { model } : {});
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={persona ? 'Edit persona' : 'New persona'}>
        <form
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={nameId}>Name</Label>
            <Input
              id={nameId}
              value={name}
              maxLength={promptLimits.titleLength}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="flex min-h-0 flex-col gap-1.5">
            <Label htmlFor={bodyId}>System prompt</Label>
            <Textarea
              id={bodyId}
              value={body}
              rows={8}
              maxLength={promptLimits.bodyLength}
              onChange={(event) => setBody(event.target.value)}
              className="min-h-32 resize-y text-sm"
            />
          </div>
          <PersonaModelField model={model} onChange={setModel} />
          {refused?.name === name && refused.body === body && (
            <p role="alert" className="text-xs text-red-700 dark:text-red-400">
              {refused.reason}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={saving}>
              Save
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * 'Personas': saved system prompts with a name and optionally a model, each with 'Edit' and
 * 'Delete' (with Undo), and 'New persona'. One is chosen in 'Conversation settings', in a new
 * conversation, from the palette, or for a project (docs/prompts.md#personas).
 */
export function PersonaSettings() {
  const personas = personasOf(useChatState((state) => state.prompts));
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const headingId = useId();
  const hintId = useId();

  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Personas
      </h3>
      <p id={hintId} className="text-xs text-faint-foreground">
        A system prompt with a name, and a model if you like: choose one in a new conversation or in
        &apos;Conversation settings&apos;.
      </p>
      {personas.length > 0 && (
        <ul aria-label="Saved personas" className="flex flex-col gap-1">
          {personas.map((persona) => (
            <SavedRow
              key={persona.id}
              title={persona.title}
              preview={
                persona.model
                  ? `${persona.model.model} · ${promptPreview(persona.body)}`
                  : promptPreview(persona.body)
              }
              onEdit={() => setEditing(persona)}
              onDelete={() => void chat.deletePrompt(persona.id)}
            />
          ))}
        </ul>
      )}
      <div>
        <Button variant="outline" size="sm" aria-describedby={hintId} onClick={() => setEditing('new')}>
          New persona
        </Button>
      </div>
      {editing && (
        <PersonaEditor persona={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
