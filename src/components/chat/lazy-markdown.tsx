import { lazy, Suspense } from 'react';
import { whenIdle } from '../../lib/when-idle.ts';

// The renderer (react-markdown, sanitizer, highlighter) loads after the first paint.
const loadRenderer = () => import('./markdown/markdown-renderer.tsx');
const MarkdownRenderer = lazy(loadRenderer);

/**
 * Loads the renderer in idle time after the first paint, so a conversation without markdown yet
 * does not evaluate it (a long task of ~40 ms) in the middle of its first streamed reply.
 */
export function preloadMarkdown(): () => void {
  return whenIdle(() => void loadRenderer());
}

/** Parses these replies in idle time, so showing one later (a version switch) is quick. */
export function prepareMarkdown(texts: readonly string[]): void {
  if (texts.length === 0) return;
  void loadRenderer().then((renderer) => whenIdle(() => renderer.prepareMarkdown(texts)));
}

/** `live`: the reply is still streaming in. */
export function Markdown({ text, live = false }: { text: string; live?: boolean }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <MarkdownRenderer text={text} live={live} />
    </Suspense>
  );
}
