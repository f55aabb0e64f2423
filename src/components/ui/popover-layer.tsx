import { useRef, type ComponentProps, type RefObject } from 'react';
import { Popover, PopoverAnchor, PopoverContent } from './popover.tsx';

export interface PopoverLayerProps extends Pick<
  ComponentProps<typeof PopoverContent>,
  'id' | 'align' | 'className' | 'aria-label' | 'children'
> {
  /** The button it opened from, which it is placed against. */
  trigger: RefObject<HTMLButtonElement | null>;
  onOpenChange(open: boolean): void;
}

/**
 * The open popover of a `PopoverButton`, loaded on first use. Its trigger is not Radix's, so this
 * does what Radix does for its own trigger: a press on the trigger is left to the trigger's toggle,
 * and closing gives the trigger the focus back unless the user has moved on elsewhere.
 */
export default function PopoverLayer({ trigger, onOpenChange, ...content }: PopoverLayerProps) {
  const interactedOutside = useRef(false);
  return (
    <Popover open onOpenChange={onOpenChange}>
      <PopoverAnchor virtualRef={trigger as RefObject<HTMLButtonElement>} />
      <PopoverContent
        {...content}
        onInteractOutside={(event) => {
          interactedOutside.current = true;
          // Dismissing here as well as toggling would close it and open it again at once.
          if (trigger.current?.contains(event.target as Node)) event.preventDefault();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!interactedOutside.current) trigger.current?.focus();
        }}
      />
    </Popover>
  );
}
