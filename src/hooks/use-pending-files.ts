import { useCallback, useEffect, useRef, useState } from 'react';
import { attachmentLimits } from '../domain/attachments.ts';
import type { PreparedFile } from '../state/attachment-files.ts';
import { chat } from '../state/chat.ts';
import { notify } from '../state/notify.ts';

/** A file on its way into the next message: being prepared (an image resized), then ready. */
export interface PendingFile {
  key: number;
  name: string;
  size: number;
  prepared: PreparedFile | null;
}

export interface PendingFiles {
  list: readonly PendingFile[];
  /** The files ready to send; empty while any is still being prepared. */
  ready: readonly PreparedFile[];
  preparing: boolean;
  add(files: Iterable<File>): void;
  remove(key: number): void;
  clear(): void;
}

let nextKey = 0;

/**
 * The files attached to the message being written. Each is prepared as it is added; one that
 * cannot be attached is left out with a toast saying why.
 */
export function usePendingFiles(): PendingFiles {
  const [list, setList] = useState<readonly PendingFile[]>([]);

  // How many are attached, ahead of the next render: files added twice in a row both count.
  const count = useRef(0);
  useEffect(() => {
    count.current = list.length;
  }, [list]);

  const add = useCallback((files: Iterable<File>) => {
    const added = [...files];
    const room = attachmentLimits.filesPerMessage - count.current;
    if (added.length > room)
      notify.error(`A message can carry up to ${attachmentLimits.filesPerMessage} files.`);
    const taken = added.slice(0, Math.max(0, room)).map((file) => ({ file, key: nextKey++ }));
    if (taken.length === 0) return;
    count.current += taken.length;
    setList((current) => [
      ...current,
      ...taken.map(({ file, key }) => ({
        key,
        name: file.name || 'Pasted file',
        size: file.size,
        prepared: null,
      })),
    ]);
    for (const { file, key } of taken)
      chat.prepareFile(file).then(
        (prepared) =>
          setList((now) => now.map((entry) => (entry.key === key ? { ...entry, prepared } : entry))),
        (error: unknown) => {
          setList((now) => now.filter((entry) => entry.key !== key));
          notify.error(error instanceof Error ? error.message : `${file.name} could not be attached.`);
        },
      );
  }, []);

  const remove = useCallback((key: number) => setList((now) => now.filter((entry) => entry.key !== key)), []);
  const clear = useCallback(() => setList([]), []);
  const preparing = list.some((entry) => entry.prepared === null);
  const ready = preparing ? [] : list.flatMap((entry) => (entry.prepared ? [entry.prepared] : []));
  return { list, ready, preparing, add, remove, clear };
}
