import type { TypesetRequest, TypesetResponse } from './typeset-math.worker.ts';

/**
 * Formulas typeset by KaTeX in a worker (started on the first formula), as HTML, kept by source
 * so a formula shown again is not typeset again. Callers read `typesetFormula` and subscribe to
 * the formula's key; until its HTML arrives (or when it cannot be made) they show the source.
 */

/** HTML by key; null when KaTeX failed. Oldest first, for the limit. */
const typeset = new Map<string, string | null>();
const typesetLimit = 2000;
const listeners = new Map<string, Set<() => void>>();
const requested = new Set<string>();
let worker: Worker | undefined;
/** After the worker failed to load, no new one before this time: not one per render while offline. */
let retryAt = 0;
const retryAfterMs = 10_000;

export const formulaKey = (tex: string, display: boolean): string => `${display ? 'D' : 'I'}${tex}`;

/** The formula's HTML; undefined while it is being typeset (which this starts), null if it failed. */
export function typesetFormula(tex: string, display: boolean): string | null | undefined {
  const key = formulaKey(tex, display);
  if (typeset.has(key)) return typeset.get(key);
  if (!requested.has(key) && Date.now() >= retryAt) {
    requested.add(key);
    mathWorker().postMessage({ key, tex, display } satisfies TypesetRequest);
  }
  return undefined;
}

export function subscribeFormula(key: string, listener: () => void): () => void {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(key);
  };
}

function settle(key: string, html: string | null): void {
  requested.delete(key);
  if (typeset.size >= typesetLimit) {
    const oldest = typeset.keys().next().value;
    if (oldest !== undefined) typeset.delete(oldest);
  }
  typeset.set(key, html);
  for (const listener of listeners.get(key) ?? []) listener();
}

function mathWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./typeset-math.worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<TypesetResponse>) =>
    settle(event.data.key, event.data.html),
  );
  // It failed to load (offline) or broke: the formulas asked for stay as their source, not
  // remembered, and ask again in a fresh worker later (not one worker per render meanwhile).
  started.addEventListener('error', (event) => {
    event.preventDefault();
    console.error('Could not load the math renderer', event.message);
    started.terminate();
    worker = undefined;
    requested.clear();
    retryAt = Date.now() + retryAfterMs;
    // The formulas on screen ask again when the time comes, or as soon as the browser is online.
    const retry = () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', retry);
      retryAt = 0;
      for (const set of listeners.values()) for (const listener of set) listener();
    };
    const timer = window.setTimeout(retry, retryAfterMs);
    window.addEventListener('online', retry);
  });
  worker = started;
  return started;
}
