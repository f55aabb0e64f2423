import { Check, Copy } from 'lucide-react';
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { whenIdle } from '../../../lib/when-idle.ts';
import { useCopy } from '../../../hooks/use-copy.ts';
import { useThrottledValue } from '../../../hooks/use-throttled-value.ts';
import { highlightCode } from './highlight.ts';

interface CodeBlockProps {
  code: string;
  language: string | undefined;
  /** Still being streamed: highlight its finished lines a few times a second, not every frame. */
  live?: boolean;
  /** More buttons for the header, before Copy. */
  actions?: ReactNode;
  /** Shown under the code (a preview). */
  children?: ReactNode;
}

/**
 * A ref for a box that scrolls sideways only when its lines are long: while they are, it takes
 * the focus (tabindex 0), so a keyboard can scroll it too; otherwise it adds no stop to the tab
 * order. Checked after each render once the code is whole: not on every frame of a streaming block.
 */
function useFocusableWhenScrolling(live: boolean) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || live) return;
    const scrolls = element.scrollWidth > element.clientWidth;
    if (scrolls) element.tabIndex = 0;
    else element.removeAttribute('tabindex');
  });
  return ref;
}

/** How often a streaming code block is highlighted again: its newest lines show plain till then. */
const liveHighlightIntervalMs = 250;

/** A fenced code block: language label, copy button and syntax highlighting. */
export const CodeBlock = memo(function CodeBlock({
  code,
  language,
  live = false,
  actions,
  children,
}: CodeBlockProps) {
  const { copied, copy } = useCopy('Code copied to clipboard');
  const scrolls = useFocusableWhenScrolling(live);
  const sampled = useThrottledValue(code, liveHighlightIntervalMs, live);
  // Highlighted: whole lines of the code as last sampled (a prefix of it while streaming only
  // appends); the rest shows as plain text until the next sample.
  const highlighted =
    live && code.startsWith(sampled) ? sampled.slice(0, sampled.lastIndexOf('\n') + 1) : code;
  // highlight.js escapes the source text, so its HTML output holds no markup from the reply.
  const html = useHighlight(highlighted, language);
  const plain = html === null ? code : code.slice(highlighted.length);

  return (
    <div className="group/code my-3 overflow-hidden rounded-md border border-gray-200 bg-gray-50 dark:border-gray-700 dark:bg-gray-900">
      <div className="flex items-center justify-between border-b border-gray-200 px-3 py-1 text-xs text-faint-foreground dark:border-gray-700">
        <span>{language ?? 'text'}</span>
        <span className="flex items-center gap-1">
          {actions}
          <button
            type="button"
            aria-label={copied ? 'Code copied' : 'Copy code'}
            onClick={() => void copy(code)}
            className="rounded p-1 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700"
          >
            {copied ? checkIcon : copyIcon}
          </button>
        </span>
      </div>
      <pre
        ref={scrolls}
        className="overflow-x-auto p-3 text-[13px] leading-relaxed focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
        style={skipLayout(code)}
      >
        <code className={html === null ? undefined : 'hljs'}>
          {html !== null && <span dangerouslySetInnerHTML={{ __html: html }} />}
          {plain}
        </code>
      </pre>
      {children}
    </div>
  );
});

/**
 * Code up to this length is highlighted as it renders; longer code (up to 50 KB, some tens of ms
 * each) in idle time, one block a task: a reply with twenty long blocks would otherwise cost all
 * of them in the task that opens it.
 */
const highlightWhileRendering = 4096;

function useHighlight(code: string, language: string | undefined): string | null {
  const now = code.length <= highlightWhileRendering;
  const inline = useMemo(() => (now ? highlightCode(code, language) : null), [now, code, language]);
  const [later, setLater] = useState<{ code: string; language?: string; html: string | null } | null>(null);
  useEffect(() => {
    if (now) return;
    return highlightLater(() => setLater({ code, language, html: highlightCode(code, language) }));
  }, [now, code, language]);
  if (now) return inline;
  return later?.code === code && later.language === language ? later.html : null;
}

/** Highlightings waiting for idle time, run one a task (idle callbacks may share one). */
const waiting = new Set<() => void>();
let scheduled = false;

function highlightLater(job: () => void): () => void {
  waiting.add(job);
  if (!scheduled) runNextWhenIdle();
  return () => waiting.delete(job);
}

function runNextWhenIdle(): void {
  scheduled = true;
  whenIdle(() => {
    const job = waiting.values().next().value;
    if (job) {
      waiting.delete(job);
      job();
    }
    scheduled = false;
    // The next one in a task of its own.
    if (waiting.size > 0) setTimeout(runNextWhenIdle);
  });
}

/**
 * Code of many lines is laid out only when near the screen, at its exact height meanwhile (the
 * line height of the block below): a reply of twelve 40 KB blocks laid them all out at once.
 */
const skipLayoutFromLines = 200;
const codeLinePx = 13 * 1.625;
/** The block's padding (p-3) and a scroll bar's height. */
const codeChromePx = 24 + 16;

function skipLayout(code: string): CSSProperties | undefined {
  let lines = 1;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) lines++;
  if (lines < skipLayoutFromLines) return undefined;
  const height = Math.round(lines * codeLinePx + codeChromePx);
  return { contentVisibility: 'auto', containIntrinsicBlockSize: `auto ${height}px` };
}

// Created once: a re-rendered block (every frame while streaming) reuses them as they are.
const copyIcon = <Copy className="size-3.5" />;
const checkIcon = <Check className="size-3.5" />;

/** Pulls the plain text out of the children the markdown tree gives a code element. */
export function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  return '';
}
