// @ts-check
/** Small statistics helpers shared by the cases and the report. */

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {readonly number[]} values @returns {number[]} */
const sorted = (values) => values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);

/** The median of the finite values; NaN when there are none. @param {readonly number[]} values */
export function median(values) {
  const list = sorted(values);
  if (list.length === 0) return Number.NaN;
  const middle = Math.floor(list.length / 2);
  return list.length % 2 === 1
    ? (list[middle] ?? Number.NaN)
    : ((list[middle - 1] ?? 0) + (list[middle] ?? 0)) / 2;
}

/**
 * Nearest-rank percentile (p in 0..100) of the finite values; NaN when there are none.
 * @param {readonly number[]} values @param {number} p
 */
export function percentile(values, p) {
  const list = sorted(values);
  if (list.length === 0) return Number.NaN;
  const rank = Math.min(list.length, Math.max(1, Math.ceil((p / 100) * list.length)));
  return list[rank - 1] ?? Number.NaN;
}

/** @param {readonly number[]} values */
export function summarize(values) {
  const list = sorted(values);
  return {
    median: median(list),
    min: list[0] ?? Number.NaN,
    max: list.at(-1) ?? Number.NaN,
    count: list.length,
  };
}

/** @param {readonly number[]} values */
export const sum = (values) => values.reduce((total, value) => total + value, 0);

/**
 * @template T
 * @param {readonly T[]} list @param {(item: T) => number} pick
 */
export const pluck = (list, pick) => list.map(pick);

/**
 * Per-run ratios pick(a[i]) / pick(b[i]).
 * @template T
 * @param {readonly T[]} a @param {readonly T[]} b @param {(item: T) => number} pick
 */
export const ratios = (a, b, pick) =>
  a.map((item, index) => {
    const other = b[index];
    return other === undefined ? Number.NaN : pick(item) / pick(other);
  });
