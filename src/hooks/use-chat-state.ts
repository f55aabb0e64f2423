import { useEffect, useState, type RefObject } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { chat, type ChatState, type ViewState } from '../state/chat.ts';
import type { FocusTarget } from '../state/view-store.ts';

/** Subscribes a component to one slice of the chat state; it re-renders only when that slice changes. */
export function useChatState<T>(selector: (state: ChatState) => T): T {
  return useStore(chat.store, selector);
}

/** As useChatState, for selectors that build a new object or array each time. */
export function useChatStateShallow<T>(selector: (state: ChatState) => T): T {
  return useStore(chat.store, useShallow(selector));
}

/** Subscribes a component to one slice of the screen's chrome (view-store.ts). */
export function useViewState<T>(selector: (state: ViewState) => T): T {
  return useStore(chat.view, selector);
}

/**
 * Focuses the element each time an action asks for `target` (and once for a request made before it
 * mounted). The focus moves after the render the request came with: an overlay closed by the same
 * action (the palette) has let go of the focus by then.
 */
export function useFocusRequest(target: FocusTarget, element: RefObject<HTMLElement | null>): void {
  const [requests, setRequests] = useState(0);
  useEffect(() => chat.focusRequests.listen(target, () => setRequests((count) => count + 1)), [target]);
  useEffect(() => {
    if (requests > 0) element.current?.focus();
  }, [requests, element]);
}
