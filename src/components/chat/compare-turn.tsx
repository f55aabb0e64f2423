import { Check, Combine, Copy, RotateCcw, Square } from 'lucide-react';
import { memo, useCallback, useEffect, useId, useState } from 'react';
import { messageText, type Message } from '../../domain/conversation.ts';
import { providerCatalog } from '../../domain/provider-catalog.ts';
import { liveStatsPhrases, statsPhrases } from '../../domain/reply-stats.ts';
import { useCopy } from '../../hooks/use-copy.ts';
import { useIsPhone } from '../../hooks/use-media-query.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { PanelTabs } from '../ui/panel-tabs.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';
import { LazyModelList } from './lazy-model-list.tsx';
import { ReplyBody } from './reply-body.tsx';

export interface CompareTurnProps {
  conversationId: string;
  questionId: string;
  /** The question's replies, in column order (a fused one after them). */
  replies: readonly Message[];
  /** The reply on the conversation's branch. */
  activeId: string;
  /** The replies streaming in this conversation. */
  streamingIds: readonly string[];
}

/** A column's name: its model, or for a fused reply the model that fused it. */
function columnLabel(reply: Message): string {
  const model = reply.model ?? (reply.provider ? providerCatalog[reply.provider].label : 'Assistant');
  return reply.fusedFrom ? `Fused by ${model}` : model;
}

/** The time now, every quarter second while `running` (a reply's live figures between its chunks). */
function useClock(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * A question asked of several models at once (docs/compare.md): their replies side by side on a
 * wide screen, a tab per model on a phone, each with its model, live figures, and its own Stop,
 * Retry and 'Continue with this one'; 'Fuse' under them.
 */
export default function CompareTurn({
  conversationId,
  questionId,
  replies,
  activeId,
  streamingIds,
}: CompareTurnProps) {
  const isPhone = useIsPhone();
  const base = useId();
  const [tab, setTab] = useState(activeId);
  const shownTab = replies.some((reply) => reply.id === tab) ? tab : (replies[0]?.id ?? '');
  const busy = streamingIds.length > 0;
  // A fused reply names its sources: a click shows that column.
  const show = useCallback(
    (id: string) => {
      setTab(id);
      if (!isPhone) document.getElementById(`${base}-${id}`)?.focus();
    },
    [base, isPhone],
  );
  const columns = replies.map((reply) => ({
    reply,
    content: (
      <CompareColumn
        id={`${base}-${reply.id}`}
        conversationId={conversationId}
        reply={reply}
        replies={replies}
        streaming={streamingIds.includes(reply.id)}
        busy={busy}
        onShow={show}
      />
    ),
  }));
  const fusable = replies.filter((reply) => !reply.fusedFrom && messageText(reply).trim() !== '').length >= 2;

  return (
    <div role="group" aria-label="Compared replies" data-testid="compare-turn" className="py-1.5">
      {isPhone ? (
        <PanelTabs
          tabs={columns.map(({ reply, content }) => ({
            value: reply.id,
            label: columnLabel(reply),
            content,
          }))}
          value={shownTab}
          onChange={setTab}
        />
      ) : (
        <div
          className={cn(
            'grid gap-3',
            replies.length === 2 && 'grid-cols-2',
            replies.length === 3 && 'grid-cols-3',
            replies.length >= 4 && 'grid-cols-4',
          )}
        >
          {columns.map(({ reply, content }) => (
            <div key={reply.id} className="min-w-0">
              {content}
            </div>
          ))}
        </div>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span>{busy ? 'The models are answering…' : 'Continue with one reply, or fuse them into one.'}</span>
        {fusable && (
          <PopoverButton
            asChild
            align="start"
            contentClassName="w-80"
            contentLabel="Fuse the replies"
            content={(close) => (
              <div className="flex flex-col gap-2">
                <p className="text-xs text-muted-foreground">
                  The model chosen here reads every reply and writes one answer from them.
                </p>
                <LazyModelList
                  onChoose={(pin) => {
                    close();
                    void chat.fuse(conversationId, questionId, pin);
                  }}
                />
              </div>
            )}
          >
            <Button size="sm" variant="outline" disabled={busy}>
              <Combine aria-hidden /> Fuse
            </Button>
          </PopoverButton>
        )}
      </div>
    </div>
  );
}

/**
 * One model's column. Rendered again only when its own reply changes (every frame while it streams,
 * not when another column's does), or, for a fused one, when the columns it names might have.
 */
const CompareColumn = memo(
  CompareColumnView,
  (before, after) =>
    before.id === after.id &&
    before.conversationId === after.conversationId &&
    before.reply === after.reply &&
    before.streaming === after.streaming &&
    before.busy === after.busy &&
    before.onShow === after.onShow &&
    (!after.reply.fusedFrom || before.replies === after.replies),
);

function CompareColumnView({
  id,
  conversationId,
  reply,
  replies,
  streaming,
  busy,
  onShow,
}: {
  id: string;
  conversationId: string;
  reply: Message;
  replies: readonly Message[];
  streaming: boolean;
  busy: boolean;
  onShow(id: string): void;
}) {
  const { copied, copy } = useCopy('Reply copied to clipboard');
  const now = useClock(streaming);
  const text = messageText(reply);
  const label = columnLabel(reply);
  const figures = streaming
    ? liveStatsPhrases(reply.stats, text.length, now - Date.parse(reply.createdAt))
    : reply.stats
      ? statsPhrases(reply.stats)
      : [];
  const sources = (reply.fusedFrom ?? []).flatMap((sourceId) => {
    const source = replies.find((known) => known.id === sourceId);
    return source ? [source] : [];
  });

  return (
    <section
      id={id}
      tabIndex={-1}
      aria-label={label}
      data-testid="compare-column"
      data-message-id={reply.id}
      className="flex h-full flex-col rounded-lg border border-gray-200 bg-gray-50 p-3 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-800 dark:bg-gray-900"
    >
      <header className="mb-2 flex flex-col gap-0.5">
        <h3 className="truncate text-xs font-semibold text-gray-700 dark:text-gray-200" title={label}>
          {label}
        </h3>
        {figures.length > 0 && (
          <p data-testid="compare-figures" className="text-xs text-faint-foreground">
            {figures.join(' · ')}
          </p>
        )}
        {sources.length > 0 && (
          <p className="text-xs text-faint-foreground">
            From{' '}
            {sources.map((source, index) => (
              <span key={source.id}>
                {index > 0 && ', '}
                <button
                  type="button"
                  onClick={() => onShow(source.id)}
                  className="underline underline-offset-2 hover:text-gray-900 dark:hover:text-gray-100"
                >
                  {columnLabel(source)}
                </button>
              </span>
            ))}
          </p>
        )}
      </header>
      <div className="min-w-0 flex-1">
        <ReplyBody message={reply} streaming={streaming} />
      </div>
      {reply.status && (
        <p className="mt-2 text-xs text-amber-700 dark:text-amber-400">
          {reply.status === 'stopped'
            ? 'Stopped: the reply is incomplete.'
            : text === '' && reply.error
              ? `Failed: ${reply.error}`
              : `Interrupted: the reply is incomplete${reply.error ? ` (${reply.error})` : ''}.`}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {streaming ? (
          <Button size="sm" variant="outline" onClick={() => chat.stop(reply.id)}>
            <Square aria-hidden /> Stop
          </Button>
        ) : (
          <>
            {reply.status === 'interrupted' && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => void chat.retryCompared(conversationId, reply.id)}
              >
                <RotateCcw aria-hidden /> Retry
              </Button>
            )}
            <Button
              size="sm"
              variant="outline"
              disabled={busy || text === ''}
              onClick={() => void chat.continueWith(conversationId, reply.id)}
            >
              Continue with this one
            </Button>
            <Button
              size="icon-sm"
              variant="ghost"
              aria-label={copied ? 'Reply copied' : 'Copy reply'}
              title={copied ? 'Reply copied' : 'Copy reply'}
              disabled={text === ''}
              onClick={() => void copy(text)}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
