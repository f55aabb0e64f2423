import { lazy, Suspense } from 'react';

// The renderer (react-markdown, sanitizer, highlighter) loads after the first paint.
const MarkdownRenderer = lazy(() => import('./markdown/markdown-renderer.tsx'));

export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
}
