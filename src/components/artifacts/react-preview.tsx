import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useResolvedTheme } from '../../hooks/use-theme.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import type { ReactFrame, ReactFrameEvent } from './react-frame/react-frame.ts';
import { placeReactFrame } from './react-frame/warm-frame.ts';

type Failure = Extract<ReactFrameEvent, { type: 'error' }> | { type: 'unavailable' } | { type: 'timeout' };

/**
 * A React artifact run in its own sandboxed frame (artifact.html: React, lucide-react, recharts
 * and Tailwind bundled, no network, an opaque origin). An error shows with its line, and 'Ask to
 * fix' sends it to the model as the next message. What the frame says is shown as text.
 */
export function ReactPreview({ code, language }: { code: string; language: string }) {
  const theme = useResolvedTheme();
  const busy = useChatState((state) => state.streaming !== null);
  const slot = useRef<HTMLDivElement>(null);
  const frameRef = useRef<ReactFrame | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [height, setHeight] = useState<number | null>(null);

  // A document of its own for each code (the slot is keyed by it): one loaded ahead if there is.
  useLayoutEffect(() => {
    const place = slot.current;
    if (!place) return;
    const { iframe, frame } = placeReactFrame(place);
    frameRef.current = frame;
    const stop = frame.subscribe((event) => {
      if (event.type === 'rendered' || event.type === 'resized') {
        setHeight(event.height);
        if (event.type === 'rendered') setFailure(null);
      } else if (event.type !== 'ready') setFailure((shown) => shown ?? event);
    });
    return () => {
      stop();
      frame.dispose();
      iframe.remove();
      frameRef.current = null;
    };
  }, [code]);

  // Sent once the frame is ready; a new theme renders the same code again in the same document.
  useEffect(() => {
    frameRef.current?.render(code, language === 'jsx' ? 'jsx' : 'tsx', theme);
  }, [code, language, theme]);

  const where = failure?.type === 'error' && failure.line ? `Line ${failure.line}: ` : '';
  const text =
    failure === null
      ? null
      : failure.type === 'error'
        ? `${where}${failure.message}`
        : failure.type === 'unavailable'
          ? 'The React preview could not load (offline before it was saved for offline use?).'
          : 'The component did not finish rendering (an endless loop?).';
  return (
    <div className="flex h-full flex-col">
      {text !== null && (
        <div
          role="alert"
          className="m-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm dark:border-red-800 dark:bg-red-950/40"
        >
          <p className="font-medium text-red-800 dark:text-red-300">
            {failure?.type === 'error' ? `The component failed (${failure.phase})` : 'No preview'}
          </p>
          <p className="mt-1 font-mono text-xs whitespace-pre-wrap text-red-900 dark:text-red-200">{text}</p>
          {failure?.type === 'error' && (
            <Button
              size="sm"
              variant="outline"
              className="mt-2"
              disabled={busy}
              onClick={() =>
                void chat.send(`The React component fails with this error, please fix it:\n\n${text}`)
              }
            >
              Ask to fix
            </Button>
          )}
        </div>
      )}
      <div
        key={code}
        ref={slot}
        style={height === null ? undefined : { height: Math.max(height, 160) }}
        className="flex min-h-96 w-full flex-1 flex-col"
      />
    </div>
  );
}
