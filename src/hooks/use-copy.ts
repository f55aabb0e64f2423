import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '../state/notify.ts';

/** How long a copy button shows its "copied" state (2 seconds: docs/behaviour.md#message-list). */
export const copiedResetMs = 2000;

/** Copies text to the clipboard, shows `successMessage`, and reports `copied` for 2 seconds. */
export function useCopy(successMessage: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(
    async (text: string) => {
      try {
        await navigator.clipboard.writeText(text);
      } catch (error) {
        console.error('Clipboard write failed', error);
        notify.error('Could not copy to the clipboard', 'The browser refused clipboard access.');
        return;
      }
      notify.success(successMessage);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), copiedResetMs);
    },
    [successMessage],
  );

  return { copied, copy };
}
