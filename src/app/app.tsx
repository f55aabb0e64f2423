import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasts } from '../state/notify.ts';
import { useTheme } from '../hooks/use-theme.ts';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { ChatScreen } from './chat-screen.tsx';
import { lazyPart } from '../components/ui/lazy-part.tsx';

/**
 * Height kept free under the toasts: the message box with Send (its top 98 px above the bottom:
 * the row of buttons under it, then the box and Send) and the panel's Save button.
 */
const toastClearance = 112;

// Any path but '/': the first load is the chat screen's.
const NotFoundPage = lazyPart<{ path: string }>(() =>
  import('./not-found-page.tsx').then((module) => ({ default: module.NotFoundPage })),
);

// Its own chunk, mounted once the first toast is raised (see notify.ts).
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** Two routes: '/' is the chat screen, every other path the not-found page. */
export function App() {
  const { resolved } = useTheme();
  const toastRaised = useSyncExternalStore(toasts.subscribe, toasts.raised);
  const path = window.location.pathname;
  return (
    <AppErrorBoundary>
      {path === '/' ? <ChatScreen /> : <NotFoundPage path={path} />}
      {toastRaised && (
        <Suspense fallback={null}>
          <Toaster
            theme={resolved}
            position="bottom-right"
            // Above the message box's Send and the settings panel's Save, which a toast must not hide.
            offset={{ bottom: toastClearance, right: 24 }}
            mobileOffset={{ bottom: toastClearance, left: 16, right: 16 }}
            closeButton
          />
        </Suspense>
      )}
    </AppErrorBoundary>
  );
}
