import { Download, LoaderCircle } from 'lucide-react';
import { memo, useState } from 'react';
import type { AttachmentPart } from '../../domain/attachments.ts';
import { useObjectUrl } from '../../hooks/use-object-url.ts';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { FullImage } from './message-files.tsx';
import { downloadStoredFile } from './stored-file-actions.ts';

/**
 * A picture the reply drew (or a run plotted), where it came: shown from the file store, opened
 * full size, downloaded. While it is drawn, the latest preview with 'Drawing…'.
 */
export const DrawnPicture = memo(function DrawnPicture({
  picture,
}: {
  picture: Pick<AttachmentPart, 'id' | 'name' | 'width' | 'height' | 'drawing'>;
}) {
  const url = useObjectUrl({ attachmentId: picture.id });
  const [open, setOpen] = useState(false);
  return (
    <figure data-testid="drawn-picture" aria-busy={picture.drawing ? true : undefined} className="my-2 w-fit">
      <div className="relative">
        <button
          type="button"
          aria-label={`Open ${picture.name}`}
          disabled={!url}
          onClick={() => setOpen(true)}
          className="block rounded-md focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {url ? (
            <img
              src={url}
              alt={picture.name}
              width={picture.width}
              height={picture.height}
              className="max-h-80 w-auto max-w-full rounded-md border border-gray-200 object-contain dark:border-gray-700"
            />
          ) : (
            <span className="flex size-32 items-center justify-center rounded-md border border-gray-200 text-xs text-faint-foreground dark:border-gray-700">
              {url === null ? (
                'No longer stored'
              ) : (
                <LoaderCircle aria-hidden className="size-5 animate-spin" />
              )}
            </span>
          )}
        </button>
        {picture.drawing && (
          <span className="absolute right-2 bottom-2 flex items-center gap-1 rounded bg-black/60 px-2 py-0.5 text-xs text-white">
            <LoaderCircle aria-hidden className="size-3 animate-spin" /> Drawing…
          </span>
        )}
      </div>
      <figcaption className="mt-1 flex items-center gap-2 text-xs text-faint-foreground">
        <span className="truncate">{picture.name}</span>
        {!picture.drawing && (
          <button
            type="button"
            aria-label={`Download ${picture.name}`}
            onClick={() => void downloadStoredFile(picture.id, picture.name)}
            className="rounded p-1 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700"
          >
            <Download className="size-3.5" />
          </button>
        )}
      </figcaption>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && (
          <DialogContent title={picture.name} className="w-[min(64rem,calc(100vw-2rem))] break-all">
            <FullImage file={picture} />
          </DialogContent>
        )}
      </Dialog>
    </figure>
  );
});
