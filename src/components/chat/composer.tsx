import { Paperclip, SendHorizontal, Square } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import {
  attachmentAccept,
  attachmentDelivery,
  attachmentKind,
  type AttachmentKind,
} from '../../domain/attachments.ts';
import type { ModelCapabilities } from '../../domain/provider-definitions/capabilities.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import type { PendingFiles } from '../../hooks/use-pending-files.ts';
import { useAutoGrow } from '../../hooks/use-auto-grow.ts';
import { useChatState, useFocusRequest, useViewState } from '../../hooks/use-chat-state.ts';
import { useOnline } from '../../hooks/use-online.ts';
import { isStreamingIn, modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { FileChip } from './file-chip.tsx';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { ToolsControl } from './tools-control.tsx';
import { CompareControl } from './compare-control.tsx';
import { ProviderToolToggles } from './provider-tool-toggles.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import type { PromptMenuProps } from './prompt-menu.tsx';
import { VoiceButtons } from './voice-buttons.tsx';
import type { DictationBarProps } from './dictation-bar.tsx';
import type { HandsFreePanelProps } from './hands-free-panel.tsx';

const { readDraft, writeDraft, send, stop } = chat;

// The '/' menu of saved prompts: loaded when a '/' starts the text, or the palette asks for one.
const PromptMenu = lazyPart<PromptMenuProps>(() => import('./prompt-menu.tsx'));
// Dictation's recorder and transcription: loaded when it first starts.
const DictationBar = lazyPart<DictationBarProps>(() => import('./dictation-bar.tsx'));
// The hands-free talk, in the message box's place while it lasts.
const HandsFreePanel = lazyPart<HandsFreePanelProps>(() => import('./hands-free-panel.tsx'));

/** What the model will do differently with a file, said on its chip before sending. */
function deliveryNote(
  kind: AttachmentKind | null,
  capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>,
  model: string,
) {
  if (kind === null || kind === 'text') return undefined;
  const delivery = attachmentDelivery(kind, capabilities);
  if (delivery === 'refused') return `${model} does not see images`;
  return delivery === 'text' ? `Sent as text: ${model} does not read PDFs` : undefined;
}

/**
 * The chips of the files to send, each saying what the model the message goes to will do with it.
 * Mounted only while there are files: its selectors then do not run on every streamed frame.
 */
function FilesToSend({ files }: { files: PendingFiles }) {
  // Selected as plain values: a selector returning a new object would render without end.
  const images = useChatState(
    (state) => modelCapabilities(state, targetConfig(state, state.activeId)).images,
  );
  const pdfs = useChatState((state) => modelCapabilities(state, targetConfig(state, state.activeId)).pdfs);
  const model = useChatState((state) => {
    const config = targetConfig(state, state.activeId);
    return modelOf(config) || connectionLabel(config);
  });
  return (
    <ul aria-label="Files to send" className="mx-auto mb-2 flex max-w-3xl flex-wrap gap-2">
      {files.list.map((file) => {
        const kind = file.prepared?.part.kind ?? attachmentKind('', file.name);
        return (
          <FileChip
            key={file.key}
            name={file.name}
            size={file.prepared?.part.size ?? file.size}
            kind={kind}
            image={file.prepared?.blob ?? null}
            busy={file.prepared === null}
            note={deliveryNote(kind, { images, pdfs }, model)}
            onRemove={() => files.remove(file.key)}
          />
        );
      })}
    </ul>
  );
}

/**
 * The message input with its files. Mounted per conversation (keyed), so each one keeps its own
 * draft; files come from the picker, a paste, or a drop on the conversation.
 */
export function Composer({ conversationId, files }: { conversationId: string; files: PendingFiles }) {
  const picker = useRef<HTMLInputElement>(null);
  const provider = useChatState((state) => connectionLabel(targetConfig(state, state.activeId)));
  const isLoading = useChatState((state) => state.streaming !== null);
  const streamingHere = useChatState((state) => isStreamingIn(state, conversationId));
  const [text, setText] = useState(() => readDraft(conversationId));
  const promptAsked = useViewState((state) => state.promptToInsert) !== null;
  const voice = useViewState((state) => state.voice);
  const dictating = voice === 'dictation' || voice === 'dictation-ending';
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

  // Focus returns to the input when a reply finishes, and when 'Focus the message box' asks.
  useEffect(() => {
    if (!isLoading) textarea.current?.focus();
  }, [isLoading, textarea]);
  useFocusRequest('composer', textarea);

  const online = useOnline();
  const hasSomething = text.trim() !== '' || files.list.length > 0;
  const canSend = hasSomething && !files.preparing && !isLoading;
  const submit = async () => {
    if (!canSend) return;
    if (await send(text, files.ready)) {
      setText('');
      writeDraft(conversationId, '');
      files.clear();
    }
  };

  // A pasted file (a screenshot, a copied image) is attached. Pasted text stays text, also when
  // the clipboard holds a picture of it too (word processors and spreadsheets put both).
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = event.clipboardData.files;
    if (pasted.length === 0 || event.clipboardData.getData('text/plain')) return;
    event.preventDefault();
    files.add(pasted);
  };

  // Dictated text joins what is typed, for the user to read and fix before sending.
  const addDictated = useCallback(
    (dictated: string) => {
      setText((current) => (current.trim() === '' ? dictated : `${current.trimEnd()} ${dictated}`));
      textarea.current?.focus();
    },
    [textarea],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  if (voice === 'hands-free') return <HandsFreePanel conversationId={conversationId} />;
  return (
    <form
      className="border-t border-gray-200 p-3 dark:border-gray-800"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {!online && (
        <p role="status" className="mx-auto mb-2 max-w-3xl text-xs text-amber-800 dark:text-amber-300">
          You are offline: your draft is kept here. Providers on the internet answer again once the connection
          is back.
        </p>
      )}
      {files.list.length > 0 && <FilesToSend files={files} />}
      {dictating && <DictationBar onText={addDictated} />}
      {(text[0] === '/' || promptAsked) && <PromptMenu textarea={textarea} text={text} setText={setText} />}
      {/* The message box and Send on top; the buttons that shape the message below, voice at the end. */}
      <div className="mx-auto flex max-w-3xl flex-col gap-1.5">
        <div className="flex items-end gap-2">
          <textarea
            ref={textarea}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            disabled={isLoading}
            rows={1}
            aria-label="Message"
            placeholder={`Type a message... (Using ${provider})`}
            className="max-h-48 min-h-10 min-w-0 flex-1 resize-none rounded-md border border-gray-300 bg-white px-3 py-2 text-sm outline-none placeholder:text-gray-400 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900"
          />
          {streamingHere ? (
            <Button
              size="icon"
              variant="danger"
              aria-label="Stop"
              title="Stop"
              onClick={() => stop()}
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
              disabled={!canSend}
              className="size-10"
            >
              <SendHorizontal />
            </Button>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-1">
          <input
            ref={picker}
            type="file"
            multiple
            accept={attachmentAccept}
            hidden
            onChange={(event) => {
              files.add(event.target.files ?? []);
              // The same file may be picked again after it was removed.
              event.target.value = '';
            }}
          />
          <Button
            size="icon"
            variant="ghost"
            aria-label="Attach files"
            title="Attach files"
            disabled={isLoading}
            onClick={() => picker.current?.click()}
            className="size-10"
          >
            <Paperclip />
          </Button>
          <ToolsControl conversationId={conversationId} />
          <CompareControl conversationId={conversationId} />
          <ProviderToolToggles conversationId={conversationId} />
          <div className="ml-auto flex gap-1">
            <VoiceButtons disabled={isLoading} />
          </div>
        </div>
      </div>
    </form>
  );
}
