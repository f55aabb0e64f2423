import { MessageSquarePlus } from 'lucide-react';
import { useEffect, useState, type DragEvent, type ReactNode } from 'react';
import { usePendingFiles } from '../../hooks/use-pending-files.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { providerCatalog } from '../../domain/provider-catalog.ts';
import { chat } from '../../state/chat.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import { LockedKeysHint } from '../ui/locked-keys-hint.tsx';
import { ChatHeader } from './chat-header.tsx';
import { Composer } from './composer.tsx';
import { MessageList } from './message-list.tsx';

const PersonaStart = lazyPart<{ conversationId: string }>(() => import('./persona-start.tsx'));

function ConfigNotice() {
  // Keys protected and not unlocked yet: the settings are fine, the passphrase is what is missing.
  const locked = useChatState((state) => state.keyLock === 'locked');
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200"
    >
      {locked ? (
        <LockedKeysHint onUnlock={() => chat.setOverlay('unlock-keys')} />
      ) : (
        'Please configure your AI provider settings in the panel on the right to start using the application.'
      )}
    </div>
  );
}

function EmptyState({ firstRun }: { firstRun: ReactNode }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col items-center overflow-y-auto p-6 text-center">
      <div className="my-auto flex w-full flex-col items-center gap-3">
        <h2 className="text-xl font-semibold">No Conversation Selected</h2>
        <p className="max-w-sm text-sm text-muted-foreground">
          Create a new conversation or select an existing one to get started.
        </p>
        <Button onClick={() => void chat.newConversation()}>
          <MessageSquarePlus /> New Conversation
        </Button>
        {firstRun}
      </div>
    </div>
  );
}

/** Whether a drag carries files (not text or a link being dragged). */
function hasFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}

/**
 * A conversation's messages and composer, mounted per conversation. Files dropped anywhere on it
 * are attached to the message being written.
 */
function ConversationView({ conversationId }: { conversationId: string }) {
  const files = usePendingFiles();
  const hasPersonas = useChatState((state) => state.prompts.some((prompt) => prompt.persona));
  const [dragging, setDragging] = useState(false);
  // A file dropped beside the conversation (the sidebar, the header) would make the browser open
  // it in place of the app.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);
  return (
    <div
      className="relative flex min-h-0 flex-1 flex-col"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(event) => {
        // Leaving for a child is not leaving.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        files.add(event.dataTransfer.files);
      }}
    >
      <MessageList conversationId={conversationId} />
      {hasPersonas && <PersonaStart conversationId={conversationId} />}
      <Composer conversationId={conversationId} files={files} />
      {dragging && (
        <div
          aria-hidden
          className="pointer-events-none absolute inset-2 flex items-center justify-center rounded-lg border-2 border-dashed border-indigo-400 bg-indigo-50/80 text-sm font-medium text-indigo-800 dark:bg-indigo-950/80 dark:text-indigo-200"
        >
          Drop files to attach them
        </div>
      )}
    </div>
  );
}

/**
 * The centre column: header, notice, messages and composer, or the empty state; `firstRun` joins
 * the empty state while no key is set (the first-run card).
 */
export function ChatPanel({ firstRun }: { firstRun: ReactNode }) {
  const activeId = useChatState((state) =>
    state.activeId && state.list.some((row) => row.id === state.activeId) ? state.activeId : null,
  );
  // The notice (docs/behaviour.md#notice-without-a-key) shows while no key is set for where the next message goes (a local endpoint needs none).
  const hasKey = useChatState((state) => {
    const { provider, apiKey } = targetConfig(state, state.activeId);
    return providerCatalog[provider].keyOptional === true || apiKey.trim() !== '';
  });
  // Keys locked with a passphrase are keys all the same: no first run then.
  const locked = useChatState((state) => state.keyLock === 'locked');

  return (
    <main className="flex min-w-0 flex-1 flex-col">
      <ChatHeader />
      {!hasKey && <ConfigNotice />}
      {activeId ? (
        <ConversationView key={activeId} conversationId={activeId} />
      ) : (
        <EmptyState firstRun={!hasKey && !locked && firstRun} />
      )}
    </main>
  );
}
