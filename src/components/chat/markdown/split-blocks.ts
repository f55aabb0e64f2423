import { closesFence, fenceOpening, openingFence } from '../../../lib/code-fences.ts';

/**
 * Splits markdown into top-level blocks at blank lines outside code fences, and around a code
 * fence that starts at the margin, so a streaming reply re-parses only its growing last block:
 * finished blocks keep their text and stay memoized. A block is never split inside a fenced code
 * block, and an indented or list-continuation line after a blank line stays with the block before
 * it.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  // The open fence started at the margin as a block of its own: it ends its block when it closes.
  let fenceOwnsBlock = false;
  let pendingBlank = false;
  // Whether the block holds a line of raw HTML: kept as lines come, as looking back over the block
  // at every fence made a block of HTML and many fences quadratic.
  let holdsHtml = false;

  const push = (line: string) => {
    current.push(line);
    holdsHtml ||= /^ {0,3}</.test(line);
  };
  const flush = () => {
    while (current.length > 0 && current[current.length - 1]?.trim() === '') current.pop();
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
    holdsHtml = false;
  };

  for (const line of lines) {
    if (fence) {
      push(line);
      if (closesFence(line, fence)) {
        fence = null;
        if (fenceOwnsBlock) flush();
      }
      continue;
    }
    if (line.trim() === '') {
      pendingBlank = current.length > 0;
      if (pendingBlank) push(line);
      continue;
    }
    const continues = /^(\s{2,}|\t)/.test(line) || /^\s*([-*+]|\d+[.)])\s/.test(line) || /^\s*\|/.test(line);
    const opening = fenceOpening(line);
    // A fence at the margin ends a paragraph, list, quote or table (CommonMark): the same
    // rendering as a separate block. Not after raw HTML, which runs on to the next blank line.
    const ownBlock = opening !== null && line.startsWith(opening) && !holdsHtml;
    if ((pendingBlank && !continues) || ownBlock) flush();
    pendingBlank = false;
    push(line);
    if (opening !== null) {
      fence = opening;
      fenceOwnsBlock = ownBlock;
    }
  }
  flush();
  return blocks;
}

/** A block that is one code fence still being written: its language and the code so far. */
export interface OpenFence {
  language: string | undefined;
  code: string;
}

/**
 * The code of a block made of one fence that is not closed yet (the tail of a streaming reply),
 * or null when the block is anything else. Rendering it directly spares the markdown parser the
 * largest block of a reply on every frame.
 */
export const parseOpenFence = (block: string): OpenFence | null => readFence(block, false);

/** The code of a block made of exactly one closed fence, or null: drawn without the parser. */
export const parseClosedFence = (block: string): OpenFence | null => readFence(block, true);

/**
 * Follows CommonMark: the content loses as many leading spaces as the opening fence had; the
 * language is the first word of the info string.
 */
function readFence(block: string, closed: boolean): OpenFence | null {
  const newline = block.indexOf('\n');
  // Until its first line of code, a fence is left to the parser (a bare one may still be inline code).
  if (newline === -1) return null;
  const opening = block.slice(0, newline);
  const match = openingFence.exec(opening);
  if (!match || fenceOpening(opening) === null) return null;
  const [, indent = '', fence = '', info = ''] = match;
  // The first word of the info string; anything unusual goes to the parser.
  const word = info.replace(/^[ \t]+/, '').split(/[ \t]/)[0] ?? '';
  if (!/^[\w+#-]*$/.test(word)) return null;
  const lines = block.slice(newline + 1).split('\n');
  if (closed && !closesFence(lines.pop() ?? '', fence)) return null;
  // Tab indentation inside an indented fence follows tab stops: left to the parser.
  if (indent !== '' && lines.some((line) => line.startsWith('\t'))) return null;
  if (lines.some((line) => closesFence(line, fence))) return null;
  const strip = new RegExp(`^ {0,${indent.length}}`);
  return {
    language: word === '' ? undefined : word.toLowerCase(),
    code: lines.map((line) => line.replace(strip, '')).join('\n'),
  };
}
