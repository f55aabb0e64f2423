import { useId, useState } from 'react';
import type { ModelPin } from '../../domain/conversation.ts';
import { promptLimits, promptProblem, type Prompt } from '../../domain/prompts.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { PersonaModelField } from './persona-model-field.tsx';

/** What the two editors call things, and how their text is shown. */
const kinds = {
  prompt: {
    noun: 'prompt',
    name: 'Title',
    body: 'Prompt',
    hint: 'Write {{name}} where a value should be asked for.',
    rows: 10,
    bodyClass: 'font-mono text-xs',
  },
  persona: { noun: 'persona', name: 'Name', body: 'System prompt', hint: '', rows: 8, bodyClass: 'text-sm' },
} as const;

/**
 * 'New prompt' / 'Edit prompt' (a title and the text) or 'New persona' / 'Edit persona' (a name,
 * a system prompt and a model): saved with 'Save', refused with the reason under the fields.
 */
export function LibraryEditor({
  entry,
  persona,
  onClose,
}: {
  /** The prompt or persona edited; null for a new one. */
  entry: Prompt | null;
  persona: boolean;
  onClose(): void;
}) {
  const kind = kinds[persona ? 'persona' : 'prompt'];
  const [title, setTitle] = useState(entry?.title ?? '');
  const [body, setBody] = useState(entry?.body ?? '');
  const [model, setModel] = useState<ModelPin | undefined>(entry?.model);
  // Why the last 'Save' was refused, while the text is the one refused.
  const [refused, setRefused] = useState<{ title: string; body: string; reason: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const hintId = useId();

  const save = async () => {
    const reason = promptProblem(title, body, persona);
    if (reason) return setRefused({ title, body, reason });
    setSaving(true);
    // Null or false: refused or not saved, and the toast said why.
    const saved = entry
      ? await chat.changePrompt(entry.id, persona ? { title, body, model } : { title, body })
      : await chat.createPrompt(title, body, persona ? (model ? { model } : {}) : undefined);
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`${entry ? 'Edit' : 'New'} ${kind.noun}`}>
        <form
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={titleId}>{kind.name}</Label>
            <Input
              id={titleId}
              value={title}
              maxLength={promptLimits.titleLength}
              onChange={(event) => setTitle(event.target.value)}
            />
          </div>
          <div className="flex min-h-0 flex-col gap-1.5">
            <Label htmlFor={bodyId}>{kind.body}</Label>
            <Textarea
              id={bodyId}
              value={body}
              rows={kind.rows}
              maxLength={promptLimits.bodyLength}
              aria-describedby={kind.hint ? hintId : undefined}
              onChange={(event) => setBody(event.target.value)}
              className={`min-h-32 resize-y ${kind.bodyClass}`}
            />
            {kind.hint && (
              <p id={hintId} className="text-xs text-faint-foreground">
                {kind.hint}
              </p>
            )}
          </div>
          {persona && <PersonaModelField model={model} onChange={setModel} />}
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
