import { ArrowDown, RotateCcw } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.ts';
import { retryLastReply } from '../../state/send-commands.ts';
import { Button } from '../ui/button.tsx';
import { MessageItem } from './message-item.tsx';

/**
 * Messages are rendered from the end, a page at a time: a conversation of thousands opens as fast
 * as a short one, and the page never holds more than the reader has scrolled through.
 */
const pageSize = 40;

/** Shows earlier messages when scrolled into view (or clicked, for keyboard users). */
function ShowEarlier({ hidden, onShow }: { hidden: number; onShow(): void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onShow();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onShow]);
  return (
    <button
      ref={ref}
      type="button"
      onClick={onShow}
      className="self-center rounded px-2 py-1 text-xs text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800"
    >
      Show {Math.min(hidden, pageSize)} earlier messages ({hidden} hidden)
    </button>
  );
}

export function MessageList({ conversationId }: { conversationId: string }) {
  const messages = useChatState((state) => state.loaded[conversationId]?.messages);
  const streaming = useChatState((state) => state.streamingId === conversationId);
  const isLoading = useChatState((state) => state.isLoading);
  const { ref, atBottom, scrollToBottom } = useStickToBottom<HTMLDivElement>(conversationId);

  const [shown, setShown] = useState(pageSize);
  // Earlier messages go above what the reader sees: keep their place (distance from the bottom).
  const fromBottom = useRef<number | null>(null);
  const showMore = useCallback(() => {
    const element = ref.current;
    if (element) fromBottom.current = element.scrollHeight - element.scrollTop;
    setShown((count) => count + pageSize);
  }, [ref]);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || fromBottom.current === null) return;
    element.scrollTop = element.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [shown, ref]);

  const total = messages?.length ?? 0;
  const lastIndex = total - 1;
  const firstShown = Math.max(0, total - shown);
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
          {firstShown > 0 && <ShowEarlier hidden={firstShown} onShow={showMore} />}
          {messages?.slice(firstShown).map((message, offset) => {
            const index = firstShown + offset;
            return message.role === 'system' ? null : (
              <MessageItem
                key={index}
                message={message}
                conversationId={conversationId}
                streaming={streaming && index === lastIndex}
                isLast={index === lastIndex}
              />
            );
          })}
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
