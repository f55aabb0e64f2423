import { useSyncExternalStore } from 'react';
import type * as mathPlugins from './math-plugins.ts';

export type MathPlugins = typeof mathPlugins;

let plugins: MathPlugins | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Starts fetching the math chunk (once); blocks with formulas render again when it is in. */
export function loadMath(): void {
  loading ??= import('./math-plugins.ts').then(
    (loaded) => {
      plugins = loaded;
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      // Offline or a failed fetch: formulas stay as their source; the next formula tries again.
      console.error('Could not load the math renderer', error);
      loading = null;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The math plugins once loaded, else null. */
export function useMathPlugins(): MathPlugins | null {
  const current = () => plugins;
  return useSyncExternalStore(subscribe, current, current);
}
