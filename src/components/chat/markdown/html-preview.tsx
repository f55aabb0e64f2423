import { useRef, useState, type ReactNode } from 'react';
import { CodeBlock } from './code-block.tsx';

/** Languages whose closed code blocks can be previewed. */
export const previewLanguages: ReadonlySet<string> = new Set(['html', 'htm', 'xhtml', 'svg']);

/**
 * The preview document (public/preview.html): its own policy, no network. Framed without
 * `allow-same-origin`, so its origin is opaque: it cannot read the app's storage or cookies,
 * reach into this page, navigate it or open popups. The app's `frame-src` admits only this
 * origin, so the preview cannot navigate itself to another site; a page of this origin it loads
 * instead is static (the app itself refuses to run in a frame, see main.tsx).
 */
const previewUrl = `${import.meta.env.BASE_URL}preview.html`;

/** A closed HTML or SVG code block with a 'Preview' toggle that runs it in that sandbox. */
export function PreviewableCode({
  code,
  language,
  actions,
}: {
  code: string;
  language: string;
  actions?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const preview = (
    <button
      type="button"
      aria-pressed={open}
      onClick={() => setOpen(!open)}
      className="rounded px-1.5 py-0.5 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 aria-pressed:bg-gray-200 aria-pressed:text-gray-900 dark:hover:bg-gray-700 dark:aria-pressed:bg-gray-700 dark:aria-pressed:text-gray-100"
    >
      Preview
    </button>
  );
  return (
    <CodeBlock
      code={code}
      language={language}
      actions={
        <>
          {actions}
          {preview}
        </>
      }
    >
      {open && <PreviewFrame html={code} />}
    </CodeBlock>
  );
}

/** The code run in the preview sandbox, in a frame the reader can resize. */
export function PreviewFrame({ html, className }: { html: string; className?: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  return (
    // Resizable by its corner: a preview's height is the reader's choice, not the code's.
    <div
      className={
        className ?? 'h-80 resize-y overflow-hidden border-t border-gray-200 bg-white dark:border-gray-700'
      }
    >
      <iframe
        ref={frame}
        title="Preview"
        src={previewUrl}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        // Sent again on every load: a preview that reloads itself shows its code again. The
        // target is '*' because an opaque origin has no name; the code is all it receives.
        onLoad={() => frame.current?.contentWindow?.postMessage({ html }, '*')}
        className="size-full"
      />
    </div>
  );
}
