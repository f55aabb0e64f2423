import { ChevronRight, LoaderCircle, ShieldQuestion, Wrench } from 'lucide-react';
import { memo, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ToolResultContent } from '../../domain/tools.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useObjectUrl } from '../../hooks/use-object-url.ts';
import { boundedText } from '../../lib/bounded-text.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import type { ToolApproval } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { PlainText } from './plain-text.tsx';
import type { ToolUse } from './reply-steps.ts';
import {
  outcomeBadge,
  prettyJson,
  shortName,
  shownArguments,
  shownChars,
  toolOutcome,
  toolSourceName,
} from './tool-format.ts';

interface ToolCardProps {
  use: ToolUse;
  /** The reply is streaming: a call without a result is running (or waiting to). */
  streaming: boolean;
  /** This call waits for the user's 'Allow once', 'Always allow' or 'Deny'. */
  approval: ToolApproval | null;
  /** Open to its arguments and result (kept by the reply, so a closed card can skip their updates). */
  open: boolean;
  onToggle(callId: string): void;
}

/**
 * A tool the reply used: one line ('Used {tool}', 'Running {tool}…') that opens to its arguments
 * and result, or, while the call waits for the user, the question whether it may run. What a tool
 * returned is shown as text, bounded, and never formatted, linked or run.
 */
export const ToolCard = memo(function ToolCard({ use, streaming, approval, open, onToggle }: ToolCardProps) {
  const { call, result } = use;
  const bodyId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const outcome = toolOutcome(result, streaming);
  const badge = outcomeBadge[outcome];
  const name = shortName(call.name);
  const servers = useChatState((state) => state.mcpServers);
  const source = toolSourceName(call.server, servers);
  const title = outcome === 'running' ? `Running ${name}…` : `${result ? 'Used' : 'Called'} ${name}`;
  const label = `${title}${source ? ` (${source})` : ''}${badge ? `, ${badge.toLowerCase()}` : ''}`;

  // Answered: the focus, which was on the prompt's buttons, stays with the card.
  const asked = useRef(false);
  useEffect(() => {
    if (approval) asked.current = true;
    else if (asked.current) {
      asked.current = false;
      if (document.activeElement === document.body) toggle.current?.focus({ preventScroll: true });
    }
  }, [approval]);

  return (
    <div
      data-testid="tool-card"
      data-outcome={outcome}
      className={cn(
        'my-2 rounded-md border bg-white text-xs dark:bg-gray-950',
        approval
          ? 'border-amber-400 dark:border-amber-600'
          : outcome === 'failed'
            ? 'border-red-300 dark:border-red-800'
            : 'border-gray-200 dark:border-gray-700',
      )}
    >
      {approval ? (
        <ApprovalPrompt name={name} arguments={call.arguments} approval={approval} />
      ) : (
        <>
          <button
            ref={toggle}
            type="button"
            aria-expanded={open}
            aria-controls={bodyId}
            aria-label={label}
            title={call.name.length > name.length ? call.name : undefined}
            onClick={() => onToggle(call.callId)}
            className="flex w-full min-w-0 items-center gap-1.5 rounded-md px-2.5 py-1.5 text-left hover:bg-gray-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:hover:bg-gray-900"
          >
            <ChevronRight
              aria-hidden
              className={cn(
                'size-3.5 shrink-0 text-muted-foreground transition-transform',
                open && 'rotate-90',
              )}
            />
            {outcome === 'running' ? (
              <LoaderCircle aria-hidden className="size-3.5 shrink-0 animate-spin text-muted-foreground" />
            ) : (
              <Wrench aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
            )}
            <span className="min-w-0 truncate font-medium text-gray-800 dark:text-gray-200">
              {outcome === 'running' ? 'Running ' : result ? 'Used ' : 'Called '}
              <code className="font-mono">{name}</code>
              {outcome === 'running' && '…'}
            </span>
            {source && <span className="shrink-0 text-faint-foreground">{source}</span>}
            {badge && (
              <span
                className={cn(
                  'ml-auto shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium',
                  outcome === 'failed'
                    ? 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300'
                    : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
                )}
              >
                {badge}
              </span>
            )}
          </button>
          <div
            id={bodyId}
            hidden={!open}
            className="border-t border-gray-200 px-2.5 py-2 dark:border-gray-700"
          >
            {open && (
              <>
                <Arguments text={call.arguments} tool={name} />
                <Section label="Result">
                  {result ? (
                    <ResultContent content={result.content} tool={name} />
                  ) : (
                    <p className="text-muted-foreground">
                      {outcome === 'running' ? 'Running…' : 'Nothing came back for this call.'}
                    </p>
                  )}
                </Section>
              </>
            )}
          </div>
        </>
      )}
    </div>
  );
}, sameCard);

/**
 * Rendered again only when what it shows changes, not on each streamed frame: a closed card shows
 * nothing of its arguments, so their fragments streaming in leave it alone (measured: a reply of
 * ten calls cost 1.34 times the main thread of the same text while every fragment re-rendered it).
 */
function sameCard(before: ToolCardProps, after: ToolCardProps): boolean {
  const [was, is] = [before.use.call, after.use.call];
  const argumentsShown = after.open || after.approval !== null;
  return (
    (was === is ||
      (was.callId === is.callId &&
        was.name === is.name &&
        was.server === is.server &&
        (!argumentsShown || was.arguments === is.arguments))) &&
    before.use.result === after.use.result &&
    before.streaming === after.streaming &&
    before.approval === after.approval &&
    before.open === after.open &&
    before.onToggle === after.onToggle
  );
}

/** 'Allow {tool} to run?': nothing goes on until the user answers (or stops the reply). */
function ApprovalPrompt({
  name,
  arguments: args,
  approval,
}: {
  name: string;
  arguments: string;
  approval: ToolApproval;
}) {
  const headingId = useId();
  const allow = useRef<HTMLButtonElement>(null);
  const { hints, sourceLabel } = approval;
  const destructive = hints.destructive === true;
  const hintTitle = hints.title && hints.title !== name ? boundedText(hints.title, 200).shown : undefined;
  // Nothing proceeds without an answer: the focus comes here, as it would to a dialog (the
  // message box is disabled while the reply runs, so nothing being typed is interrupted).
  useEffect(() => allow.current?.focus(), []);

  return (
    <div role="group" aria-labelledby={headingId} className="rounded-md bg-amber-50 p-3 dark:bg-amber-950/30">
      <p
        id={headingId}
        className="flex items-center gap-1.5 text-sm font-medium text-gray-900 dark:text-gray-100"
      >
        <ShieldQuestion aria-hidden className="size-4 shrink-0 text-amber-700 dark:text-amber-400" />
        <span className="min-w-0 break-words">
          Allow <code className="font-mono">{name}</code> to run?
        </span>
      </p>
      <p className="mt-1 text-muted-foreground">
        From {sourceLabel}
        {hintTitle && <span className="text-faint-foreground"> · {hintTitle}</span>}
      </p>
      {destructive && (
        <p className="mt-1 font-medium text-red-700 dark:text-red-400">
          The server says this tool changes or deletes data.
        </p>
      )}
      {hints.readOnly === true && !destructive && (
        <p className="mt-1 text-faint-foreground">The server says this tool only reads data.</p>
      )}
      <Arguments text={args} tool={name} />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button ref={allow} size="sm" onClick={() => chat.answerToolCall('once')}>
          Allow once
        </Button>
        {!destructive && (
          <Button
            size="sm"
            variant="outline"
            aria-label={`Always allow ${name}`}
            onClick={() => chat.answerToolCall('always')}
            className="max-w-full"
          >
            <span className="truncate">
              Always allow <code className="font-mono">{name}</code>
            </span>
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={() => chat.answerToolCall('deny')}>
          Deny
        </Button>
      </div>
    </div>
  );
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="mt-2 first:mt-0">
      <p className="mb-1 font-medium text-muted-foreground">{label}</p>
      {children}
    </div>
  );
}

const codeBox =
  'rounded bg-gray-100 px-2 py-1.5 font-mono text-[12px] leading-relaxed break-words whitespace-pre-wrap text-gray-900 dark:bg-gray-900 dark:text-gray-100';

function Arguments({ text, tool }: { text: string; tool: string }) {
  const shown = shownArguments(text);
  return (
    <Section label="Arguments">
      {shown === '' ? (
        <p className="text-muted-foreground">None</p>
      ) : (
        <BoundedText text={shown} label={`Arguments of ${tool}`} />
      )}
    </Section>
  );
}

/**
 * A text shown as it is, at most `shownChars` of it until 'Show all'. A long one scrolls in a box of
 * its own (which the keyboard can scroll too) rather than stretching the reply.
 */
function BoundedText({ text, label }: { text: string; label: string }) {
  const [all, setAll] = useState(false);
  const { shown, cut } = boundedText(text, shownChars);
  const tall = cut || shown.length > 1500 || lineCount(shown) > 18;
  return (
    <div>
      <div
        className={cn(codeBox, tall && 'max-h-96 overflow-y-auto')}
        {...(tall && { role: 'region', 'aria-label': label, tabIndex: 0 })}
      >
        {all ? <PlainText text={text} /> : shown}
      </div>
      {cut && !all && (
        <button
          type="button"
          onClick={() => setAll(true)}
          className="mt-1 rounded font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300"
        >
          Show all ({text.length.toLocaleString('en')} characters)
        </button>
      )}
    </div>
  );
}

/** Lines in a text, counted up to 19 (enough to know it is tall). */
function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < 19; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

function ResultContent({ content, tool }: { content: readonly ToolResultContent[]; tool: string }) {
  if (content.length === 0) return <p className="text-muted-foreground">Nothing</p>;
  return (
    <div className="flex flex-col gap-1.5">
      {content.map((piece, index) =>
        piece.type === 'text' ? (
          <BoundedText key={index} text={prettyJson(piece.text)} label={`Result of ${tool}`} />
        ) : (
          <ToolImage key={index} attachmentId={piece.attachmentId} alt={`Image from ${tool}`} />
        ),
      )}
    </div>
  );
}

/** An image a tool returned, stored like an attachment. */
function ToolImage({ attachmentId, alt }: { attachmentId: string; alt: string }) {
  const url = useObjectUrl({ attachmentId });
  if (url === undefined) return <LoaderCircle aria-hidden className="size-5 animate-spin text-gray-400" />;
  if (url === null)
    return <p className="text-muted-foreground">This image is no longer in this browser's storage.</p>;
  return (
    <img
      src={url}
      alt={alt}
      className="h-auto max-h-80 w-auto max-w-full rounded border border-gray-200 object-contain dark:border-gray-700"
    />
  );
}
