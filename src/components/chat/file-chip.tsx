import { FileText, LoaderCircle, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatBytes, type AttachmentKind } from '../../domain/attachments.ts';
import { useObjectUrl } from '../../hooks/use-object-url.ts';
import { cn } from '../../lib/cn.ts';

interface FileChipProps {
  name: string;
  size: number;
  kind: AttachmentKind | null;
  /** An image's bytes, shown as its thumbnail; null while they are read or prepared. */
  image: Blob | { attachmentId: string } | null;
  /** What the model does with it, when that is not simply "reads it". */
  note?: string;
  /** Still being prepared (an image resized). */
  busy?: boolean;
  onRemove?: () => void;
  /** Wraps the thumbnail (a button that opens the image). */
  open?: (thumbnail: ReactNode) => ReactNode;
}

/** A file as a chip: thumbnail or icon, name, size, a note, and a remove button where it may be removed. */
export function FileChip({ name, size, kind, image, note, busy = false, onRemove, open }: FileChipProps) {
  const url = useObjectUrl(kind === 'image' ? image : null);
  const thumbnail =
    busy || (kind === 'image' && url === undefined) ? (
      <LoaderCircle aria-hidden className="size-5 animate-spin text-gray-400" />
    ) : url ? (
      <img src={url} alt="" className="size-10 rounded object-cover" />
    ) : (
      <FileText aria-hidden className="size-5 text-gray-500" />
    );
  return (
    <li
      data-testid="file-chip"
      className="flex max-w-64 items-center gap-2 rounded-md border border-gray-200 bg-white py-1 pr-1 pl-1 text-xs dark:border-gray-700 dark:bg-gray-900"
    >
      <span className="flex size-10 shrink-0 items-center justify-center">
        {open ? open(thumbnail) : thumbnail}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-gray-800 dark:text-gray-200" title={name}>
          {name}
        </span>
        <span className="block text-faint-foreground">{busy ? 'Preparing…' : formatBytes(size)}</span>
        {note && (
          <span role="note" className={cn('block text-amber-700 dark:text-amber-400')}>
            {note}
          </span>
        )}
      </span>
      {onRemove && (
        <button
          type="button"
          aria-label={`Remove ${name}`}
          onClick={onRemove}
          className="self-start rounded p-1 text-gray-500 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-800"
        >
          <X className="size-3.5" />
        </button>
      )}
    </li>
  );
}
