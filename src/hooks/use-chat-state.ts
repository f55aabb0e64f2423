import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { chat, type ChatState } from '../state/chat.ts';

/** Subscribes a component to one slice of the chat state; it re-renders only when that slice changes. */
export function useChatState<T>(selector: (state: ChatState) => T): T {
  return useStore(chat.store, selector);
}

/** As useChatState, for selectors that build a new object or array each time. */
export function useChatStateShallow<T>(selector: (state: ChatState) => T): T {
  return useStore(chat.store, useShallow(selector));
}
