import type { Prompt } from '../../domain/prompts.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';

/** A saved prompt or persona in its settings list: its name, a line of its text, 'Edit' and 'Delete'. */
function SavedRow({
  title,
  preview,
  onEdit,
  onDelete,
}: {
  title: string;
  preview: string;
  onEdit(): void;
  onDelete(): void;
}) {
  return (
    <li className="flex items-center justify-between gap-2 text-sm">
      <span className="flex min-w-0 flex-col">
        <span className="truncate font-medium">{title}</span>
        <span className="truncate text-xs text-faint-foreground">{preview}</span>
      </span>
      <span className="flex shrink-0 gap-1">
        <Button variant="outline" size="sm" aria-label={`Edit ${title}`} onClick={onEdit}>
          Edit
        </Button>
        <Button variant="outline" size="sm" aria-label={`Delete ${title}`} onClick={onDelete}>
          Delete
        </Button>
      </span>
    </li>
  );
}

/** The saved prompts or personas in settings, each with 'Edit' and 'Delete' (with Undo); nothing when none. */
export function SavedList({
  label,
  entries,
  preview,
  onEdit,
}: {
  label: string;
  entries: readonly Prompt[];
  /** The line of text under an entry's name. */
  preview(entry: Prompt): string;
  onEdit(entry: Prompt): void;
}) {
  if (entries.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-col gap-1">
      {entries.map((entry) => (
        <SavedRow
          key={entry.id}
          title={entry.title}
          preview={preview(entry)}
          onEdit={() => onEdit(entry)}
          onDelete={() => void chat.deletePrompt(entry.id)}
        />
      ))}
    </ul>
  );
}
