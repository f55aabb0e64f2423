import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';

/** A field of the form: a saved prompt's variable, or an MCP prompt's argument. */
export interface PromptField {
  name: string;
  /** Shown under the name, and the field's description. */
  description?: string;
  /** Must be filled in (spaces alone do not count) before 'Insert'. */
  required?: boolean;
}

/**
 * 'Fill in {title}': a field per variable of a saved prompt, or per argument of an MCP server's
 * prompt, then 'Insert' hands over what was typed (a field left empty as ''). A required field
 * left empty says so under it and takes the focus instead. The first field takes the focus; Enter
 * in any inserts; closed, the focus goes back to the message box (`onClosed`).
 */
export function PromptForm({
  title,
  description = 'The prompt is inserted into the message box with these values.',
  fields,
  onInsert,
  onCancel,
  onClosed,
}: {
  title: string;
  description?: string;
  fields: readonly PromptField[];
  /** By field name: a Map, as a name may be `constructor` or `__proto__`. */
  onInsert(values: ReadonlyMap<string, string>): void;
  onCancel(): void;
  onClosed(): void;
}) {
  const [values, setValues] = useState<ReadonlyMap<string, string>>(new Map());
  // The required fields left empty at the last 'Insert'.
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());
  const fieldId = useId();
  const filled = (name: string) => (values.get(name) ?? '').trim() !== '';
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent
        title={`Fill in ${title}`}
        description={description}
        className="w-[min(30rem,calc(100vw-2rem))]"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
      >
        <form
          noValidate
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            // Portalled, yet inside the message box's form for React: that one must not send.
            event.stopPropagation();
            const empty = fields.filter((field) => field.required && !filled(field.name));
            setMissing(new Set(empty.map((field) => field.name)));
            const first = empty[0];
            if (first) {
              document.getElementById(`${fieldId}-${fields.indexOf(first)}`)?.focus();
              return;
            }
            onInsert(new Map(fields.map((field) => [field.name, values.get(field.name) ?? ''])));
          }}
        >
          <div className="-mx-1 flex max-h-[50dvh] flex-col gap-3 overflow-y-auto px-1">
            {fields.map((field, index) => {
              const id = `${fieldId}-${index}`;
              const unfilled = missing.has(field.name) && !filled(field.name);
              const describedBy = [field.description && `${id}-about`, unfilled && `${id}-missing`]
                .filter(Boolean)
                .join(' ');
              return (
                <div key={field.name} className="flex flex-col gap-1.5">
                  <Label htmlFor={id}>
                    {field.name}
                    {field.required && (
                      <span aria-hidden className="ml-1 text-xs font-normal text-muted-foreground">
                        (required)
                      </span>
                    )}
                  </Label>
                  {field.description && (
                    <p id={`${id}-about`} className="-mt-1 text-xs text-muted-foreground">
                      {field.description}
                    </p>
                  )}
                  <Input
                    id={id}
                    value={values.get(field.name) ?? ''}
                    aria-required={field.required || undefined}
                    aria-invalid={unfilled || undefined}
                    aria-describedby={describedBy || undefined}
                    onChange={(event) => {
                      const value = event.target.value;
                      setValues((current) => new Map(current).set(field.name, value));
                    }}
                  />
                  {unfilled && (
                    <p id={`${id}-missing`} className="text-xs text-red-700 dark:text-red-400">
                      {field.name} must be filled in.
                    </p>
                  )}
                </div>
              );
            })}
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
