import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The app never runs inside a frame: an HTML preview (framed, sandboxed) that loads this origin's
// page into itself gets a line of text, not a working look-alike of the app.
if (window.top !== window) root.textContent = 'BYOK Chat does not run inside a frame.';
else {
  // The offline app's service worker registers once the page has loaded (its code loads then too).
  if (import.meta.env.PROD && 'serviceWorker' in navigator)
    window.addEventListener(
      'load',
      () => void import('./service-worker.ts').then((worker) => worker.register()),
    );
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
