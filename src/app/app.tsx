import { ChatScreen } from './chat-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Two routes: '/' is the chat screen, every other path the not-found page. */
export function App() {
  return window.location.pathname === '/' ? <ChatScreen /> : <NotFoundPage path={window.location.pathname} />;
}
