import { Globe, ImagePlus, SquareTerminal, type LucideIcon } from 'lucide-react';
import type { ProviderTool } from '../../domain/provider-definitions/capabilities.ts';
import { providerToolOn } from '../../domain/tool-switches.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';

const toggles: { tool: ProviderTool; label: string; Icon: LucideIcon }[] = [
  { tool: 'webSearch', label: 'Search the web', Icon: Globe },
  { tool: 'codeExecution', label: 'Run code', Icon: SquareTerminal },
  { tool: 'imageOutput', label: 'Create images', Icon: ImagePlus },
];

/**
 * 'Search the web', 'Run code' and 'Create images' beside the message box, for this
 * conversation: the provider's own tools, each offered only where the model the next message goes
 * to takes it through a switch (Groq's compound models search and run code unasked, Gemini's
 * image models draw in every reply: they have none).
 */
export function ProviderToolToggles({ conversationId }: { conversationId: string }) {
  // A string, so that the toggles render again only when what they show changes.
  const shown = useChatState((state) => {
    const capabilities = modelCapabilities(state, targetConfig(state, conversationId));
    const conversation = state.loaded[conversationId];
    return toggles
      .map(({ tool }) =>
        capabilities[tool] !== true ? '-' : conversation && providerToolOn(conversation, tool) ? '1' : '0',
      )
      .join('');
  });
  return toggles.map(({ tool, label, Icon }, index) => {
    if (shown[index] === '-') return null;
    const on = shown[index] === '1';
    return (
      <Button
        key={tool}
        size="icon"
        variant="ghost"
        aria-label={label}
        aria-pressed={on}
        title={`${label}: ${on ? 'on' : 'off'}`}
        onClick={() => void chat.setProviderTool(conversationId, tool, !on)}
        className={on ? 'size-10 text-indigo-600 dark:text-indigo-400' : 'size-10'}
      >
        <Icon />
      </Button>
    );
  });
}
