import { useContext, type ReactNode } from 'react';
import { ReplyFilesContext, sandboxFileName } from '../reply-files-context.ts';
import { downloadStoredFile } from '../stored-file-actions.ts';

/**
 * A `sandbox:` link in a reply: a button that downloads the file of that name the reply's code
 * made, or its text alone when there is none (nothing to open: the sandbox is the provider's).
 */
export function SandboxLink({ href, children }: { href: string; children: ReactNode }) {
  const files = useContext(ReplyFilesContext);
  const file = files?.get(sandboxFileName(href));
  if (!file) return <span>{children}</span>;
  return (
    <button
      type="button"
      title={`Download ${file.name}`}
      onClick={() => void downloadStoredFile(file.id, file.name)}
      className="cursor-pointer text-indigo-600 underline hover:text-indigo-800 dark:text-indigo-400 dark:hover:text-indigo-300"
    >
      {children}
    </button>
  );
}
