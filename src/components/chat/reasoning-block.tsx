import { ChevronRight } from 'lucide-react';
import { memo, useId, useState } from 'react';
import type { ReasoningPart } from '../../domain/conversation.ts';
import { thoughtFor } from '../../domain/reply-stats.ts';
import { cn } from '../../lib/cn.ts';
import { Markdown } from './lazy-markdown.tsx';

interface ReasoningBlockProps {
  parts: readonly ReasoningPart[];
  /** The reply is streaming and its answer has not started: the thinking is live. */
  thinking: boolean;
  thinkingMs?: number;
}

/**
 * A reply's thinking: open while it streams under 'Thinking…', closed to 'Thought for N s' once
 * the answer starts, unless the user opened or closed it (their choice then stays).
 */
export const ReasoningBlock = memo(function ReasoningBlock({
  parts,
  thinking,
  thinkingMs,
}: ReasoningBlockProps) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const regionId = useId();
  const toggleId = useId();
  const text = parts
    .map((part) => part.text)
    .filter(Boolean)
    .join('\n\n');
  const redacted = parts.some((part) => part.redacted);
  if (!text && !redacted) return null;
  const open = chosen ?? thinking;
  const label = thinking ? 'Thinking…' : thinkingMs !== undefined ? thoughtFor(thinkingMs) : 'Thoughts';

  return (
    <div data-testid="reasoning" className="mb-2">
      <button
        id={toggleId}
        type="button"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setChosen(!open)}
        className="inline-flex items-center gap-1 rounded text-xs font-medium text-muted-foreground hover:text-gray-900 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:text-gray-100"
      >
        <ChevronRight aria-hidden className={cn('size-3.5 transition-transform', open && 'rotate-90')} />
        <span className={cn(thinking && 'motion-safe:animate-pulse')}>{label}</span>
      </button>
      <div
        id={regionId}
        role="region"
        aria-labelledby={toggleId}
        hidden={!open}
        className="reasoning mt-1 border-l-2 border-gray-300 pl-3 text-xs leading-relaxed text-muted-foreground dark:border-gray-700"
      >
        {open && text && <Markdown text={text} live={thinking} />}
        {open && redacted && <p className="italic">Part of this thinking was redacted by the provider.</p>}
      </div>
    </div>
  );
}, sameBlock);

/** While the answer streams, finished blocks keep their identity: nothing here is rendered again. */
function sameBlock(before: ReasoningBlockProps, after: ReasoningBlockProps): boolean {
  return (
    before.thinking === after.thinking &&
    before.thinkingMs === after.thinkingMs &&
    before.parts.length === after.parts.length &&
    before.parts.every((part, index) => part === after.parts[index])
  );
}
