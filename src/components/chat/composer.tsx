import { SendHorizontal, Square } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { connectionLabel } from '../../domain/provider-catalog.ts';
import { useAutoGrow } from '../../hooks/use-auto-grow.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { isStreamingIn, targetConfig } from '../../state/chat-store.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';

const { readDraft, writeDraft, send, stop } = chat;

/** The message input. Mounted per conversation (keyed), so each one keeps its own draft. */
export function Composer({ conversationId }: { conversationId: string }) {
  const provider = useChatState((state) => connectionLabel(targetConfig(state, state.activeId)));
  const isLoading = useChatState((state) => state.streaming !== null);
  const streamingHere = useChatState((state) => isStreamingIn(state, conversationId));
  const [text, setText] = useState(() => readDraft(conversationId));
  // Grows with the text up to max-h-48 (12rem), then scrolls.
  const textarea = useAutoGrow(text);

  // The draft is written shortly after typing stops, and at once when the composer goes away
  // (another conversation) or the page is hidden or closed.
  const latest = useRef(text);
  useEffect(() => {
    latest.current = text;
    const timer = setTimeout(() => writeDraft(conversationId, text), 300);
    return () => clearTimeout(timer);
  }, [conversationId, text]);
  useEffect(() => {
    const flush = () => writeDraft(conversationId, latest.current);
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [conversationId]);

  // Focus returns to the input when a reply finishes.
  useEffect(() => {
    if (!isLoading) textarea.current?.focus();
  }, [isLoading, textarea]);

  const submit = async () => {
    if (!text.trim() || isLoading) return;
    if (await send(text)) {
      setText('');
      writeDraft(conversationId, '');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form
      className="border-t border-gray-200 p-3 dark:border-gray-800"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <textarea
          ref={textarea}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={isLoading}
          rows={1}
          aria-label="Message"
          placeholder={`Type a message... (Using ${provider})`}
          className="max-h-48 min-h-10 flex-1 resize-none rounded-md border border-gray-300 bg-white px-3 py-2 text-sm outline-none placeholder:text-gray-400 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900"
        />
        {streamingHere ? (
          <Button
            size="icon"
            variant="danger"
            aria-label="Stop"
            title="Stop"
            onClick={stop}
            className="size-10"
          >
            <Square />
          </Button>
        ) : (
          <Button
            type="submit"
            size="icon"
            aria-label="Send"
            title="Send"
            disabled={!text.trim() || isLoading}
            className="size-10"
          >
            <SendHorizontal />
          </Button>
        )}
      </div>
    </form>
  );
}
