import { useState } from 'react';
import type { AttachmentPart } from '../../domain/attachments.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useObjectUrl } from '../../hooks/use-object-url.ts';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { FileChip } from './file-chip.tsx';

/** Said on a file sync left out (docs/sync.md#files). */
const syncLeftOutNote =
  'Not synced: larger than the sync server takes. It stays on the device it was added on.';

/** The files a sent message carries; an image opens full size. */
export function MessageFiles({ files }: { files: readonly AttachmentPart[] }) {
  const [opened, setOpened] = useState<AttachmentPart | null>(null);
  const leftOut = useChatState((state) => state.syncLeftOut);
  return (
    <>
      <ul aria-label="Attached files" className="mb-2 flex flex-wrap gap-2">
        {files.map((file) => (
          <FileChip
            key={file.id}
            name={file.name}
            size={file.size}
            kind={file.kind}
            note={leftOut.includes(file.id) ? syncLeftOutNote : undefined}
            image={file.kind === 'image' ? { attachmentId: file.id } : null}
            open={
              file.kind === 'image'
                ? (thumbnail) => (
                    <button
                      type="button"
                      aria-label={`Open ${file.name}`}
                      onClick={() => setOpened(file)}
                      className="rounded focus-visible:ring-2 focus-visible:ring-indigo-500"
                    >
                      {thumbnail}
                    </button>
                  )
                : undefined
            }
          />
        ))}
      </ul>
      <Dialog open={opened !== null} onOpenChange={(open) => !open && setOpened(null)}>
        {opened && (
          <DialogContent title={opened.name} className="w-[min(64rem,calc(100vw-2rem))] break-all">
            <FullImage file={opened} />
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}

/** A stored image at full size (in a dialog). */
export function FullImage({ file }: { file: Pick<AttachmentPart, 'id' | 'name' | 'width' | 'height'> }) {
  const url = useObjectUrl({ attachmentId: file.id });
  if (url === undefined) return null;
  if (url === null)
    return <p className="text-sm text-gray-500">This image is no longer in this browser's storage.</p>;
  return (
    <img
      src={url}
      alt={file.name}
      width={file.width}
      height={file.height}
      className="mx-auto h-auto max-h-[75dvh] w-auto max-w-full rounded object-contain"
    />
  );
}
