import { useEffect, useState, type KeyboardEvent } from 'react';
import { useAutoGrow } from '../../hooks/use-auto-grow.ts';
import { Button } from '../ui/button.tsx';

export interface MessageEditFormProps {
  initialText: string;
  /** A reply is streaming: sending waits for it to end. */
  busy: boolean;
  /** Resolves true when the edit was taken (the form then closes). */
  onSend(text: string): Promise<boolean>;
  onCancel(): void;
}

/** A user message being edited: Enter or Ctrl+Enter sends, Shift+Enter adds a line, Escape cancels. */
export function MessageEditForm({ initialText, busy, onSend, onCancel }: MessageEditFormProps) {
  const [text, setText] = useState(initialText);
  const area = useAutoGrow(text);

  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [area]);

  const submit = async () => {
    if (text.trim() && !busy && (await onSend(text))) onCancel();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={area}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-label="Edit message"
        rows={1}
        className="max-h-80 min-h-10 w-full resize-none rounded-md border border-gray-300 bg-white px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-700 dark:bg-gray-900"
      />
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!text.trim() || busy}>
          Save and send
        </Button>
      </div>
    </form>
  );
}
