import { Columns3 } from 'lucide-react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { Button } from '../ui/button.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';
import type { ComparePickerProps } from './compare-picker.tsx';

// The picker loads when it first opens: comparing is no part of the chat screen's first load.
const ComparePicker = lazyPart<ComparePickerProps>(() => import('./compare-picker.tsx'));

/**
 * 'Compare' beside the message box: picks 2 to 4 models that each next message is asked of at
 * once ('Compare: N models' while it does).
 */
export function CompareControl({ conversationId }: { conversationId: string }) {
  const count = useChatState((state) => state.loaded[conversationId]?.compare?.length ?? 0);
  const label = count > 0 ? `Compare: ${count} models` : 'Compare';
  return (
    <PopoverButton
      asChild
      align="start"
      contentClassName="w-80"
      contentLabel="Compare models"
      content={(close) => <ComparePicker conversationId={conversationId} close={close} />}
    >
      <Button
        size="icon"
        variant="ghost"
        aria-label={label}
        title={label}
        className={count > 0 ? 'size-10 text-indigo-600 dark:text-indigo-400' : 'size-10'}
      >
        <Columns3 />
      </Button>
    </PopoverButton>
  );
}
