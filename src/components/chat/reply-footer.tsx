import { finishReasonText, statsPhrases, type ReplyStats } from '../../domain/reply-stats.ts';
import { chat } from '../../state/chat.ts';

interface ReplyFooterProps {
  stats: ReplyStats;
  conversationId: string;
  messageId: string;
  /** 'Continue' is offered on the last reply of the path while nothing streams. */
  canContinue: boolean;
}

/** A quiet line under a finished reply: the provider's token counts, speed, and an early end. */
export function ReplyFooter({ stats, conversationId, messageId, canContinue }: ReplyFooterProps) {
  const phrases = statsPhrases(stats);
  const finish = stats.finishReason;
  if (phrases.length === 0 && !finish) return null;
  return (
    <div
      data-testid="reply-stats"
      className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-faint-foreground"
    >
      {phrases.length > 0 && <span>{phrases.join(' · ')}</span>}
      {finish && <span className="text-amber-700 dark:text-amber-400">{finishReasonText[finish]}</span>}
      {finish === 'length' && canContinue && (
        <button
          type="button"
          onClick={() => void chat.continueReply(conversationId, messageId)}
          className="rounded border border-gray-300 px-2 py-0.5 text-gray-700 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800"
        >
          Continue
        </button>
      )}
    </div>
  );
}
