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

/**
 * A part of the screen loaded on first use. A failed load (offline, or a deployment that removed
 * the old file) shows a line with 'Try again' in its place; React keeps a failed lazy component,
 * so trying again makes a fresh one.
 */
export function lazyPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback: ReactNode = null,
): ComponentType<P> {
  let Loaded = lazy(load);
  return function LazyPart(props: P) {
    const [attempt, setAttempt] = useState(0);
    return (
      <PartBoundary
        key={attempt}
        onRetry={() => {
          Loaded = lazy(load);
          setAttempt(attempt + 1);
        }}
      >
        <Suspense fallback={fallback}>
          <Loaded {...props} />
        </Suspense>
      </PartBoundary>
    );
  };
}
