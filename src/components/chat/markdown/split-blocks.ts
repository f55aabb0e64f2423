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

  const flush = () => {
    while (current.length > 0 && current[current.length - 1]?.trim() === '') current.pop();
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };

  for (const line of lines) {
    const fenceMatch = fenceOpening.exec(line);
    if (fence) {
      current.push(line);
      if (fenceMatch?.[1] && closesFence(line, fence)) {
        fence = null;
        if (fenceOwnsBlock) flush();
      }
      continue;
    }
    if (line.trim() === '') {
      pendingBlank = current.length > 0;
      if (pendingBlank) current.push(line);
      continue;
    }
    const continues = /^(\s{2,}|\t)/.test(line) || /^\s*([-*+]|\d+[.)])\s/.test(line) || /^\s*\|/.test(line);
    // A fence at the margin ends a paragraph, list, quote or table (CommonMark): the same
    // rendering as a separate block. Not after raw HTML, which runs on to the next blank line.
    const fenceStartsBlock = fenceMatch !== null && line.startsWith(fenceMatch[1] ?? '');
    const ownBlock = fenceStartsBlock && !current[0]?.startsWith('<');
    if ((pendingBlank && !continues) || ownBlock) flush();
    pendingBlank = false;
    current.push(line);
    if (fenceMatch?.[1]) {
      fence = fenceMatch[1];
      fenceOwnsBlock = ownBlock;
    }
  }
  flush();
  return blocks;
}

const fenceOpening = /^ {0,3}(`{3,}|~{3,})/;

function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** A block that is one code fence still being written: its language and the code so far. */
export interface OpenFence {
  language: string | undefined;
  code: string;
}

/**
 * The code of a block made of one fence that is not closed yet (the tail of a streaming reply),
 * or null when the block is anything else. Rendering it directly spares the markdown parser the
 * largest block of a reply on every frame. Follows CommonMark: the content loses as many leading
 * spaces as the opening fence had; the language is the first word of the info string.
 */
export function parseOpenFence(block: string): OpenFence | null {
  const newline = block.indexOf('\n');
  const opening = newline === -1 ? block : block.slice(0, newline);
  const match = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(opening);
  if (!match) return null;
  const [, indent = '', fence = '', info = ''] = match;
  // A backtick fence's info string may not hold a backtick; anything unusual goes to the parser.
  if (fence.startsWith('`') && info.includes('`')) return null;
  const word = info.trim().split(/\s+/)[0] ?? '';
  if (!/^[\w+#-]*$/.test(word)) return null;
  const lines = newline === -1 ? [] : block.slice(newline + 1).split('\n');
  if (lines.some((line) => closesFence(line, fence))) return null;
  const strip = new RegExp(`^ {0,${indent.length}}`);
  return {
    language: word === '' ? undefined : word.toLowerCase(),
    code: lines.map((line) => line.replace(strip, '')).join('\n'),
  };
}
