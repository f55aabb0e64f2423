import { Component, type ReactNode } from 'react';
import { PlainText } from './plain-text.tsx';

interface Props {
  text: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  /** The text that failed: another text (the reply grew, was replaced) is tried again. */
  text: string;
}

/** If one message fails to render, show it as plain text with a notice; the rest of the app stays. */
export class MessageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, text: this.props.text };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.text === state.text ? null : { failed: false, text: props.text };
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
        <PlainText text={this.props.text} />
      </div>
    );
  }
}
