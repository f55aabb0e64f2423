import { lazy, Suspense, type ComponentType } from 'react';
import { whenIdle } from '../../lib/when-idle.ts';
import type { WebResearch } from '../../domain/web-search.ts';
import { PlainText } from './plain-text.tsx';

type Renderer = ComponentType<{ text: string; live?: boolean; web?: WebResearch | undefined }>;

// The renderer (markdown parser, sanitizer, highlighter) loads after the first paint.
let loading: ReturnType<typeof importRenderer> | null = null;
const importRenderer = () => import('./markdown/markdown-renderer.tsx');

/** The renderer's module; a fetch that failed (offline, a redeploy) is tried again next time. */
function loadRenderer(): ReturnType<typeof importRenderer> {
  loading ??= importRenderer().catch((error: unknown) => {
    loading = null;
    MarkdownRenderer = lazyRenderer();
    throw error;
  });
  return loading;
}

// React keeps what a lazy component settled to: a failed load (which the message's error boundary
// shows as plain text, with a notice) leaves a new one for the messages shown next.
const lazyRenderer = () => lazy<Renderer>(loadRenderer);

let MarkdownRenderer = lazyRenderer();

/**
 * Loads the renderer in idle time after the first paint, so a conversation without markdown yet
 * does not evaluate it (a long task of ~40 ms) in the middle of its first streamed reply.
 */
export function preloadMarkdown(): () => void {
  return whenIdle(() => void loadRenderer().catch(() => undefined));
}

/** Parses these replies in idle time, so showing one later (a version switch) is quick. */
export function prepareMarkdown(texts: readonly string[]): void {
  if (texts.length === 0) return;
  loadRenderer().then(
    (renderer) => whenIdle(() => renderer.prepareMarkdown(texts)),
    () => undefined,
  );
}

/** `live`: the reply is still streaming in; `web`: what it found on the web (its citations are marked). */
export function Markdown({
  text,
  live = false,
  web,
}: {
  text: string;
  live?: boolean;
  web?: WebResearch | undefined;
}) {
  return (
    <Suspense fallback={<PlainText text={text} />}>
      <MarkdownRenderer text={text} live={live} web={web} />
    </Suspense>
  );
}
