import { useEffect, useState, type RefObject } from 'react';

interface VirtualRange {
  start: number;
  end: number;
  paddingTop: number;
  paddingBottom: number;
}

/**
 * Which rows of a fixed-height list are in (or near) view of its scroll container, so a list of
 * thousands renders a screenful of rows.
 */
export function useVirtualRows(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
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

  const start = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + overscan);
  return { start, end, paddingTop: start * rowHeight, paddingBottom: Math.max(0, (count - end) * rowHeight) };
}
