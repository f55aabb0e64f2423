import { Shuffle } from 'lucide-react';
import { useState } from 'react';
import { chat } from '../../state/chat.ts';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';
import { ModelList } from './model-list.tsx';

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
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label="Regenerate with…"
        title="Regenerate with…"
        disabled={disabled}
        className={className}
      >
        <Shuffle className="size-3.5" />
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80" aria-label="Regenerate with another model">
        <p className="mb-2 text-xs font-semibold">Regenerate with…</p>
        <ModelList
          onChoose={(model) => {
            setOpen(false);
            void chat.regenerate(conversationId, messageId, model);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}
