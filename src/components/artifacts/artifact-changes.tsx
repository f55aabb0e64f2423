import { useMemo } from 'react';
import { lineDiff } from '../../domain/line-diff.ts';
import { cn } from '../../lib/cn.ts';

/** What changed since the previous version, line by line: removed lines red, added green. */
export function ArtifactChanges({ before, after }: { before: string; after: string }) {
  const lines = useMemo(() => lineDiff(before, after), [before, after]);
  if (lines === null)
    return (
      <p className="p-4 text-sm text-muted-foreground">
        These versions are too long to compare line by line.
      </p>
    );
  const added = lines.filter((line) => line.kind === 'added').length;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  return (
    <div className="p-3 text-xs">
      <p className="mb-2 text-faint-foreground" data-testid="artifact-change-count">
        {added === 0 && removed === 0
          ? 'No change since the previous version.'
          : `${added} ${added === 1 ? 'line' : 'lines'} added, ${removed} removed since the previous version.`}
      </p>
      <pre className="overflow-x-auto rounded-md border border-gray-200 font-mono leading-relaxed dark:border-gray-700">
        {lines.map((line, index) => (
          <div
            key={index}
            data-change={line.kind}
            className={cn(
              'px-2 whitespace-pre',
              line.kind === 'added' && 'bg-green-50 text-green-900 dark:bg-green-950/50 dark:text-green-200',
              line.kind === 'removed' && 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-200',
            )}
          >
            <span aria-hidden className="mr-2 inline-block w-3 select-none text-faint-foreground">
              {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}
            </span>
            {line.kind !== 'same' && (
              <span className="sr-only">{line.kind === 'added' ? 'Added: ' : 'Removed: '}</span>
            )}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}
