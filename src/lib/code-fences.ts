/**
 * CommonMark's code fences, line by line: what opens one, what closes it. Shared by the renderer's
 * block splitter and the artifacts found in replies, so both read the same blocks.
 */

/**
 * The opening fence of a code block: 0-3 spaces, then 3+ backticks or tildes (CommonMark). The
 * lookaheads keep it linear on any text: a shorter run of the fence is never tried again.
 */
export const openingFence = /^( {0,3})(`{3,}(?!`)|~{3,}(?!~))(.*)$/;

/** The fence marker a line opens a code block with, or null. */
export function fenceOpening(line: string): string | null {
  const match = openingFence.exec(line);
  if (!match) return null;
  const [, , fence = '', info = ''] = match;
  // A backtick in a backtick fence's info string makes the line inline code, not a fence.
  return fence.startsWith('`') && info.includes('`') ? null : fence;
}

/** Whether `line` closes a block opened with `fence`: the same character, at least as many. */
export function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** A fenced code block found in a text. */
export interface CodeFence {
  /** The whole info string, trimmed (```tsx title="Budget" → 'tsx title="Budget"'). */
  info: string;
  /** Its first word, lower case; '' without one. */
  language: string;
  code: string;
  /** False for a block the text ends inside (a reply still streaming). */
  closed: boolean;
}

/** Every fenced code block of a markdown text, in order (one pass over its lines). */
export function codeFences(text: string): CodeFence[] {
  const fences: CodeFence[] = [];
  let open: { fence: string; indent: number; info: string; lines: string[] } | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      if (closesFence(line, open.fence)) {
        fences.push(fenceOf(open, true));
        open = null;
      } else open.lines.push(line);
      continue;
    }
    const fence = fenceOpening(line);
    if (fence === null) continue;
    const [, indent = '', , info = ''] = openingFence.exec(line) ?? [];
    open = { fence, indent: indent.length, info: info.trim(), lines: [] };
  }
  if (open) fences.push(fenceOf(open, false));
  return fences;
}

function fenceOf(open: { indent: number; info: string; lines: string[] }, closed: boolean): CodeFence {
  // The content loses as many leading spaces as the opening fence had (CommonMark).
  const strip = open.indent > 0 ? new RegExp(`^ {0,${open.indent}}`) : null;
  return {
    info: open.info,
    language: (open.info.split(/[ \t]/)[0] ?? '').toLowerCase(),
    code: (strip ? open.lines.map((line) => line.replace(strip, '')) : open.lines).join('\n'),
    closed,
  };
}
