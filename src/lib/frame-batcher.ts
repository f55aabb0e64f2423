/**
 * Coalesces many calls into one per animation frame: a stream may deliver hundreds of chunks a
 * second, but the screen can only show one update per frame.
 */
export function createFrameBatcher(flush: () => void) {
  let scheduled: number | null = null;
  const raf =
    typeof requestAnimationFrame === 'function'
      ? requestAnimationFrame
      : (callback: FrameRequestCallback) => setTimeout(() => callback(Date.now()), 16) as unknown as number;
  const cancel =
    typeof cancelAnimationFrame === 'function' ? cancelAnimationFrame : (id: number) => clearTimeout(id);

  return {
    schedule() {
      if (scheduled !== null) return;
      scheduled = raf(() => {
        scheduled = null;
        flush();
      });
    },
    /** Drops a pending flush (the caller renders the final state itself). */
    cancel() {
      if (scheduled !== null) cancel(scheduled);
      scheduled = null;
    },
  };
}

/**
 * Runs `task` at most once per `intervalMs`, trailing: a call during the quiet period schedules
 * one run at its end. `flush()` runs a pending call at once.
 */
export function createThrottle(task: () => void, intervalMs: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    last = Date.now();
    task();
  };
  return {
    call() {
      if (timer !== null) return;
      const wait = Math.max(0, last + intervalMs - Date.now());
      timer = setTimeout(run, wait);
    },
    flush() {
      if (timer === null) return;
      clearTimeout(timer);
      run();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
