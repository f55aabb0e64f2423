/**
 * Bounds on the work a block of a reply may cost the page. The markdown parser (micromark) is
 * super-linear on some inputs a model can be made to print: runs of `*a`, `]`, `~~`, links or
 * table cells take seconds at tens of KB, and each nesting level of a list or quote costs more
 * than the one before. So a block is parsed on the page only when it is small and plain enough
 * that no content can make it slow; any other block is parsed in a worker with a deadline
 * (markdown-worker.ts), and a block beyond every budget is shown as plain text.
 */

/** How a block is rendered. */
export type BlockPlan =
  /** Parsed here: small enough that its worst case stays well under a frame budget. */
  | 'page'
  /** One closed code fence: drawn without the parser, at any size. */
  | 'fence'
  /** Parsed in the worker, shown as plain text until its tree arrives. */
  | 'worker'
  /** Too large to format: shown as plain text. */
  | 'plain';

export const markdownBudget = {
  /** Blocks up to this many characters may be parsed on the page… */
  pageChars: 4096,
  /** …when they hold at most this many characters the parser pairs or nests (see `delimiters`)… */
  pageDelimiters: 300,
  /** …at most this many lines (long lists and runs of headings cost each line more)… */
  pageLines: 200,
  /** …and at most this much indentation in all (each level of an indented list costs more). */
  pageIndent: 1024,
  /**
   * Blocks that fit may still be many (a reply of a thousand short paragraphs): past this much
   * parsing on the page within one task, further blocks go to the worker like large ones.
   */
  pageParseMsPerTask: 50,
  /** Blocks beyond this are not parsed at all. */
  parseChars: 200_000,
  /** A parse in the worker that takes longer is abandoned: the block stays plain text. */
  workerDeadlineMs: 2000,
  /** A reply of more blocks shows the rest as one block (planned like any other). */
  blocks: 1000,
  /** Lists and quotes nested on one line deeper than this show their further markers as text. */
  containerDepth: 10,
};

const space = 0x20;
const tab = 0x09;
const newline = 0x0a;

/** The characters micromark's costly constructs turn on: emphasis, links, code, HTML, tables, escapes. */
const delimiters = new Uint8Array(128);
for (const character of '*_~[]()<>!|`\\&@$') delimiters[character.charCodeAt(0)] = 1;

/** Whether a block is small and plain enough that no content can make its parse slow. */
function fitsOnPage(text: string): boolean {
  if (text.length > markdownBudget.pageChars) return false;
  let delimiterCount = 0;
  let lines = 1;
  let indent = 0;
  let atLineStart = true;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    delimiterCount += delimiters[code] ?? 0;
    if (code === newline) {
      lines++;
      atLineStart = true;
    } else if (atLineStart && (code === space || code === tab)) indent++;
    else atLineStart = false;
  }
  return (
    delimiterCount <= markdownBudget.pageDelimiters &&
    lines <= markdownBudget.pageLines &&
    indent <= markdownBudget.pageIndent
  );
}

export function planBlock(text: string, isClosedFence: (block: string) => boolean): BlockPlan {
  if (fitsOnPage(text)) return 'page';
  if (isClosedFence(text)) return 'fence';
  return text.length <= markdownBudget.parseChars ? 'worker' : 'plain';
}

/** The end of the list or quote marker starting at `at` (before its following space), or -1. */
function markerEnd(line: string, at: number): number {
  const code = line.charCodeAt(at);
  if (code === 0x3e /* > */) return at + 1;
  let end = at;
  if (code === 0x2d /* - */ || code === 0x2a /* * */ || code === 0x2b /* + */) end = at + 1;
  else {
    while (end - at < 9 && line.charCodeAt(end) >= 0x30 && line.charCodeAt(end) <= 0x39) end++;
    const after = line.charCodeAt(end);
    if (end === at || (after !== 0x2e /* . */ && after !== 0x29) /* ) */) return -1;
    end++;
  }
  // A list marker needs a space, a tab or the end of the line after it.
  const next = line.charCodeAt(end);
  return end === line.length || next === space || next === tab ? end : -1;
}

/** `- - -`, `***`, `_ _ _`: a thematic break, not nested lists. */
function isThematicBreak(line: string): boolean {
  let marker = 0;
  let count = 0;
  for (let at = 0; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code === space || code === tab) continue;
    if (marker === 0 && (code === 0x2d || code === 0x2a || code === 0x5f)) marker = code;
    if (code !== marker) return false;
    count++;
  }
  return count >= 3;
}

/** `line` with its markers past the allowed depth escaped (shown as text), or the line itself. */
function limitLine(line: string, depth: number): string {
  let at = 0;
  let level = 0;
  for (;;) {
    while (line.charCodeAt(at) === space || line.charCodeAt(at) === tab) at++;
    const end = markerEnd(line, at);
    if (end < 0) return line;
    if (level === depth)
      return isThematicBreak(line) ? line : `${line.slice(0, at)}${textMark}${line.slice(at)}`;
    level++;
    at = end;
  }
}

/**
 * Put before a marker, a character that is not one makes it text. Unlike a backslash it is taken
 * out of the parsed tree again (see markdown-tree.ts), so a line of code that only looks like
 * deep nesting (pytest prints `>>>>>>>>>>>>`) is shown and copied as written. A character of the
 * private use area, which no text means anything by.
 */
export const textMark = '\uE000';

/**
 * Lists and quotes nested on one line (`- - - - x`, `> > > x`: two characters a level) stop at
 * `containerDepth`; the rest of the line is text. Each level costs the parser and the layout more
 * than the one before, so a reply of 1,000 such levels froze the page for seconds.
 */
export function limitContainerNesting(text: string, depth = markdownBudget.containerDepth): string {
  let result: string[] | null = null;
  let start = 0;
  let index = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const limited = limitLine(line, depth);
    if (limited !== line) {
      result ??= text.slice(0, start).split('\n').slice(0, index);
      result.push(limited);
    } else result?.push(line);
    index++;
    if (newline < 0) break;
    start = newline + 1;
  }
  return result ? result.join('\n') : text;
}

/** At most `markdownBudget.blocks` blocks: the rest joined into the last one. */
export function boundBlockCount(blocks: string[]): string[] {
  if (blocks.length <= markdownBudget.blocks) return blocks;
  const kept = blocks.slice(0, markdownBudget.blocks - 1);
  kept.push(blocks.slice(markdownBudget.blocks - 1).join('\n\n'));
  return kept;
}
