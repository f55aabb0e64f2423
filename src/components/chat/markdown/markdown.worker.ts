import type { Root } from 'hast';
import { markdownToTree } from './markdown-tree.ts';

/** A block of a reply too large or too intricate to parse on the page (see markdown-budget.ts). */
export interface ParseRequest {
  text: string;
}

/**
 * Its sanitized tree, or null when the parser failed on it or it holds too many elements; first
 * of all, `ready` once the parser has loaded (the deadline counts from then).
 */
export type ParseResponse = { text: string; tree: Root | null } | { ready: true };

self.addEventListener('message', (event: MessageEvent<ParseRequest>) => {
  const { text } = event.data;
  let tree: Root | null = null;
  try {
    tree = markdownToTree(text);
  } catch (error) {
    console.error('A block could not be parsed', error);
  }
  self.postMessage({ text, tree } satisfies ParseResponse);
});

self.postMessage({ ready: true } satisfies ParseResponse);
