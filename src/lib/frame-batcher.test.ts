import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatcher, createThrottle } from './frame-batcher.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createFrameBatcher', () => {
  it('runs once per frame however often it is scheduled', () => {
    const flush = vi.fn();
    const batcher = createFrameBatcher(flush);
    for (let i = 0; i < 50; i++) batcher.schedule();
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('leaves at least minIntervalMs between flushes, flushing on the first frame after it', () => {
    const flush = vi.fn();
    const batcher = createFrameBatcher(flush, 25);
    batcher.schedule();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(1);
    batcher.schedule();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(2);
    // After a quiet spell the next flush is not held back.
    vi.advanceTimersByTime(500);
    batcher.schedule();
    vi.advanceTimersByTime(16);
    expect(flush).toHaveBeenCalledTimes(3);
  });

  it('cancel drops a pending flush', () => {
    const flush = vi.fn();
    const batcher = createFrameBatcher(flush);
    batcher.schedule();
    batcher.cancel();
    vi.advanceTimersByTime(50);
    expect(flush).not.toHaveBeenCalled();
  });
});

describe('createThrottle', () => {
  it('runs at most once per interval, trailing', () => {
    const task = vi.fn();
    const throttle = createThrottle(task, 1000);
    throttle.call();
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) {
      throttle.call();
      vi.advanceTimersByTime(100);
    }
    expect(task).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1000);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('flush runs a pending call at once', () => {
    const task = vi.fn();
    const throttle = createThrottle(task, 1000);
    throttle.call();
    vi.advanceTimersByTime(0);
    throttle.call();
    throttle.flush();
    expect(task).toHaveBeenCalledTimes(2);
  });
});
