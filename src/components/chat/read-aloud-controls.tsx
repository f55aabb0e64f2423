import { Volume2 } from 'lucide-react';
import { useViewState } from '../../hooks/use-chat-state.ts';

/** The reader loads with the first 'Read aloud': speech is no part of the chat screen's first load. */
export const reader = () => import('../../voice/read-aloud.ts');

/** How far this reply's reading is: null while it is not being read. */
export function useReading(messageId: string) {
  return useViewState((state) => (state.reading?.messageId === messageId ? state.reading.status : null));
}

/** 'Read aloud', among a reply's actions. */
export function ReadAloudButton({
  messageId,
  text,
  className,
}: {
  messageId: string;
  text: string;
  className: string;
}) {
  return (
    <button
      type="button"
      aria-label="Read aloud"
      title="Read aloud"
      onClick={() => void reader().then(({ readAloud }) => readAloud(messageId, text))}
      className={className}
    >
      {speakerIcon}
    </button>
  );
}

const speakerIcon = <Volume2 className="size-3.5" />;
