import { toast } from 'sonner';

/** The one place toasts come from (DECISIONS: one mechanism, sonner, 4000 ms). */
export const toastDurationMs = 4000;

interface ToastAction {
  label: string;
  onClick(): void;
}

export const notify = {
  success(message: string, options: { description?: string; action?: ToastAction } = {}) {
    toast.success(message, { duration: toastDurationMs, ...options });
  },
  error(message: string, description?: string, action?: ToastAction) {
    toast.error(message, { duration: toastDurationMs, description, action });
  },
  warning(message: string, description?: string, action?: ToastAction) {
    toast.warning(message, { duration: toastDurationMs * 2, description, action });
  },
};

/** What the state layer needs of toasts; tests pass a recording fake. */
export type Notifier = typeof notify;
