import type { ElementContent, Root } from 'hast';
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactElement,
} from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { citationNumber, withCitationMarkers } from '../../../domain/citation-markers.ts';
import type { WebResearch } from '../../../domain/web-search.ts';
import { whenIdle } from '../../../lib/when-idle.ts';
import { CitationContext } from '../citation-context.ts';
import { artifactKind } from '../../../domain/artifacts.ts';
import { chat } from '../../../state/chat.ts';
import { ArtifactPanel } from '../../artifacts/lazy-artifact-panel.ts';
import { keepReactFrameWarm } from '../../artifacts/react-frame/warm-frame.ts';
import { CitationMarker } from './citation-marker.tsx';
import { isSandboxLink } from '../reply-files-context.ts';
import { SandboxLink } from './sandbox-link.tsx';
import { PlainText } from '../plain-text.tsx';
import { CodeBlock, textOf } from './code-block.tsx';
import { RemoteImage } from './remote-image.tsx';
import { Formula } from './formula.tsx';
import { MermaidDiagram } from './mermaid-diagram.tsx';
import { PreviewableCode, previewLanguages } from './html-preview.tsx';
import { boundBlockCount, markdownBudget, planBlock } from './markdown-budget.ts';
import { markdownToTree } from './markdown-tree.ts';
import { forgetBlock, parsedTree, requestParse, subscribeParsed } from './markdown-worker.ts';
import { parseClosedFence, parseOpenFence, splitMarkdownBlocks } from './split-blocks.ts';

const components: Components = {
  a: ({ href, children, node }) => {
    // A citation marker the reply's research put in (domain/citation-markers.ts).
    const cited = citationNumber(href);
    if (cited !== null) return <CitationMarker number={cited} />;
    const sandbox = node?.properties.dataSandbox;
    if (typeof sandbox === 'string') return <SandboxLink href={sandbox}>{children}</SandboxLink>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => <RemoteImage src={typeof src === 'string' ? src : undefined} alt={alt} />,
  // A formula on its own lines comes as a code block of language math (so does a ```math fence).
  pre: ({ node, children }) => {
    const code = node?.children[0];
    if (code?.type === 'element' && isMath(code.properties.className)) {
      const tex = code.children
        .map((child: ElementContent) => (child.type === 'text' ? child.value : ''))
        .join('');
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
    return <FencedCode code={text.replace(/\n$/, '')} language={language?.toLowerCase()} />;
  },
};

/**
 * A fence that has closed (a streaming one is a CodeBlock until then) can be drawn; one that is an
 * artifact (domain/artifacts.ts) can be opened in the panel beside the chat.
 */
function FencedCode({ code, language }: { code: string; language: string | undefined }) {
  if (language === 'math') return <Formula tex={code} display />;
  const kind = artifactKind({ language: language ?? '', code, closed: true });
  const open = kind === null ? undefined : <OpenInPanel code={code} react={kind === 'react'} />;
  if (language === 'mermaid') return <MermaidDiagram source={code} actions={open} />;
  if (language !== undefined && previewLanguages.has(language))
    return <PreviewableCode code={code} language={language} actions={open} />;
  return <CodeBlock code={code} language={language} actions={open} />;
}

function OpenInPanel({ code, react }: { code: string; react: boolean }) {
  // The panel's code loads in idle time once a reply has an artifact, and a React one has a frame
  // loaded ahead (react-frame/warm-frame.ts): opening it is then quick.
  useEffect(() => whenIdle(ArtifactPanel.preload), []);
  useEffect(() => (react ? keepReactFrameWarm() : undefined), [react]);
  return (
    <button
      type="button"
      onClick={() => void chat.openArtifact(code)}
      className="rounded px-1.5 py-0.5 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700"
    >
      Open in panel
    </button>
  );
}

/** remark-math marks formulas `language-math` (its other classes do not pass the sanitizer). */
function isMath(className: unknown): boolean {
  const classes = Array.isArray(className) ? className : String(className ?? '').split(' ');
  return classes.includes('language-math');
}

const safeProtocol = /^(?:https?|ircs?|mailto|xmpp)$/i;

/**
 * The rule for links (docs/behaviour.md#safe-rendering) and image addresses: only http, https, irc, ircs, mailto and xmpp, or
 * a relative address; any other is replaced with an empty value.
 */
export function safeUrl(value: string): string {
  const colon = value.indexOf(':');
  if (colon === -1) return value;
  const before = (mark: string) => {
    const at = value.indexOf(mark);
    return at !== -1 && at < colon;
  };
  // A colon after a path, query or fragment starts no scheme.
  if (before('/') || before('?') || before('#')) return value;
  return safeProtocol.test(value.slice(0, colon)) ? value : '';
}

/** Applies the URL rule to every address of the (sanitized) tree, walking without recursion. */
function withSafeUrls(tree: Root): Root {
  const stack: Root['children'] = [];
  const visit = (children: Root['children']) => {
    // One push each: a spread of 100,000 children overflows the stack.
    for (const child of children) stack.push(child);
  };
  visit(tree.children);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node?.type !== 'element') continue;
    // A link into the provider's sandbox goes to the reply's own file, if it made one (SandboxLink).
    const href = node.properties.href;
    if (node.tagName === 'a' && typeof href === 'string' && isSandboxLink(href))
      node.properties.dataSandbox = href;
    for (const [name, tags] of Object.entries(urlAttributes)) {
      const value = node.properties[name];
      if (value !== undefined && (tags === null || tags.includes(node.tagName)))
        node.properties[name] = safeUrl(String(value ?? ''));
    }
    visit(node.children);
  }
  return tree;
}

function treeToElement(tree: Root): ReactElement {
  return toJsxRuntime(withSafeUrls(tree), {
    Fragment,
    jsx,
    jsxs,
    components,
    ignoreInvalidStyle: true,
    passKeys: true,
    passNode: true,
  });
}

/**
 * Blocks already turned into elements, by text (least recently used first): a block shown again
 * (another version of a reply, a message scrolled back into view) is not parsed again. Elements
 * are immutable descriptions, safe to mount any number of times.
 */
const renderedBlocks = new Map<string, ReactElement>();
const renderedBlocksLimit = 400;

function remember(text: string, element: ReactElement): void {
  if (renderedBlocks.size >= renderedBlocksLimit) {
    const oldest = renderedBlocks.keys().next().value;
    if (oldest !== undefined) renderedBlocks.delete(oldest);
  }
  renderedBlocks.set(text, element);
}

function recalled(text: string): ReactElement | undefined {
  const cached = renderedBlocks.get(text);
  if (cached) {
    renderedBlocks.delete(text);
    renderedBlocks.set(text, cached);
  }
  return cached;
}

/** Time spent parsing on the page in this task (see `markdownBudget.pageParseMsPerTask`). */
let spentInTask = 0;

const pageHasTime = () => spentInTask < markdownBudget.pageParseMsPerTask;

/** A block parsed here, as elements; `keep`: worth remembering (it no longer changes). */
function renderOnPage(text: string, keep: boolean): ReactElement {
  // The next task starts with the whole budget.
  if (spentInTask === 0) setTimeout(() => (spentInTask = 0));
  const started = performance.now();
  const tree = markdownToTree(text);
  const element = tree ? treeToElement(tree) : <PlainBlock text={text} note={tooLarge} />;
  spentInTask += Math.max(performance.now() - started, Number.MIN_VALUE);
  if (keep) remember(text, element);
  return element;
}

/** A block shown as it was written: too large to format, or while the worker parses it. */
function PlainBlock({ text, note }: { text: string; note?: string }) {
  return (
    <div>
      {note && <p className="mb-1 text-xs text-amber-700 dark:text-amber-400">{note}</p>}
      <PlainText text={text} />
    </div>
  );
}

const tooLarge = 'This part is too large or intricate to format, so it is shown as plain text.';

/** A block parsed in the worker: plain text until its tree arrives, and for good if it cannot. */
function WorkerBlock({ text }: { text: string }) {
  const subscribe = useCallback((listener: () => void) => subscribeParsed(text, listener), [text]);
  const snapshot = () => parsedTree(text);
  const result = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    requestParse(text);
    return () => forgetBlock(text);
  }, [text]);
  let element = recalled(text);
  if (!element && result !== undefined && result !== 'plain') {
    element = treeToElement(result);
    remember(text, element);
  }
  // The last tree shown stays while the next version of a growing block is parsed.
  const [last, setLast] = useState<ReactElement | null>(null);
  if (element && element !== last) setLast(element);
  if (result === 'plain') return <PlainBlock text={text} note={tooLarge} />;
  return element ?? last ?? <PlainBlock text={text} />;
}

/**
 * One block of a reply. `growing`: the last block of a streaming reply, different every frame,
 * so not worth keeping. Only a new text renders a block again: one that stops growing is not
 * parsed once more.
 */
export const MarkdownBlock = memo(
  function MarkdownBlock({ text, growing }: { text: string; growing: boolean }) {
    const cached = recalled(text);
    if (cached) return cached;
    const plan = planBlock(text, (block) => parseClosedFence(block) !== null);
    if (plan === 'page' && pageHasTime()) return renderOnPage(text, !growing);
    if (plan === 'fence') {
      const fence = parseClosedFence(text);
      if (fence) return <FencedCode code={fence.code} language={fence.language} />;
    }
    if (plan === 'plain') return <PlainBlock text={text} note={tooLarge} />;
    return <WorkerBlock text={text} />;
  },
  (before, after) => before.text === after.text,
);

/** Parses replies that may be shown next (the other versions of those in view) ahead of time. */
export function prepareMarkdown(texts: readonly string[]): void {
  for (const text of texts)
    for (const block of splitMarkdownBlocks(text)) {
      if (renderedBlocks.has(block)) continue;
      if (planBlock(block, () => false) !== 'page' || !pageHasTime()) return;
      renderOnPage(block, true);
    }
}

/**
 * Renders a reply as markdown, block by block, so streaming re-parses only the last block; while
 * `live` (streaming), a last block that is a code fence still open skips the parser altogether.
 */
export default function MarkdownRenderer({
  text: written,
  live = false,
  web,
}: {
  text: string;
  live?: boolean;
  web?: WebResearch | undefined;
}) {
  // The answer as shown: with a marker after each cited span, where it searched the web.
  const text = useMemo(() => withCitationMarkers(written, web), [written, web]);
  const blocks = useMemo(() => boundBlockCount(splitMarkdownBlocks(text)), [text]);
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
    // The markers read their sources from the research (citation-marker.tsx).
    <CitationContext.Provider value={web}>
      <div ref={container} className={skipOffscreen ? 'markdown markdown-skip-offscreen' : 'markdown'}>
        {blocks.map((block, index) =>
          index === lastIndex && openFence ? (
            <CodeBlock key={index} code={openFence.code} language={openFence.language} live />
          ) : (
            <MarkdownBlock key={index} text={block} growing={live && index === lastIndex} />
          ),
        )}
      </div>
    </CitationContext.Provider>
  );
}
