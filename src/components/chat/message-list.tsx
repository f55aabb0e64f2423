import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { useStickToBottom } from '../../hooks/use-stick-to-bottom.ts';
import { messageText } from '../../domain/conversation.ts';
import { isMarkdownLike, visibleMessages } from '../../domain/conversation-rules.ts';
import { siblingsOf } from '../../domain/message-tree.ts';
import { openComparison } from '../../domain/compare.ts';
import { chat } from '../../state/chat.ts';
import { streamingIdsIn } from '../../state/chat-store.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';
import { preloadMarkdown, prepareMarkdown } from './lazy-markdown.tsx';
import { MessageItem } from './message-item.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import type { CompareTurnProps } from './compare-turn.tsx';

// A question asked of several models at once: loaded when a conversation shows one.
const CompareTurn = lazyPart<CompareTurnProps>(() => import('./compare-turn.tsx'));

// Shown only after a request for a model that is gone: loaded then.
const ModelGoneNotice = lazy(() =>
  import('./model-gone-notice.tsx').then((module) => ({ default: module.ModelGoneNotice })),
);

/** A first guess at a message's height (px), corrected once it is measured. */
const estimatedMessageHeight = 140;

/**
 * The conversation's messages, virtualized: only those in (or near) view are in the page, so a
 * conversation of thousands opens and streams as fast as a short one.
 */
export function MessageList({ conversationId }: { conversationId: string }) {
  const conversation = useChatState((state) => state.loaded[conversationId]);
  const streamingIds = useChatState((state) => streamingIdsIn(state, conversationId));
  const isLoading = useChatState((state) => state.streaming !== null);
  const { ref, atBottom, scrollToBottom, release } = useStickToBottom<HTMLDivElement>(conversationId);
  const revealed = useViewState((state) =>
    state.revealed?.conversationId === conversationId ? state.revealed : null,
  );

  const shown = useMemo(() => (conversation ? visibleMessages(conversation) : []), [conversation]);
  // This app does not use the React Compiler, whose auto-memoizing the rule protects.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => ref.current,
    estimateSize: () => estimatedMessageHeight,
    getItemKey: (row) => shown[row]?.id ?? row,
    overscan: 1,
    // A conversation opens at its latest message: render those first, not the oldest ones.
    initialOffset: Number.MAX_SAFE_INTEGER,
  });

  useEffect(preloadMarkdown, []);

  // A search result asked for a message: scroll to it and mark it for a moment.
  // The request is consumed: coming back to the conversation later opens it at its latest message.
  const [marked, setMarked] = useState<string | null>(null);
  useEffect(() => {
    if (!revealed) return;
    const index = shown.findIndex((message) => message.id === revealed.messageId);
    if (index === -1) return;
    chat.revealDone();
    release();
    virtualizer.scrollToIndex(index, { align: 'center' });
    setMarked(revealed.messageId);
  }, [revealed, shown, release, virtualizer]);
  useEffect(() => {
    if (marked === null) return;
    const timer = setTimeout(() => setMarked(null), 2500);
    return () => clearTimeout(timer);
  }, [marked]);

  // The other versions of the replies in view are parsed ahead, so switching to one is quick.
  const prepared = useRef(new Set<string>());
  const rows = virtualizer.getVirtualItems();
  useEffect(() => {
    if (!conversation) return;
    const texts: string[] = [];
    for (const row of rows) {
      const message = shown[row.index];
      if (message?.role !== 'assistant') continue;
      for (const version of siblingsOf(conversation, message.id).siblings) {
        const text = messageText(version);
        if (version === message || prepared.current.has(version.id) || !isMarkdownLike(text)) continue;
        prepared.current.add(version.id);
        texts.push(text);
      }
    }
    prepareMarkdown(texts);
  });

  const last = shown.at(-1);
  // A question sent pins the list to its end again: it and its reply are what the user looks at
  // (a click in the list, 'Open in panel', may have let go of the bottom as the layout moved).
  const questionAtEnd = last?.role === 'user' ? last.id : null;
  useEffect(() => {
    if (questionAtEnd !== null) scrollToBottom();
  }, [questionAtEnd, scrollToBottom]);
  const unanswered = !isLoading && last?.role === 'user';
  // Why the last request failed, kept beside its question rather than only in a fading toast.
  // This session's failure knows whether the model is gone; after a reload the question keeps the reason.
  const failedTurn = useChatState((state) => {
    const turn = state.failedTurn;
    return turn?.conversationId === conversationId && turn.questionId === last?.id ? turn : null;
  });
  const failure = failedTurn ?? (last?.error ? { reason: last.error, modelGone: false } : null);

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={ref} data-testid="message-list" className="@container h-full overflow-y-auto">
        <div
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          aria-busy={streamingIds.length > 0}
          className="mx-auto max-w-3xl px-4 py-2"
        >
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const message = shown[row.index];
              if (!message || !conversation) return null;
              const versions = siblingsOf(conversation, message.id);
              // A compared question's reply on the branch shows as every model's column.
              const question = message.role === 'assistant' ? shown[row.index - 1] : undefined;
              const compared = question ? openComparison(conversation, question) : null;
              return (
                <div
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  data-revealed={message.id === marked || undefined}
                  className={cn(
                    'absolute top-0 left-0 w-full rounded-lg py-1.5 transition-colors duration-700',
                    message.id === marked && 'bg-amber-100 dark:bg-amber-900/40',
                  )}
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  {compared && question ? (
                    // Wider than the conversation's column (never wider than the list), centred on it.
                    <div className="relative left-1/2 w-[min(72rem,calc(100cqw-2rem))] -translate-x-1/2">
                      <CompareTurn
                        conversationId={conversationId}
                        questionId={question.id}
                        replies={compared}
                        activeId={message.id}
                        streamingIds={streamingIds}
                      />
                    </div>
                  ) : (
                    <MessageItem
                      message={message}
                      conversationId={conversationId}
                      streaming={streamingIds.includes(message.id)}
                      busy={streamingIds.length > 0}
                      isLast={message === last}
                      version={versions.index + 1}
                      versionCount={versions.siblings.length}
                    />
                  )}
                </div>
              );
            })}
          </div>
          {unanswered && (
            <div className="flex flex-wrap items-center gap-2 py-2 text-xs text-muted-foreground">
              <span>No reply was received.</span>
              {failure && (
                <span data-testid="failure-reason" className="text-red-700 dark:text-red-400">
                  {failure.reason}
                </span>
              )}
              {failure?.modelGone && (
                <Suspense fallback={null}>
                  <ModelGoneNotice conversationId={conversationId} questionId={last.id} />
                </Suspense>
              )}
              <button
                type="button"
                onClick={() => void chat.retry(conversationId)}
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
