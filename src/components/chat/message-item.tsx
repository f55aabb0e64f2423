import { Check, Copy, GitBranch, Pencil, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import { memo, useState, type ReactNode } from 'react';
import { attachmentParts, messageText, type Message } from '../../domain/conversation.ts';
import { useCopy } from '../../hooks/use-copy.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import { MessageErrorBoundary } from './message-error-boundary.tsx';
import { PlainText } from './plain-text.tsx';
import { MessageFiles } from './message-files.tsx';
import { MessageVersions } from './message-versions.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import type { MessageEditFormProps } from './message-edit-form.tsx';

// The edit form loads when a message is first edited, outside the chat screen's first load.
const MessageEditForm = lazyPart<MessageEditFormProps>(() =>
  import('./message-edit-form.tsx').then((module) => ({ default: module.MessageEditForm })),
);
import { ReplyBody } from './reply-body.tsx';
import { ReadAloudButton, useReading } from './read-aloud-controls.tsx';
import type { ReadingControlsProps } from './reading-controls.tsx';

// Pause, Resume and Stop of a reading: loaded with the first one.
const ReadingControls = lazyPart<ReadingControlsProps>(() => import('./reading-controls.tsx'));
import { ReplyFooter } from './reply-footer.tsx';
import { RegenerateWith } from './regenerate-with.tsx';

interface MessageItemProps {
  message: Message;
  conversationId: string;
  /** This message is the reply streaming in. */
  streaming: boolean;
  /** A reply is streaming: the tree is not to be changed meanwhile. */
  busy: boolean;
  /** The last message of the path: the place for Retry. */
  isLast: boolean;
  /** Its place among its versions (1-based) and how many there are. */
  version: number;
  versionCount: number;
}

const actionButton =
  'rounded p-1 text-gray-500 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-40 disabled:hover:bg-transparent dark:hover:bg-gray-700';

function Action({
  label,
  onClick,
  disabled = false,
  children,
}: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className={actionButton}
    >
      {children}
    </button>
  );
}

export const MessageItem = memo(function MessageItem({
  message,
  conversationId,
  streaming,
  busy,
  isLast,
  version,
  versionCount,
}: MessageItemProps) {
  const { copied, copy } = useCopy('Message copied to clipboard');
  const [editing, setEditing] = useState(false);
  const isUser = message.role === 'user';
  const text = messageText(message);
  const isReply = message.role === 'assistant';
  // A reply's pictures are shown where they came, with its steps.
  const files = isReply ? [] : attachmentParts(message);
  const showRetry = isLast && !busy && message.role === 'assistant' && message.status === 'interrupted';
  const reading = useReading(message.id);

  return (
    <article
      data-testid="message"
      data-role={message.role}
      data-message-id={message.id}
      className={cn(
        'group relative rounded-lg px-4 py-3',
        isUser ? 'bg-indigo-50 dark:bg-indigo-950/40' : 'bg-gray-50 dark:bg-gray-900',
      )}
    >
      <div className="mb-1 flex items-center justify-between gap-2">
        <span className="text-xs font-semibold text-muted-foreground">
          {isUser ? 'You' : 'Assistant'}
          {message.model && (
            <span data-testid="message-model" className="ml-1.5 font-normal text-faint-foreground">
              {message.model}
            </span>
          )}
        </span>
        <div className="flex items-center gap-1">
          {versionCount > 1 && (
            <MessageVersions
              version={version}
              count={versionCount}
              disabled={busy}
              onStep={(step) => void chat.showVersion(conversationId, message.id, step)}
            />
          )}
          {/* Revealed on hover or keyboard focus; always shown where there is no hover (touch). */}
          <div className="flex items-center opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:opacity-100">
            <Action label={copied ? 'Message copied' : 'Copy message'} onClick={() => void copy(text)}>
              {copied ? checkIcon : copyIcon}
            </Action>
            {isUser ? (
              <Action label="Edit message" disabled={busy} onClick={() => setEditing(true)}>
                {editIcon}
              </Action>
            ) : (
              <>
                {!streaming && !reading && text.trim() !== '' && (
                  <ReadAloudButton messageId={message.id} text={text} className={actionButton} />
                )}
                <Action
                  label="Regenerate"
                  disabled={busy}
                  onClick={() => void chat.regenerate(conversationId, message.id)}
                >
                  {regenerateIcon}
                </Action>
                <RegenerateWith
                  conversationId={conversationId}
                  messageId={message.id}
                  disabled={busy}
                  className={actionButton}
                />
              </>
            )}
            <Action
              label="Branch into new conversation"
              disabled={streaming}
              onClick={() => void chat.branchFrom(conversationId, message.id)}
            >
              {branchIcon}
            </Action>
            <Action
              label="Delete message"
              disabled={busy}
              onClick={() => void chat.deleteMessage(conversationId, message.id)}
            >
              {deleteIcon}
            </Action>
          </div>
          {reading && <ReadingControls status={reading} className={actionButton} />}
        </div>
      </div>
      {isReply ? (
        <ReplyBody message={message} streaming={streaming} />
      ) : (
        <>
          {files.length > 0 && <MessageFiles files={files} />}
          <div className="message-content text-sm leading-relaxed break-words text-gray-900 dark:text-gray-100">
            {editing ? (
              <MessageEditForm
                initialText={text}
                busy={busy}
                onSend={(edited) => chat.edit(conversationId, message.id, edited)}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <MessageErrorBoundary text={text}>
                <PlainText text={text} />
              </MessageErrorBoundary>
            )}
          </div>
        </>
      )}
      {message.stats && !streaming && (
        <ReplyFooter
          stats={message.stats}
          conversationId={conversationId}
          messageId={message.id}
          canContinue={isLast && !busy}
        />
      )}
      {message.notices?.map((notice) => (
        <p key={notice} className="mt-2 text-xs text-faint-foreground">
          {notice}
        </p>
      ))}
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
              onClick={() => void chat.retry(conversationId)}
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
const editIcon = <Pencil className="size-3.5" />;
const regenerateIcon = <RefreshCw className="size-3.5" />;
const branchIcon = <GitBranch className="size-3.5" />;
const deleteIcon = <Trash2 className="size-3.5" />;
