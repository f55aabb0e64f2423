import { lazy, Suspense } from 'react';

// The renderer (react-markdown, sanitizer, highlighter) loads after the first paint.
const MarkdownRenderer = lazy(() => import('./markdown/markdown-renderer.tsx'));

/** `live`: the reply is still streaming in. */
export function Markdown({ text, live = false }: { text: string; live?: boolean }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <MarkdownRenderer text={text} live={live} />
    </Suspense>
  );
}
