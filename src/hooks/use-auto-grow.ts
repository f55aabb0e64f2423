import { useEffect, useRef } from 'react';

/** A ref for a text area that grows with its text (up to its CSS max-height, then it scrolls). */
export function useAutoGrow(text: string) {
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight}px`;
  }, [text]);
  return area;
}
