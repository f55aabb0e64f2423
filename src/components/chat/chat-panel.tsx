import { MessageSquarePlus } from 'lucide-react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { providerCatalog } from '../../domain/provider-catalog.ts';
import { chat } from '../../state/chat.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { ChatHeader } from './chat-header.tsx';
import { Composer } from './composer.tsx';
import { MessageList } from './message-list.tsx';

function ConfigNotice() {
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200"
    >
      Please configure your AI provider settings in the panel on the right to start using the application.
    </div>
  );
}

function EmptyState() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
      <h2 className="text-xl font-semibold">No Conversation Selected</h2>
      <p className="max-w-sm text-sm text-gray-600 dark:text-gray-400">
        Create a new conversation or select an existing one to get started.
      </p>
      <Button onClick={() => void chat.newConversation()}>
        <MessageSquarePlus /> New Conversation
      </Button>
    </div>
  );
}

/** The centre column: header, notice, messages and composer, or the empty state. */
export function ChatPanel() {
  const activeId = useChatState((state) =>
    state.activeId && state.list.some((row) => row.id === state.activeId) ? state.activeId : null,
  );
  // The spec's notice shows while no key is set for where the next message goes (a local endpoint needs none).
  const hasKey = useChatState((state) => {
    const { provider, apiKey } = targetConfig(state, state.activeId);
    return providerCatalog[provider].keyOptional === true || apiKey.trim() !== '';
  });

  return (
    <main className="flex min-w-0 flex-1 flex-col">
      <ChatHeader />
      {!hasKey && <ConfigNotice />}
      {activeId ? (
        <>
          <MessageList key={`messages-${activeId}`} conversationId={activeId} />
          <Composer key={`composer-${activeId}`} conversationId={activeId} />
        </>
      ) : (
        <EmptyState />
      )}
    </main>
  );
}
