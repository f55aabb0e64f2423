import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasts } from '../state/notify.ts';
import { useTheme } from '../hooks/use-theme.ts';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { ChatScreen } from './chat-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

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
          <Toaster theme={resolved} position="bottom-right" closeButton />
        </Suspense>
      )}
    </AppErrorBoundary>
  );
}
