import { closesFence, fenceOpening } from '../lib/code-fences.ts';

/**
 * What 'Read aloud' says of a reply: its answer as plain sentences. Code blocks are announced
 * ('code block'), not read; markdown's marks, link targets and markup are left out. Every step is
 * one pass with linear patterns, so a hostile reply costs time in proportion to its length.
 */

/** Said in place of a fenced code block. */
export const codeBlockWords = 'code block';

/** A reply longer than this is read up to here (about an hour of speech). */
export const spokenTextLimit = 60_000;

/** The inline marks of one line, undone. */
function plainLine(line: string): string {
  return (
    line
      // Images say their description; links their text (the address is not read). Neither part
      // crosses a bracket or parenthesis, so each scan stops at the next one: linear on any line.
      .replace(/!\[([^[\]\n]{0,500})\]\([^()[\]\n]{0,2000}\)/g, '$1')
      .replace(/\[([^[\]\n]{0,500})\]\([^()[\]\n]{0,2000}\)/g, '$1')
      .replace(/<https?:\/\/[^<>\s]{1,2000}>/g, 'link')
      .replace(/\bhttps?:\/\/\S{1,2000}/g, 'link')
      // Markup (raw HTML a model wrote) is not words.
      .replace(/<\/?[a-zA-Z][^<>\n]{0,500}>/g, ' ')
      // Emphasis, strikethrough and inline code marks; their words stay.
      .replace(/(\*{1,3}|_{2,3}|~~|`+)/g, '')
  );
}

/** A line's block marks (heading, quote, list item), undone; null for a line that says nothing (a rule, a table's divider). */
function blockText(line: string): string | null {
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line) || /^[\s|:-]+$/.test(line)) return null;
  // A table row: its cells, one after the other.
  if (line.trimStart().startsWith('|'))
    return line
      .split('|')
      .map((cell) => cell.trim())
      .filter(Boolean)
      .join(', ');
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/^\s*(>\s?)+/, '')
    .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
    .replace(/^\s*\$\$.*$/, '');
}

/** A reply's answer (markdown) as the text to speak. */
export function spokenText(markdown: string): string {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.slice(0, spokenTextLimit).split('\n')) {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = fenceOpening(line);
    if (fence !== null) {
      lines.push(`(${codeBlockWords}.)`);
      continue;
    }
    const text = blockText(line);
    if (text === null) continue;
    const plain = plainLine(text).replace(/\s+/g, ' ').trim();
    if (plain !== '' && plain !== ',') lines.push(plain);
  }
  return lines.join('\n');
}

/**
 * The spoken text in pieces to synthesize one after the other, each ending at a sentence where
 * one ends in time: the first is short, so speech starts soon; the rest are longer, so there are
 * few requests (each API has its own input limit, far above these).
 */
export function speechChunks(text: string, { first = 220, rest = 1200 } = {}): string[] {
  const sentences = text.match(/[^.!?。！？\n]+(?:[.!?。！？]+["')\]]*|\n|$)/g) ?? [];
  const chunks: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') chunks.push(current.trim());
    current = '';
  };
  for (const sentence of sentences) {
    const limit = chunks.length === 0 ? first : rest;
    if (current !== '' && current.length + sentence.length > limit) flush();
    // A sentence longer than a piece is cut at a space (or anywhere, without one).
    let left = sentence;
    while (left.length > (chunks.length === 0 ? first : rest)) {
      const max = chunks.length === 0 ? first : rest;
      const space = left.lastIndexOf(' ', max);
      const cut = space > max / 2 ? space : max;
      current = left.slice(0, cut);
      flush();
      left = left.slice(cut);
    }
    current += left;
  }
  flush();
  return chunks;
}
