import { Wrench } from 'lucide-react';
import { useEffect, useState } from 'react';
import { supportsTools } from '../../domain/provider-definitions/capabilities.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';
import { countOffered } from './tool-count.ts';
import { ToolsPopover } from './lazy-tool-ui.tsx';

/**
 * 'Tools: N on' beside the message box: how many tools the next message offers, opening the
 * sources to switch on or off for this conversation; 'Tools are off for {model}' when the model
 * the next message goes to takes none.
 */
export function ToolsControl({ conversationId }: { conversationId: string }) {
  // The model the next message goes to, when it takes no tools ('' when it does).
  const off = useChatState((state) => {
    const config = targetConfig(state, conversationId);
    return supportsTools(modelCapabilities(state, config)) ? '' : modelOf(config) || connectionLabel(config);
  });
  // Counted again whenever a source is switched here (or in another tab).
  const switches = useChatState((state) => state.loaded[conversationId]?.toolSwitches);
  const [count, setCount] = useState(0);
  useEffect(() => {
    void chat.toolSources(conversationId).then((sources) => setCount(countOffered(sources)));
  }, [conversationId, switches]);

  const on = !off && count > 0;
  const label = off ? `Tools are off for ${off}` : `Tools: ${on ? `${count} on` : 'off'}`;
  return (
    <PopoverButton
      asChild
      align="start"
      contentClassName="w-80"
      contentLabel="Tools"
      content={<ToolsPopover conversationId={conversationId} offFor={off} />}
    >
      <Button
        size="icon"
        variant="ghost"
        aria-label={label}
        title={label}
        className={on ? 'size-10 text-indigo-600 dark:text-indigo-400' : 'size-10'}
      >
        <Wrench />
      </Button>
    </PopoverButton>
  );
}
