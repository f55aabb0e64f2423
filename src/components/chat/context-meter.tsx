import { contextWarningAt } from '../../domain/reply-stats.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { cn } from '../../lib/cn.ts';
import { contextPercent } from '../../state/chat-store.ts';

/**
 * How full the model's context window is, from the last request's input tokens as the provider
 * counted them; amber with a warning from 80%.
 */
const nearlyFull = 'The conversation is close to what the model can read: older messages may soon not fit.';

export function ContextMeter({ conversationId }: { conversationId: string }) {
  const percent = useChatState((state) => contextPercent(state, conversationId));
  if (percent === null) return null;
  const warn = percent >= contextWarningAt * 100;
  const text = warn ? `Context ${percent}% full` : `Context ${percent}%`;
  return (
    <span
      role="meter"
      aria-label="Context window used"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(percent, 100)}
      aria-valuetext={`${percent}% of the model's context window used by the last request${warn ? `. ${nearlyFull}` : ''}`}
      title={warn ? nearlyFull : "The last request's share of the model's context window."}
      className={cn(
        'shrink-0 rounded px-1.5 py-0.5 text-xs',
        // On a phone only the warning takes header room.
        warn
          ? 'bg-amber-100 font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-200'
          : 'hidden text-faint-foreground sm:inline',
      )}
    >
      {text}
    </span>
  );
}
