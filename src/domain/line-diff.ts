/** A line of a comparison: kept, added in the newer text, or removed from the older. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * The most lines×lines cells compared (a table of this many small integers): two versions of
 * 2,000 lines each. Past it the texts are not compared line by line (null): the work stays bounded
 * on any input.
 */
export const diffCellLimit = 4_000_000;

/**
 * What changed from `before` to `after`, line by line: the longest common subsequence of their
 * lines, the rest removed then added. Lines common to both ends are set aside first, so a small
 * change in a long text costs little. Null when the texts are too long to compare.
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if ((n + 1) * (m + 1) > diffCellLimit) return null;
  // lengths[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
  const width = m + 1;
  const lengths = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[start + i] === b[start + j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
  const lines: DiffLine[] = a.slice(0, start).map((text) => ({ kind: 'same', text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      lines.push({ kind: 'same', text: a[start + i] ?? '' });
      i++;
      j++;
    } else if (
      i < n &&
      (j === m || (lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0))
    ) {
      // Removals before additions where either keeps as much.
      lines.push({ kind: 'removed', text: a[start + i] ?? '' });
      i++;
    } else {
      lines.push({ kind: 'added', text: b[start + j] ?? '' });
      j++;
    }
  }
  for (const text of a.slice(endA)) lines.push({ kind: 'same', text });
  return lines;
}
