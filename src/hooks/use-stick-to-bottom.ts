import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const threshold = 48;

/**
 * Follows new content while the reader is at the bottom of a scroll container; once they scroll
 * up it stays put and reports `atBottom: false` so a 'Jump to latest' button can show.
 */
export function useStickToBottom<T extends HTMLElement>(resetKey: unknown) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const scrollToBottom = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    stuck.current = true;
    setAtBottom(true);
  }, []);

  // A different conversation starts at its latest message.
  useEffect(() => {
    scrollToBottom();
  }, [resetKey, scrollToBottom]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onScroll = () => {
      const bottom = element.scrollHeight - element.scrollTop - element.clientHeight <= threshold;
      stuck.current = bottom;
      setAtBottom(bottom);
    };
    // Content growth (streamed text, a highlighted block) keeps us pinned if we were pinned.
    const observer = new ResizeObserver(() => {
      if (stuck.current) element.scrollTop = element.scrollHeight;
    });
    const content = element.firstElementChild;
    if (content) observer.observe(content);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, []);

  return { ref, atBottom, scrollToBottom };
}
