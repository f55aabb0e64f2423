import { Check, Copy, RotateCcw } from 'lucide-react';
import { memo } from 'react';
import type { Message } from '../../domain/conversation.ts';
import { isMarkdownLike } from '../../domain/conversation-rules.ts';
import { useCopy } from '../../hooks/use-copy.ts';
import { cn } from '../../lib/cn.ts';
import { retryLastReply } from '../../state/send-commands.ts';
import { Markdown } from './lazy-markdown.tsx';
import { MessageErrorBoundary } from './message-error-boundary.tsx';

interface MessageItemProps {
  message: Message;
  conversationId: string;
  streaming: boolean;
  /** The last message of the conversation: the place for Retry. */
  isLast: boolean;
}

export const MessageItem = memo(function MessageItem({
  message,
  conversationId,
  streaming,
  isLast,
}: MessageItemProps) {
  const { copied, copy } = useCopy('Message copied to clipboard');
  const isUser = message.role === 'user';
  const showRetry = isLast && !streaming && message.role === 'assistant' && message.status === 'interrupted';

  return (
    <article
      data-testid="message"
      data-role={message.role}
      className={cn(
        'group relative rounded-lg px-4 py-3',
        isUser ? 'bg-indigo-50 dark:bg-indigo-950/40' : 'bg-gray-50 dark:bg-gray-900',
      )}
    >
      <div className="mb-1 flex items-center justify-between">
        <span className="text-xs font-semibold text-gray-600 dark:text-gray-400">
          {isUser ? 'You' : 'Assistant'}
        </span>
        <button
          type="button"
          aria-label={copied ? 'Message copied' : 'Copy message'}
          onClick={() => void copy(message.content)}
          className="rounded p-1 text-gray-500 opacity-0 group-hover:opacity-100 hover:bg-gray-200 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700"
        >
          {copied ? checkIcon : copyIcon}
        </button>
      </div>
      <div className="message-content text-sm leading-relaxed break-words text-gray-900 dark:text-gray-100">
        <MessageErrorBoundary text={message.content}>
          {!isUser && isMarkdownLike(message.content) ? (
            <Markdown text={message.content} live={streaming} />
          ) : (
            <div className="whitespace-pre-wrap">{message.content}</div>
          )}
        </MessageErrorBoundary>
        {streaming && <span data-testid="streaming-cursor" aria-hidden className="streaming-cursor" />}
      </div>
      {message.status && (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-amber-700 dark:text-amber-400">
          <span>
            {message.status === 'stopped'
              ? 'Stopped: the reply is incomplete.'
              : `Interrupted: the reply is incomplete${message.error ? ` (${message.error})` : ''}.`}
          </span>
          {showRetry && (
            <button
              type="button"
              onClick={() => void retryLastReply(conversationId)}
              className="inline-flex items-center gap-1 rounded border border-amber-600/40 px-2 py-0.5 hover:bg-amber-100 dark:hover:bg-amber-900/40"
            >
              <RotateCcw className="size-3" /> Retry
            </button>
          )}
        </div>
      )}
    </article>
  );
});

// Created once: the streaming message re-renders every frame and reuses them as they are.
const copyIcon = <Copy className="size-3.5" />;
const checkIcon = <Check className="size-3.5" />;
