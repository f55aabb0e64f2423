import { chat } from '../state/chat.ts';
import { notify } from '../state/notify.ts';

/**
 * Registers the service worker of the build (tools/service-worker), which keeps the app working
 * offline. When a new version has been installed it waits: the page says 'A new version is
 * available' with 'Reload', and reloading waits for a reply that is streaming to end.
 */
export function register(): void {
  navigator.serviceWorker.register('/sw.js').then(watchForUpdates, (error: unknown) => {
    console.warn('The app will not work offline: its service worker did not register', error);
  });
}

function watchForUpdates(registration: ServiceWorkerRegistration | undefined): void {
  // Seen undefined once, in the bench, on a page closed while the worker registered.
  if (!registration) return;
  // A page controlled before has an older version: a worker installed now is an update.
  const hadController = navigator.serviceWorker.controller !== null;
  if (registration.waiting && hadController) offerUpdate(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && navigator.serviceWorker.controller) offerUpdate(installing);
    });
  });
  // Deployments while the app stays open are found too.
  setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
}

function offerUpdate(waiting: ServiceWorker): void {
  notify.update('A new version is available', {
    label: 'Reload',
    onClick: () => void reloadInto(waiting),
  });
}

async function reloadInto(waiting: ServiceWorker): Promise<void> {
  await whenNotStreaming();
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  waiting.postMessage({ type: 'skip-waiting' });
}

/** Resolves once no reply is streaming: nothing is reloaded under the user mid-reply. */
function whenNotStreaming(): Promise<void> {
  if (chat.store.getState().streaming === null) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = chat.store.subscribe((state) => {
      if (state.streaming !== null) return;
      stop();
      resolve();
    });
  });
}
