/**
 * Coalesces many calls into one per animation frame, and at most one per `minIntervalMs`: a stream
 * may deliver hundreds of chunks a second, but the screen can only show one update per frame, and
 * a reader cannot tell 30 updates a second from 60 while each costs the page a full re-render.
 */
export function createFrameBatcher(flush: () => void, minIntervalMs = 0) {
  let scheduled: number | null = null;
  let lastFlush = Number.NEGATIVE_INFINITY;
  const raf =
    typeof requestAnimationFrame === 'function'
      ? requestAnimationFrame
      : (callback: FrameRequestCallback) =>
          setTimeout(() => callback(performance.now()), 16) as unknown as number;
  const cancel =
    typeof cancelAnimationFrame === 'function' ? cancelAnimationFrame : (id: number) => clearTimeout(id);

  const onFrame = (time: number) => {
    // Too soon after the last flush: this frame passes, the next one takes it.
    if (time - lastFlush < minIntervalMs) {
      scheduled = raf(onFrame);
      return;
    }
    scheduled = null;
    lastFlush = time;
    flush();
  };

  return {
    schedule() {
      if (scheduled === null) scheduled = raf(onFrame);
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
