import { useId, useRef, useState } from 'react';
import {
  messagePrompts,
  orderPrompts,
  promptLimits,
  promptPreview,
  promptProblem,
  type Prompt,
} from '../../domain/prompts.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { PersonaSettings } from './persona-settings.tsx';
import { SavedRow } from './saved-row.tsx';

/** 'New prompt' or 'Edit {title}': a title and the text, saved with 'Save'. */
function PromptEditor({ prompt, onClose }: { prompt: Prompt | null; onClose(): void }) {
  const [title, setTitle] = useState(prompt?.title ?? '');
  const [body, setBody] = useState(prompt?.body ?? '');
  // Why the last 'Save' was refused, while the text is the one refused.
  const [refused, setRefused] = useState<{ title: string; body: string; reason: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const hintId = useId();

  const save = async () => {
    const reason = promptProblem(title, body);
    if (reason) return setRefused({ title, body, reason });
    setSaving(true);
    // Null or false: refused or not saved, and the toast said why.
    const saved = prompt
      ? await chat.changePrompt(prompt.id, { title, body })
      : await chat.createPrompt(title, body);
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={prompt ? 'Edit prompt' : 'New prompt'}>
        <form
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={titleId}>Title</Label>
            <Input
              id={titleId}
              value={title}
              maxLength={promptLimits.titleLength}
              onChange={(event) => setTitle(event.target.value)}
            />
          </div>
          <div className="flex min-h-0 flex-col gap-1.5">
            <Label htmlFor={bodyId}>Prompt</Label>
            <Textarea
              id={bodyId}
              value={body}
              rows={10}
              maxLength={promptLimits.bodyLength}
              aria-describedby={hintId}
              onChange={(event) => setBody(event.target.value)}
              className="min-h-32 resize-y font-mono text-xs"
            />
            <p id={hintId} className="text-xs text-faint-foreground">
              Write {'{{name}}'} where a value should be asked for.
            </p>
          </div>
          {refused?.title === title && refused.body === body && (
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
 * 'Prompts': the saved prompts, each with 'Edit' and 'Delete' (with Undo), 'New prompt', and
 * the prompts as a file ('Export prompts', 'Import prompts'). They are inserted into the message
 * box by typing '/' (docs/prompts.md).
 */
export function PromptSettings() {
  const prompts = useChatState((state) => state.prompts);
  const saved = orderPrompts(messagePrompts(prompts));
  // The prompt being edited; 'new' for a new one.
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const hintId = useId();

  return (
    <>
      <section
        aria-labelledby={headingId}
        className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
      >
        <h3 id={headingId} className="text-sm font-semibold">
          Prompts
        </h3>
        <p id={hintId} className="text-xs text-faint-foreground">
          Text you reuse, kept in this browser: type / at the start of the message box to insert one. The file
          of 'Export prompts' holds the personas too.
        </p>
        {saved.length > 0 && (
          <ul aria-label="Saved prompts" className="flex flex-col gap-1">
            {saved.map((prompt) => (
              <SavedRow
                key={prompt.id}
                title={prompt.title}
                preview={promptPreview(prompt.body)}
                onEdit={() => setEditing(prompt)}
                onDelete={() => void chat.deletePrompt(prompt.id)}
              />
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-describedby={hintId} onClick={() => setEditing('new')}>
            New prompt
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={prompts.length === 0}
            onClick={() => void chat.exportPrompts()}
          >
            Export prompts
          </Button>
          <Button variant="outline" size="sm" onClick={() => picker.current?.click()}>
            Import prompts
          </Button>
          <input
            ref={picker}
            type="file"
            accept=".json,application/json"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              // The same file may be picked again.
              event.target.value = '';
              if (file) void file.text().then((text) => chat.importPrompts(text));
            }}
          />
        </div>
        {editing && (
          <PromptEditor prompt={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
        )}
      </section>
      <PersonaSettings />
    </>
  );
}
