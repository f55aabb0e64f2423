import { lazy, Suspense } from 'react';
import { useTheme } from '../hooks/use-theme.ts';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { ChatScreen } from './chat-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

// Its own chunk, fetched right after the first load; a toast raised before it mounts still shows
// (sonner hands a new toaster the toasts already raised).
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/** Two routes: '/' is the chat screen, every other path the not-found page. */
export function App() {
  const { resolved } = useTheme();
  const path = window.location.pathname;
  return (
    <AppErrorBoundary>
      {path === '/' ? <ChatScreen /> : <NotFoundPage path={path} />}
      <Suspense fallback={null}>
        <Toaster theme={resolved} position="bottom-right" closeButton />
      </Suspense>
    </AppErrorBoundary>
  );
}
