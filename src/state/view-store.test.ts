import { describe, expect, it, vi } from 'vitest';
import { createFocusRequests } from './view-store.ts';

describe('focus requests', () => {
  it('reach the fields listening for their target, each time', () => {
    const focus = createFocusRequests();
    const composer = vi.fn();
    const search = vi.fn();
    focus.listen('composer', composer);
    focus.listen('search', search);
    focus.request('composer');
    focus.request('composer');
    expect(composer).toHaveBeenCalledTimes(2);
    expect(search).not.toHaveBeenCalled();
  });

  it('wait for a field that is not mounted yet, and are heard once', () => {
    const focus = createFocusRequests();
    focus.request('search');
    const first = vi.fn();
    const stop = focus.listen('search', first);
    expect(first).toHaveBeenCalledTimes(1);
    stop();
    const second = vi.fn();
    focus.listen('search', second);
    expect(second).not.toHaveBeenCalled();
  });

  it('stop reaching a field once it stops listening', () => {
    const focus = createFocusRequests();
    const listener = vi.fn();
    focus.listen('composer', listener)();
    focus.request('composer');
    expect(listener).not.toHaveBeenCalled();
  });
});
