import { Component, type ReactNode } from 'react';

/** The last line of defence: an unexpected error shows a way out, never a blank page. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error('The app crashed', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="flex h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="max-w-md text-sm text-gray-600">
          Your conversations are safe in this browser&apos;s storage. Reload the page to continue.
        </p>
        <pre className="max-w-md overflow-auto text-xs text-gray-500">{this.state.error.message}</pre>
        <button
          type="button"
          className="rounded bg-indigo-600 px-3 py-2 text-white"
          onClick={() => location.reload()}
        >
          Reload
        </button>
      </div>
    );
  }
}
