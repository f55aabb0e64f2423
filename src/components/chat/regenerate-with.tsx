import { Shuffle } from 'lucide-react';
import { chat } from '../../state/chat.ts';
import { PopoverButton } from '../ui/popover-button.tsx';
import { LazyModelList } from './lazy-model-list.tsx';

/**
 * 'Regenerate with…': asks the same question of another model, for this reply only; the new reply
 * is a version beside the old one, labelled with its model, so the two can be compared.
 */
export function RegenerateWith({
  conversationId,
  messageId,
  disabled,
  className,
}: {
  conversationId: string;
  messageId: string;
  disabled: boolean;
  className: string;
}) {
  return (
    <PopoverButton
      aria-label="Regenerate with…"
      title="Regenerate with…"
      disabled={disabled}
      className={className}
      align="end"
      contentClassName="w-80"
      contentLabel="Regenerate with another model"
      content={(close) => (
        <>
          <p className="mb-2 text-xs font-semibold">Regenerate with…</p>
          <LazyModelList
            onChoose={(model) => {
              close();
              void chat.regenerate(conversationId, messageId, model);
            }}
          />
        </>
      )}
    >
      <Shuffle className="size-3.5" />
    </PopoverButton>
  );
}
