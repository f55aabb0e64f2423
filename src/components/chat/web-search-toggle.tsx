import { Globe } from 'lucide-react';
import { webSearchOn } from '../../domain/tool-switches.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';

/**
 * 'Search the web' beside the message box, for this conversation: the provider's own search,
 * offered only where the model the next message goes to takes it (Groq's compound models search
 * unasked, so they have no switch).
 */
export function WebSearchToggle({ conversationId }: { conversationId: string }) {
  const offered = useChatState(
    (state) => modelCapabilities(state, targetConfig(state, conversationId)).webSearch === true,
  );
  const on = useChatState((state) => {
    const conversation = state.loaded[conversationId];
    return conversation ? webSearchOn(conversation) : false;
  });
  if (!offered) return null;
  return (
    <Button
      size="icon"
      variant="ghost"
      aria-label="Search the web"
      aria-pressed={on}
      title={on ? 'Search the web: on' : 'Search the web: off'}
      onClick={() => void chat.setWebSearch(conversationId, !on)}
      className={on ? 'size-10 text-indigo-600 dark:text-indigo-400' : 'size-10'}
    >
      <Globe />
    </Button>
  );
}
