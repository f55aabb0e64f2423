/** Loaded with the first toast (or the toaster, after the first paint): not on the first load. */
const sonner = () => import('sonner');

/** The one place toasts come from (DECISIONS: one mechanism, sonner, 4000 ms). */
export const toastDurationMs = 4000;

interface ToastAction {
  label: string;
  onClick(): void;
}

export const notify = {
  success(message: string, options: { description?: string; action?: ToastAction } = {}) {
    void sonner().then(({ toast }) => toast.success(message, { duration: toastDurationMs, ...options }));
  },
  error(message: string, description?: string, action?: ToastAction) {
    void sonner().then(({ toast }) =>
      toast.error(message, { duration: toastDurationMs, description, action }),
    );
  },
  warning(message: string, description?: string, action?: ToastAction) {
    void sonner().then(({ toast }) =>
      toast.warning(message, { duration: toastDurationMs * 2, description, action }),
    );
  },
};

/** What the state layer needs of toasts; tests pass a recording fake. */
export type Notifier = typeof notify;
