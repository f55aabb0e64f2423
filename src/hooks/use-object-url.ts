import { useEffect, useState } from 'react';
import { chat } from '../state/chat.ts';

/**
 * A `blob:` URL for a file's bytes while the caller is mounted: given bytes, or a stored
 * attachment read by id. Undefined while it is read; null when there is nothing (the stored
 * bytes are gone).
 */
export function useObjectUrl(source: Blob | { attachmentId: string } | null): string | null | undefined {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const key = source instanceof Blob ? source : (source?.attachmentId ?? null);
  useEffect(() => {
    if (key === null) return;
    let current: string | null = null;
    let live = true;
    void (key instanceof Blob ? Promise.resolve(key) : chat.readAttachment(key)).then((blob) => {
      if (!live) return;
      if (!blob) return setUrl(null);
      current = URL.createObjectURL(blob);
      setUrl(current);
    });
    return () => {
      live = false;
      if (current) URL.revokeObjectURL(current);
      setUrl(undefined);
    };
  }, [key]);
  return url;
}
