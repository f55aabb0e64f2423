import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

interface BoundaryProps {
  onRetry(): void;
  children: ReactNode;
}

/** Shows why a part is missing, with 'Try again', instead of letting the failure take the app down. */
class PartBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p role="alert" className="text-xs text-gray-700 dark:text-gray-300">
        This part of the app could not load (offline?).{' '}
        <button type="button" className="underline" onClick={this.props.onRetry}>
          Try again
        </button>
      </p>
    );
  }
}

/** A lazily loaded part; `preload()` fetches it ahead, so showing it then does not suspend. */
export type LazyPart<P extends object> = ComponentType<P> & { preload(): void };

/**
 * A part of the screen loaded on first use. A failed load (offline, or a deployment that removed
 * the old file) shows a line with 'Try again' in its place; React keeps a failed lazy component,
 * so trying again makes a fresh one.
 *
 * Once the module is in (preloaded, or shown before), a new instance renders it directly: a lazy
 * component suspends on its first render even when its module is loaded, and React then holds the
 * revealed content back for up to 300 ms (its fallback throttle), which an 'Open' click would feel.
 */
export function lazyPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback: ReactNode = null,
): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  let Lazy = lazy(loadOnce);
  function LazyPart(props: P) {
    const [attempt, setAttempt] = useState(0);
    return (
      <PartBoundary
        key={attempt}
        onRetry={() => {
          Lazy = lazy(loadOnce);
          setAttempt(attempt + 1);
        }}
      >
        <Suspense fallback={fallback}>
          <Shown {...props} />
        </Suspense>
      </PartBoundary>
    );
  }
  function Shown(props: P) {
    // Fixed per instance: switching from the lazy to the loaded type would remount the part.
    const [Part] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Part {...props} />;
  }
  return Object.assign(LazyPart, { preload: () => void loadOnce().catch(() => undefined) });
}
