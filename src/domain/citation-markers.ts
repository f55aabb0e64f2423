import type { WebResearch } from './web-search.ts';

/** The address a marker links to inside the rendered answer; the renderer turns it into the marker. */
export const citationHref = (number: number) => `#cite-${number}`;
/** The marker's number from such an address, or null. */
export function citationNumber(href: string | undefined): number | null {
  const match = href ? /^#cite-(\d{1,4})$/.exec(href) : null;
  return match ? Number(match[1]) : null;
}

/**
 * The answer with a marker for each citation, as Markdown links to `#cite-N` (N counting the
 * sources from 1), placed after the cited span: moved to the end of a word it would split, and out
 * of a fenced code block it would land in. Each source is marked once per place. For display only;
 * what is copied, exported and sent is the answer as written.
 */
export function withCitationMarkers(
  text: string,
  web: WebResearch | undefined,
  /** The marker of source N (from 1): a link to `#cite-N`, or a footnote reference in an export. */
  marker: (number: number) => string = (number) => `[${number}](${citationHref(number)})`,
): string {
  if (!web || web.citations.length === 0) return text;
  const fences = fencedRanges(text);
  const at = new Map<number, Set<number>>();
  for (const citation of web.citations) {
    if (citation.source < 0 || citation.source >= web.sources.length) continue;
    const place = placeFor(text, Math.min(Math.max(citation.at, 0), text.length), fences);
    let numbers = at.get(place);
    if (!numbers) at.set(place, (numbers = new Set()));
    numbers.add(citation.source + 1);
  }
  let marked = '';
  let from = 0;
  for (const place of [...at.keys()].sort((a, b) => a - b)) {
    const numbers = [...(at.get(place) ?? [])].sort((a, b) => a - b);
    const markers = numbers.map(marker).join('');
    // After a code block that ends the text, on a line of their own (not on its closing fence).
    const apart = place === text.length && fences.some(([, end]) => end === text.length) ? '\n' : '';
    marked += text.slice(from, place) + apart + markers;
    from = place;
  }
  return marked + text.slice(from);
}

/** Where a marker for an offset goes: past the rest of a word, and after a code block it falls in. */
function placeFor(text: string, offset: number, fences: readonly [number, number][]): number {
  const fence = fenceAround(fences, offset);
  if (fence) return Math.min(fence[1] + 1, text.length);
  // Bounded: past a 'word' longer than any real one (hostile text), the marker stays where it is.
  const limit = Math.min(text.length, offset + maxWordShift);
  let place = offset;
  while (place < limit && /[\p{L}\p{N}_]/u.test(text[place] ?? '')) place++;
  return place < limit || limit === text.length ? place : offset;
}

/** How far a marker may move to the end of a word. */
const maxWordShift = 100;

/** The fenced block an offset falls in (after its start, up to its end), by binary search: the ranges are in order. */
function fenceAround(fences: readonly [number, number][], offset: number): [number, number] | undefined {
  let low = 0;
  let high = fences.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const fence = fences[middle] as [number, number];
    if (offset <= fence[0]) high = middle - 1;
    else if (offset > fence[1]) low = middle + 1;
    else return fence;
  }
  return undefined;
}

/** The spans of fenced code blocks, from the opening fence to the end of the closing one's line. */
function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let open: { start: number; fence: string } | null = null;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const fence = /^ {0,3}(`{3,}(?!`)|~{3,}(?!~))/.exec(line)?.[1];
    if (open === null && fence) open = { start: lineStart, fence };
    else if (
      open &&
      fence &&
      fence[0] === open.fence[0] &&
      fence.length >= open.fence.length &&
      line.trim() === fence
    ) {
      ranges.push([open.start, lineEnd]);
      open = null;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (open) ranges.push([open.start, text.length]);
  return ranges;
}
