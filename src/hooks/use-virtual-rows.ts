import { useEffect, useState, type RefObject } from 'react';

interface VirtualRange {
  start: number;
  end: number;
  paddingTop: number;
  paddingBottom: number;
}

/** Where each row of a list starts (px), and where the last one ends: `heights.length + 1` values. */
export function rowTops(heights: readonly number[]): number[] {
  const tops = [0];
  for (const height of heights) tops.push((tops.at(-1) as number) + height);
  return tops;
}

/** The row at `y` (px from the top), by binary search in `tops`. */
function rowAt(tops: readonly number[], y: number): number {
  let low = 0;
  let high = tops.length - 2;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((tops[middle] as number) <= y) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * Which rows of a list of fixed-height rows (see rowTops) are in (or near) view of its scroll
 * container, so a list of thousands renders a screenful of rows.
 */
export function useVirtualRows(
  scroller: RefObject<HTMLElement | null>,
  tops: readonly number[],
  overscan = 8,
): VirtualRange {
  const [view, setView] = useState({ top: 0, height: 800 });

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const update = () => setView({ top: element.scrollTop, height: element.clientHeight || 800 });
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [scroller]);

  const count = tops.length - 1;
  const total = tops[count] as number;
  const start = Math.max(0, rowAt(tops, view.top) - overscan);
  const end = Math.min(count, rowAt(tops, view.top + view.height) + 1 + overscan);
  return { start, end, paddingTop: tops[start] as number, paddingBottom: total - (tops[end] as number) };
}
