import { Shuffle } from 'lucide-react';
import { useRef, useState, type RefObject } from 'react';
import { chat } from '../../state/chat.ts';
import { Popover, PopoverAnchor, PopoverContent } from '../ui/popover.tsx';
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
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // A plain button until opened: every reply has one, and the list re-renders them all when a
  // reply starts or ends, so the popover is mounted only while it is open.
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Regenerate with…"
        title="Regenerate with…"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={disabled}
        className={className}
        onClick={() => setOpen(true)}
      >
        <Shuffle className="size-3.5" />
      </button>
      {open && (
        <Popover open onOpenChange={setOpen}>
          <PopoverAnchor virtualRef={button as RefObject<HTMLButtonElement>} />
          <PopoverContent
            align="end"
            className="w-80"
            aria-label="Regenerate with another model"
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              button.current?.focus();
            }}
          >
            <p className="mb-2 text-xs font-semibold">Regenerate with…</p>
            <LazyModelList
              onChoose={(model) => {
                setOpen(false);
                void chat.regenerate(conversationId, messageId, model);
              }}
            />
          </PopoverContent>
        </Popover>
      )}
    </>
  );
}
