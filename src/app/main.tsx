import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The app never runs inside a frame: an HTML preview (framed, sandboxed) that loads this origin's
// page into itself gets a line of text, not a working look-alike of the app.
if (window.top !== window) root.textContent = 'BYOK Chat does not run inside a frame.';
else
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
