import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useResolvedTheme } from '../../../hooks/use-theme.ts';
import { whenIdle } from '../../../lib/when-idle.ts';
import { CodeBlock } from './code-block.tsx';
import type { DiagramResult } from './diagram-frame.ts';

const toggleButton =
  'rounded border border-gray-300 px-2 py-0.5 text-xs text-gray-700 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800';

/** Diagrams drawn, by theme and source: a message scrolled back into view is not drawn again. */
const drawnDiagrams = new Map<string, DiagramResult>();
const drawnDiagramsLimit = 50;

function remember(key: string, result: DiagramResult): void {
  if (drawnDiagrams.size >= drawnDiagramsLimit) {
    const oldest = drawnDiagrams.keys().next().value;
    if (oldest !== undefined) drawnDiagrams.delete(oldest);
  }
  drawnDiagrams.set(key, result);
}

/**
 * A closed ```mermaid fence: drawn in idle time (Mermaid loads on the first one), with a toggle
 * between the diagram and its source. One that fails shows its source and the parser's message.
 */
export function MermaidDiagram({ source, actions }: { source: string; actions?: ReactNode }) {
  const dark = useResolvedTheme() === 'dark';
  const [drawn, setDrawn] = useState<{ key: string; result: DiagramResult } | null>(null);
  const [showSource, setShowSource] = useState(false);
  const key = `${dark ? 'dark' : 'light'}\n${source}`;

  useEffect(() => {
    if (drawnDiagrams.has(key)) return;
    let current = true;
    const cancel = whenIdle(() => {
      void import('./diagram-frame.ts')
        .catch(() => {
          throw new Error('The diagram renderer could not load (offline?).');
        })
        .then(({ renderDiagram }) => renderDiagram(source, dark))
        .then(
          (result) => {
            remember(key, result);
            return result;
          },
          // Not kept: the next time (back online) it is tried again.
          (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
        )
        .then((result) => {
          if (current) setDrawn({ key, result });
        });
    });
    return () => {
      current = false;
      cancel();
    };
  }, [key, source, dark]);

  const result = drawnDiagrams.get(key) ?? (drawn?.key === key ? drawn.result : null);
  const failed = result !== null && 'error' in result;
  return (
    <div data-testid="mermaid" className="my-3">
      {((result !== null && !failed) || actions) && (
        <div className="mb-1 flex justify-end gap-1">
          {actions}
          {result !== null && !failed && (
            <button type="button" className={toggleButton} onClick={() => setShowSource(!showSource)}>
              {showSource ? 'Show diagram' : 'Show source'}
            </button>
          )}
        </div>
      )}
      {result !== null && !failed && !showSource ? (
        <img
          alt="Diagram"
          className="mx-auto max-w-full rounded-md bg-white p-2 dark:bg-gray-900"
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(result.svg)}`}
        />
      ) : (
        <CodeBlock code={source} language="mermaid" />
      )}
      {failed && (
        <p role="note" className="text-xs text-amber-700 dark:text-amber-400">
          The diagram could not be drawn: {result.error}
        </p>
      )}
    </div>
  );
}
