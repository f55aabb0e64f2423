import { Toaster } from 'sonner';
import { useTheme } from '../hooks/use-theme.ts';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { ChatScreen } from './chat-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Two routes: '/' is the chat screen, every other path the not-found page. */
export function App() {
  const { resolved } = useTheme();
  const path = window.location.pathname;
  return (
    <AppErrorBoundary>
      {path === '/' ? <ChatScreen /> : <NotFoundPage path={path} />}
      <Toaster theme={resolved} position="bottom-right" closeButton />
    </AppErrorBoundary>
  );
}
