import { Download, FileText, LoaderCircle, SquareTerminal } from 'lucide-react';
import { memo } from 'react';
import { formatBytes } from '../../domain/attachments.ts';
import { isShownImage, type CodeRunPart } from '../../domain/code-runs.ts';
import { fenced } from '../../domain/markdown-fences.ts';
import { cn } from '../../lib/cn.ts';
import { DrawnPicture } from './drawn-picture.tsx';
import { Markdown } from './lazy-markdown.tsx';
import { PlainText } from './plain-text.tsx';
import { downloadStoredFile } from './stored-file-actions.ts';

/**
 * A program the provider ran while answering: its code (highlighted), what it printed, the
 * pictures it made, and its files to download. What it printed is shown as text, never formatted
 * or run; a failed run is marked.
 */
export const CodeRunCard = memo(function CodeRunCard({
  run,
  streaming,
}: {
  run: CodeRunPart;
  streaming: boolean;
}) {
  const running = streaming && run.running === true;
  const title = running ? `Running ${run.language} code…` : `Ran ${run.language} code`;
  const pictures = run.files.filter((file) => isShownImage(file.mimeType));
  const others = run.files.filter((file) => !isShownImage(file.mimeType));
  return (
    <section
      data-testid="code-run"
      data-outcome={running ? 'running' : run.failed ? 'failed' : 'done'}
      aria-label={run.failed ? `${title}, failed` : title}
      className={cn(
        'my-2 rounded-md border bg-white text-xs dark:bg-gray-950',
        run.failed ? 'border-red-300 dark:border-red-800' : 'border-gray-200 dark:border-gray-700',
      )}
    >
      <header className="flex items-center gap-2 px-3 py-2 font-medium text-gray-700 dark:text-gray-300">
        {running ? (
          <LoaderCircle aria-hidden className="size-3.5 animate-spin" />
        ) : (
          <SquareTerminal aria-hidden className="size-3.5" />
        )}
        <span>{title}</span>
        {run.failed && (
          <span className="rounded bg-red-100 px-1.5 py-0.5 text-red-800 dark:bg-red-950 dark:text-red-300">
            Failed: {run.failed}
          </span>
        )}
      </header>
      <div className="px-3">
        {run.code !== '' && <Markdown text={fenced(run.code, run.language)} live={running} />}
      </div>
      {(run.output !== '' || run.stderr) && (
        <div className="border-t border-gray-200 px-3 py-2 dark:border-gray-700">
          <h4 className="mb-1 font-medium text-faint-foreground">Output</h4>
          <div className="max-h-64 overflow-auto font-mono whitespace-pre-wrap" data-testid="code-run-output">
            {run.output !== '' && <PlainText text={run.output} />}
            {run.stderr && (
              <div className="text-red-700 dark:text-red-400">
                <PlainText text={run.stderr} />
              </div>
            )}
          </div>
        </div>
      )}
      {(pictures.length > 0 || others.length > 0) && (
        <div className="border-t border-gray-200 px-3 py-2 dark:border-gray-700">
          {pictures.map((file) => (
            <DrawnPicture key={file.id} picture={file} />
          ))}
          {others.length > 0 && (
            <ul aria-label="Files it made" className="flex flex-wrap gap-2">
              {others.map((file) => (
                <li key={file.id}>
                  <button
                    type="button"
                    aria-label={`Download ${file.name}`}
                    onClick={() => void downloadStoredFile(file.id, file.name)}
                    className="flex items-center gap-2 rounded-md border border-gray-200 px-2 py-1 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-700 dark:hover:bg-gray-800"
                  >
                    <FileText aria-hidden className="size-4 text-gray-500" />
                    <span>{file.name}</span>
                    <span className="text-faint-foreground">{formatBytes(file.size)}</span>
                    <Download aria-hidden className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
});
