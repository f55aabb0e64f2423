import { ArrowDown, RotateCcw } from 'lucide-react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.ts';
import { retryLastReply } from '../../state/send-commands.ts';
import { Button } from '../ui/button.tsx';
import { MessageItem } from './message-item.tsx';

export function MessageList({ conversationId }: { conversationId: string }) {
  const messages = useChatState((state) => state.loaded[conversationId]?.messages);
  const streaming = useChatState((state) => state.streamingId === conversationId);
  const isLoading = useChatState((state) => state.isLoading);
  const { ref, atBottom, scrollToBottom } = useStickToBottom<HTMLDivElement>(conversationId);

  const lastIndex = (messages?.length ?? 0) - 1;
  const unanswered = !isLoading && messages?.[lastIndex]?.role === 'user';

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={ref} data-testid="message-list" className="h-full overflow-y-auto">
        <div
          className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-4"
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          aria-busy={streaming}
        >
          {messages?.map((message, index) =>
            message.role === 'system' ? null : (
              <MessageItem
                key={index}
                message={message}
                conversationId={conversationId}
                streaming={streaming && index === lastIndex}
                isLast={index === lastIndex}
              />
            ),
          )}
          {unanswered && (
            <div className="flex items-center gap-2 text-xs text-gray-500 dark:text-gray-400">
              <span>No reply was received.</span>
              <button
                type="button"
                onClick={() => void retryLastReply(conversationId)}
                className="inline-flex items-center gap-1 rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
              >
                <RotateCcw className="size-3" /> Retry
              </button>
            </div>
          )}
        </div>
      </div>
      {!atBottom && (
        <Button
          variant="outline"
          size="sm"
          onClick={scrollToBottom}
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
        >
          <ArrowDown /> Jump to latest
        </Button>
      )}
    </div>
  );
}
