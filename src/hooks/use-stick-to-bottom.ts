import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const threshold = 48;
/** A scroll this soon (ms) after a wheel, touch, key or pointer event is the reader's. */
const userInputWindowMs = 1000;

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

  /** Lets go of the bottom: something else (a search result) is to be shown. */
  const release = useCallback(() => {
    stuck.current = false;
    setAtBottom(false);
  }, []);

  // A different conversation starts at its latest message.
  useEffect(() => {
    scrollToBottom();
  }, [resetKey, scrollToBottom]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // Only the reader lets go of the bottom: scrolls caused by layout (a virtualized list
    // correcting its estimated heights) must not. Reaching the bottom again re-pins, however.
    let lastUserInput = -Infinity;
    const noteUserInput = () => {
      lastUserInput = performance.now();
    };
    // A click on a button in the list ('Open in panel') or typing in a field is no scrolling: only
    // a press on the scrollbar (the container itself) and the keys that scroll count.
    const scrollKeys = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);
    const notePointer = (event: Event) => {
      if (event.target === element) noteUserInput();
    };
    const noteKey = (event: KeyboardEvent) => {
      const typing =
        event.target instanceof HTMLElement && event.target.matches('input, textarea, [contenteditable]');
      if (scrollKeys.has(event.key) && !typing) noteUserInput();
    };
    const onScroll = () => {
      const bottom = element.scrollHeight - element.scrollTop - element.clientHeight <= threshold;
      if (!bottom && performance.now() - lastUserInput > userInputWindowMs) return;
      stuck.current = bottom;
      setAtBottom(bottom);
    };
    // Content growth (streamed text, measured messages) keeps us pinned if we were pinned.
    const observer = new ResizeObserver(() => {
      if (stuck.current) element.scrollTop = element.scrollHeight;
    });
    const content = element.firstElementChild;
    if (content) observer.observe(content);
    const inputs = ['wheel', 'touchmove'] as const;
    for (const type of inputs) element.addEventListener(type, noteUserInput, { passive: true });
    element.addEventListener('pointerdown', notePointer, { passive: true });
    element.addEventListener('keydown', noteKey, { passive: true });
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      for (const type of inputs) element.removeEventListener(type, noteUserInput);
      element.removeEventListener('pointerdown', notePointer);
      element.removeEventListener('keydown', noteKey);
      element.removeEventListener('scroll', onScroll);
    };
  }, []);

  return { ref, atBottom, scrollToBottom, release };
}
