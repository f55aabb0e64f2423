import { useId, useState } from 'react';
import { fillPrompt, type Prompt } from '../../domain/prompts.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';

/**
 * 'Fill in {title}': a field per variable of a prompt, then 'Insert' puts the filled text in the
 * message box. The first field takes the focus; Enter in any inserts; closed, the focus goes back
 * to the message box (`onClosed`).
 */
export function PromptForm({
  prompt,
  variables,
  onInsert,
  onCancel,
  onClosed,
}: {
  prompt: Prompt;
  variables: readonly string[];
  onInsert(filled: string): void;
  onCancel(): void;
  onClosed(): void;
}) {
  // A map: a variable may be called `constructor` or `__proto__`.
  const [values, setValues] = useState<ReadonlyMap<string, string>>(new Map());
  const fieldId = useId();
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent
        title={`Fill in ${prompt.title}`}
        description="The prompt is inserted into the message box with these values."
        className="w-[min(30rem,calc(100vw-2rem))]"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <form
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            // Portalled, yet inside the message box's form for React: that one must not send.
            event.stopPropagation();
            // A field left empty inserts nothing in its place.
            onInsert(
              fillPrompt(
                prompt.body,
                Object.fromEntries(variables.map((name) => [name, values.get(name) ?? ''])),
              ),
            );
          }}
        >
          <div className="-mx-1 flex max-h-[50dvh] flex-col gap-3 overflow-y-auto px-1">
            {variables.map((name, index) => (
              <div key={name} className="flex flex-col gap-1.5">
                <Label htmlFor={`${fieldId}-${index}`}>{name}</Label>
                <Input
                  id={`${fieldId}-${index}`}
                  value={values.get(name) ?? ''}
                  onChange={(event) => {
                    const value = event.target.value;
                    setValues((current) => new Map(current).set(name, value));
                  }}
                />
              </div>
            ))}
          </div>
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit">Insert</Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
