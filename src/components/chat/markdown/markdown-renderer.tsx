import { memo, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { whenIdle } from '../../../lib/when-idle.ts';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { CodeBlock, textOf } from './code-block.tsx';
import { RemoteImage } from './remote-image.tsx';
import { Formula } from './formula.tsx';
import { hasMath, normalizeMath } from '../../../domain/math-source.ts';
import { MermaidDiagram } from './mermaid-diagram.tsx';
import { PreviewableCode, previewLanguages } from './html-preview.tsx';
import { sanitizeSchema } from './sanitize-schema.ts';
import { parseOpenFence, splitMarkdownBlocks } from './split-blocks.ts';

// Raw HTML is parsed, then sanitized with an allow-list; react-markdown's default URL transform
// then keeps only http, https, irc, ircs, mailto, xmpp and relative addresses (the spec's rule).
type RemarkPlugins = NonNullable<Parameters<typeof ReactMarkdown>[0]['remarkPlugins']>;
const remarkPlugins: RemarkPlugins = [remarkGfm];
// Only blocks holding a formula are parsed for math: `$` would otherwise cost every block.
const remarkPluginsWithMath: RemarkPlugins = [remarkGfm, [remarkMath, { singleDollarTextMath: true }]];
type RehypePlugins = NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']>;
const withRawHtml: RehypePlugins = [rehypeRaw, [rehypeSanitize, sanitizeSchema]];
// Without a '<' a block holds no raw HTML: skip the HTML parser, the costliest step while streaming.
const withoutRawHtml: RehypePlugins = [[rehypeSanitize, sanitizeSchema]];

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  img: ({ src, alt }) => <RemoteImage src={typeof src === 'string' ? src : undefined} alt={alt} />,
  // A formula on its own lines comes as a code block of language math (so does a ```math fence).
  pre: ({ node, children }) => {
    const code = node?.children[0];
    if (code?.type === 'element' && isMath(code.properties.className)) {
      const tex = code.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
      return <Formula tex={tex.replace(/\n$/, '')} display />;
    }
    return <>{children}</>;
  },
  code: ({ className, children }) => {
    const text = textOf(children);
    if (isMath(className)) return <Formula tex={text} display={false} />;
    const language = /language-([\w+#-]+)/.exec(className ?? '')?.[1];
    const isBlock = language !== undefined || text.endsWith('\n');
    if (!isBlock)
      return (
        <code className="rounded bg-gray-100 px-1 py-0.5 text-[0.9em] dark:bg-gray-800">{children}</code>
      );
    const code = text.replace(/\n$/, '');
    // A fence that has closed (a streaming one is a CodeBlock until then) can be drawn.
    const lowered = language?.toLowerCase();
    if (lowered === 'mermaid') return <MermaidDiagram source={code} />;
    if (lowered !== undefined && previewLanguages.has(lowered))
      return <PreviewableCode code={code} language={lowered} />;
    return <CodeBlock code={code} language={lowered} />;
  },
};

/** remark-math marks formulas `language-math` (its other classes do not pass the sanitizer). */
function isMath(className: unknown): boolean {
  const classes = Array.isArray(className) ? className : String(className ?? '').split(' ');
  return classes.includes('language-math');
}

/**
 * Blocks already turned into elements, by text (least recently used first): a block shown again
 * (another version of a reply, a message scrolled back into view) is not parsed again. Elements
 * are immutable descriptions, safe to mount any number of times.
 */
const renderedBlocks = new Map<string, ReactElement>();
const renderedBlocksLimit = 400;

/** A block as elements. Formulas are typeset after the sanitizer, from their text alone. */
function renderBlock(text: string, remember: boolean): ReactElement {
  const cached = renderedBlocks.get(text);
  if (cached) {
    renderedBlocks.delete(text);
    renderedBlocks.set(text, cached);
    return cached;
  }
  const normalized = text.includes('$') || text.includes('\\') ? normalizeMath(text) : text;
  const withMath = hasMath(normalized);
  const rehype = text.includes('<') ? withRawHtml : withoutRawHtml;
  // react-markdown's Markdown is a plain function of its props (no hooks): its result can be kept.
  const element = ReactMarkdown({
    children: withMath ? normalized : text,
    remarkPlugins: withMath ? remarkPluginsWithMath : remarkPlugins,
    rehypePlugins: rehype,
    components,
  });
  if (remember) {
    if (renderedBlocks.size >= renderedBlocksLimit) {
      const oldest = renderedBlocks.keys().next().value;
      if (oldest !== undefined) renderedBlocks.delete(oldest);
    }
    renderedBlocks.set(text, element);
  }
  return element;
}

/**
 * `growing`: the last block of a streaming reply, different every frame, so not worth keeping.
 * Only a new text renders a block again: one that stops growing is not parsed once more.
 */
export const MarkdownBlock = memo(
  function MarkdownBlock({ text, growing }: { text: string; growing: boolean }) {
    return renderBlock(text, !growing);
  },
  (before, after) => before.text === after.text,
);

/** Parses replies that may be shown next (the other versions of those in view) ahead of time. */
export function prepareMarkdown(texts: readonly string[]): void {
  for (const text of texts) for (const block of splitMarkdownBlocks(text)) renderBlock(block, true);
}

/**
 * Renders a reply as markdown, block by block, so streaming re-parses only the last block; while
 * `live` (streaming), a last block that is a code fence still open skips the parser altogether.
 */
export default function MarkdownRenderer({ text, live = false }: { text: string; live?: boolean }) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  const lastIndex = blocks.length - 1;
  const openFence = live ? parseOpenFence(blocks[lastIndex] ?? '') : null;
  // While a reply streams in, its blocks out of view are not painted again (see styles.css). A
  // block painted once keeps its size; blocks never painted (the reader had scrolled up, the tab
  // was hidden) get their real size back when the containment is lifted, in idle time after the
  // stream. Lifting it restyles and lays out the whole reply (a long task of some 50 ms at 6000
  // tokens), so it is done only when some block was never painted. A reply that opens finished
  // renders plainly.
  const [skipOffscreen, setSkipOffscreen] = useState(live);
  if (live && !skipOffscreen) setSkipOffscreen(true);
  const container = useRef<HTMLDivElement>(null);
  const painted = useRef(new WeakSet<Element>());
  useEffect(() => {
    const element = container.current;
    if (!skipOffscreen || !element) return;
    // Not a bubbling event: heard in the capture phase, for every block.
    const seen = (event: Event) => {
      if (!(event as ContentVisibilityAutoStateChangeEvent).skipped && event.target instanceof Element)
        painted.current.add(event.target);
    };
    element.addEventListener('contentvisibilityautostatechange', seen, true);
    return () => element.removeEventListener('contentvisibilityautostatechange', seen, true);
  }, [skipOffscreen]);
  useEffect(() => {
    if (live || !skipOffscreen) return;
    return whenIdle(() => {
      const blocks = Array.from(container.current?.children ?? []);
      if (!blocks.every((block) => painted.current.has(block))) setSkipOffscreen(false);
    });
  }, [live, skipOffscreen]);
  return (
    <div ref={container} className={skipOffscreen ? 'markdown markdown-skip-offscreen' : 'markdown'}>
      {blocks.map((block, index) =>
        index === lastIndex && openFence ? (
          <CodeBlock key={index} code={openFence.code} language={openFence.language} live />
        ) : (
          <MarkdownBlock key={index} text={block} growing={live && index === lastIndex} />
        ),
      )}
    </div>
  );
}
