import { Component, type ReactNode } from 'react';

interface Props {
  text: string;
  children: ReactNode;
}

/** If one message fails to render, show it as plain text with a notice; the rest of the app stays. */
export class MessageErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('A message could not be rendered', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div>
        <p className="mb-1 text-xs text-amber-700 dark:text-amber-400">
          This message could not be formatted, so it is shown as plain text.
        </p>
        <div className="whitespace-pre-wrap">{this.props.text}</div>
      </div>
    );
  }
}
