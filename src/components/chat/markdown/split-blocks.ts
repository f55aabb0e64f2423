/**
 * Splits markdown into top-level blocks at blank lines outside code fences, so a streaming reply
 * re-parses only its growing last block: finished blocks keep their text and stay memoized.
 * A block is never split inside a fenced code block, and an indented or list-continuation line
 * after a blank line stays with the block before it.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let pendingBlank = false;

  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };

  for (const line of lines) {
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      current.push(line);
      if (fenceMatch?.[1] && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length)
        fence = null;
      continue;
    }
    if (line.trim() === '') {
      pendingBlank = current.length > 0;
      if (pendingBlank) current.push(line);
      continue;
    }
    const continues = /^(\s{2,}|\t)/.test(line) || /^\s*([-*+]|\d+[.)])\s/.test(line) || /^\s*\|/.test(line);
    if (pendingBlank && !continues) {
      while (current.length > 0 && current[current.length - 1]?.trim() === '') current.pop();
      flush();
    }
    pendingBlank = false;
    current.push(line);
    if (fenceMatch?.[1]) fence = fenceMatch[1];
  }
  flush();
  return blocks;
}
