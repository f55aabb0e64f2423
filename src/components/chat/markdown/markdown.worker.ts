import type { Root } from 'hast';
import { markdownToTree } from './markdown-tree.ts';

/** A block of a reply too large or too intricate to parse on the page (see markdown-budget.ts). */
export interface ParseRequest {
  text: string;
}

/** Its sanitized tree, or null when the parser failed on it. */
export interface ParseResponse {
  text: string;
  tree: Root | null;
}

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
