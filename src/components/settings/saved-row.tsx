import { Button } from '../ui/button.tsx';

/** A saved prompt or persona in its settings list: its name, a line of its text, 'Edit' and 'Delete'. */
export function SavedRow({
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
