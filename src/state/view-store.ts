import { createStore, type StoreApi } from 'zustand/vanilla';

/**
 * The screen's chrome, apart from the product's data (chat-store.ts): what is open, folded or
 * marked. Nothing here is saved or shared between tabs.
 */
export interface ViewState {
  importExportOpen: boolean;
  /** On phones, which side panel is open as a sheet. */
  sheet: 'sidebar' | 'settings' | null;
  /** The one overlay an action opened: they replace each other. */
  overlay: Overlay | null;
  /** On wider screens, the settings panel folded to a strip. */
  settingsCollapsed: boolean;
  /** A message to scroll to and mark briefly (a search result), until the message list has. */
  revealed: { conversationId: string; messageId: string } | null;
  /**
   * The artifact open in the panel beside the chat: in which conversation (another one closes
   * it), by its key (domain/artifacts.ts), at which version (0-based; null: the latest, following
   * new ones as they come).
   */
  artifact: {
    conversationId: string;
    key: string;
    version: number | null;
    /** Show the user's version saved with this id (found among the versions once it is stored). */
    editId?: string;
  } | null;
  /** The project whose settings dialog is open (its id). */
  projectSettings: string | null;
  /** The conversation 'Move to project…' was asked for (its id): the dialog choosing where. */
  moving: string | null;
  /**
   * A prompt to insert into the message box (its id), asked for from outside it (the palette):
   * the composer takes it, through the variables' form when it has variables, and clears it.
   */
  promptToInsert: string | null;
  /**
   * Voice (docs/voice.md): dictating into the message box (and asked to end it: the recording is
   * then transcribed), or talking hands-free.
   */
  voice: 'dictation' | 'dictation-ending' | 'hands-free' | null;
  /** The reply being read aloud, and how far. */
  reading: { messageId: string; status: 'loading' | 'playing' | 'paused' } | null;
}

export type Overlay =
  | 'palette'
  | 'shortcuts'
  | 'model-picker'
  | 'protect-keys'
  | 'unlock-keys'
  | 'conversation-settings'
  | 'rename-conversation'
  | 'delete-conversation';

export type ViewStore = StoreApi<ViewState>;

export function createViewStore(): ViewStore {
  return createStore<ViewState>(() => ({
    importExportOpen: false,
    sheet: null,
    overlay: null,
    settingsCollapsed: false,
    revealed: null,
    artifact: null,
    projectSettings: null,
    moving: null,
    promptToInsert: null,
    voice: null,
    reading: null,
  }));
}

/** The fields an action can ask to take the focus. */
export type FocusTarget = 'composer' | 'search';

/**
 * Requests for a field to take the focus, as events. A request made while its field is not
 * mounted (the sidebar's search, on a phone, mounts when its sheet opens) waits for it, once.
 */
export interface FocusRequests {
  request(target: FocusTarget): void;
  /** Calls `listener` on each request for `target` (and at once for one waiting); returns the unsubscribe. */
  listen(target: FocusTarget, listener: () => void): () => void;
}

export function createFocusRequests(): FocusRequests {
  const listeners = new Map<FocusTarget, Set<() => void>>();
  const waiting = new Set<FocusTarget>();
  return {
    request(target) {
      const heard = listeners.get(target);
      if (!heard?.size) return void waiting.add(target);
      for (const listener of heard) listener();
    },
    listen(target, listener) {
      const heard = listeners.get(target) ?? new Set();
      listeners.set(target, heard);
      heard.add(listener);
      if (waiting.delete(target)) listener();
      return () => void heard.delete(listener);
    },
  };
}
