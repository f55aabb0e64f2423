/** Runs `task` when the page is idle (within 2 s); returns a cancel function. */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(task, 500);
  return () => clearTimeout(timer);
}
