/** The one place toasts come from (one mechanism, sonner, 4000 ms: docs/decisions.md#one-toast-mechanism). */
export const toastDurationMs = 4000;

interface ToastAction {
  label: string;
  onClick(): void;
}

/**
 * Sonner loads with the first toast, not with the app: its styles, injected when it loads, make
 * the browser restyle the whole page, which must not happen while a reply streams. The app mounts
 * the toaster once a toast has been raised (sonner hands it the toasts raised before).
 */
let raised = false;
const listeners = new Set<() => void>();

function sonner() {
  if (!raised) {
    raised = true;
    for (const listener of listeners) listener();
  }
  return import('sonner');
}

/** For useSyncExternalStore: whether any toast has been raised, so the toaster is wanted. */
export const toasts = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  raised: () => raised,
};

export const notify = {
  /** `untilDismissed`: an Undo that must not slip away while the user looks (a restore). */
  success(
    message: string,
    {
      untilDismissed = false,
      ...options
    }: { description?: string; action?: ToastAction; untilDismissed?: boolean } = {},
  ) {
    void sonner().then(({ toast }) =>
      toast.success(message, { duration: untilDismissed ? Infinity : toastDurationMs, ...options }),
    );
  },
  error(message: string, description?: string, action?: ToastAction) {
    void sonner().then(({ toast }) =>
      toast.error(message, { duration: toastDurationMs, description, action }),
    );
  },
  /** Stays until acted on or dismissed: a new version of the app is waiting. */
  update(message: string, action: ToastAction) {
    void sonner().then(({ toast }) => toast.info(message, { duration: Infinity, action }));
  },
  warning(message: string, description?: string, action?: ToastAction) {
    void sonner().then(({ toast }) =>
      toast.warning(message, { duration: toastDurationMs * 2, description, action }),
    );
  },
};

/** What the state layer needs of toasts; tests pass a recording fake. */
export type Notifier = typeof notify;
