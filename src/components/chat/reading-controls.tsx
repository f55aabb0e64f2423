import { LoaderCircle, Pause, Play, Square } from 'lucide-react';
import { reader } from './read-aloud-controls.tsx';

export interface ReadingControlsProps {
  status: 'loading' | 'playing' | 'paused';
  className: string;
}

/** Loaded with the first reading. While a reply is read: 'Pause reading' or 'Resume reading', and 'Stop reading', always in view. */
export default function ReadingControls({ status, className }: ReadingControlsProps) {
  const paused = status === 'paused';
  return (
    <span
      role="group"
      aria-label="Reading aloud"
      className="flex items-center rounded-full bg-indigo-50 px-1 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
    >
      <span role="status" className="sr-only">
        {status === 'loading' ? 'Preparing to read aloud' : paused ? 'Reading paused' : 'Reading aloud'}
      </span>
      <button
        type="button"
        aria-label={paused ? 'Resume reading' : 'Pause reading'}
        title={paused ? 'Resume reading' : 'Pause reading'}
        onClick={() =>
          void reader().then(({ pauseReading, resumeReading }) => (paused ? resumeReading() : pauseReading()))
        }
        className={className}
      >
        {paused ? playIcon : status === 'loading' ? loadingIcon : pauseIcon}
      </button>
      <button
        type="button"
        aria-label="Stop reading"
        title="Stop reading"
        onClick={() => void reader().then(({ stopReading }) => stopReading())}
        className={className}
      >
        {stopIcon}
      </button>
    </span>
  );
}

const playIcon = <Play className="size-3.5" />;
const pauseIcon = <Pause className="size-3.5" />;
const loadingIcon = <LoaderCircle className="size-3.5 motion-safe:animate-spin" />;
const stopIcon = <Square className="size-3.5" />;
