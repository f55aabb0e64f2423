import { useEffect } from 'react';
import { matchesShortcut } from '../state/actions.ts';
import { chat } from '../state/chat.ts';
import { actions } from './use-actions.ts';

export const isMac = /Mac|iPhone|iPad/.test(navigator.platform);

/** A field that takes typing: its plain keys (Escape included) are its own. */
function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || target.matches('input, textarea, select, [role=textbox], [role=combobox]'))
  );
}

/**
 * Runs an action when its shortcut is pressed. Shortcuts without Ctrl (Cmd) never fire while
 * typing in a field, and inside an open dialog only the palette's own shortcut does; a key that
 * something else already handled (a dialog's Escape) is left alone.
 */
export function useShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const action = actions.find(
        (candidate) => candidate.shortcut && matchesShortcut(candidate.shortcut, event, isMac),
      );
      if (!action?.shortcut) return;
      const inDialog = event.target instanceof Element && event.target.closest('[role=dialog]') !== null;
      if (inDialog && action.id !== 'palette') return;
      if (!action.shortcut.mod && isTextField(event.target)) return;
      if (!action.available(chat.store.getState())) return;
      event.preventDefault();
      void action.run();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
