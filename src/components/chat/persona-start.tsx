import { systemPromptOf } from '../../domain/conversation-rules.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { PersonaField, usePersonas } from './persona-field.tsx';

/**
 * 'Persona' above the message box of a conversation with no message yet, while any persona is
 * saved: choosing one sets the conversation up at once (system prompt and model); 'None' empties
 * its system prompt. Loaded only when there are personas.
 */
export default function PersonaStart({ conversationId }: { conversationId: string }) {
  const systemPrompt = useChatState((state) => {
    const conversation = state.loaded[conversationId];
    // Only the root: nothing asked yet.
    return conversation?.messages.length === 1 ? systemPromptOf(conversation) : null;
  });
  const pin = useChatState((state) => state.loaded[conversationId]?.pin);
  const { personas, current } = usePersonas(systemPrompt ?? '', pin);
  if (systemPrompt === null) return null;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-1">
      <PersonaField
        inline
        setsModel
        personas={personas}
        current={current}
        choose={(id) =>
          void (id ? chat.choosePersona(conversationId, id) : chat.setSystemPrompt(conversationId, ''))
        }
      />
    </div>
  );
}
