import { ImageIcon } from 'lucide-react';
import { useState } from 'react';

function hostOf(src: string): string {
  try {
    return new URL(src, window.location.href).host;
  } catch {
    return 'unknown host';
  }
}

/**
 * An image from a reply is not fetched until the user asks: its address could carry chat text
 * to an attacker's server. The placeholder names the host it would contact.
 */
export function RemoteImage({ src, alt }: { src: string | undefined; alt: string | undefined }) {
  const [load, setLoad] = useState(false);
  if (!src) return alt ? <span>{alt}</span> : null;
  if (load)
    return <img src={src} alt={alt ?? ''} referrerPolicy="no-referrer" className="my-2 max-w-full rounded" />;
  const host = hostOf(src);
  return (
    <button
      type="button"
      onClick={() => setLoad(true)}
      title={src}
      className="my-1 inline-flex items-center gap-2 rounded border border-dashed border-gray-400 px-2 py-1 text-xs text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
    >
      <ImageIcon className="size-4" aria-hidden />
      <span>
        Load image{alt ? ` “${alt}”` : ''} from {host}
      </span>
    </button>
  );
}
