import { Slot } from 'radix-ui';
import { useEffect, useId, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { whenIdle } from '../../lib/when-idle.ts';
import { lazyPart } from './lazy-part.tsx';
import type { PopoverLayerProps } from './popover-layer.tsx';

// Radix's popover and its positioning (floating-ui) stay out of the first load: they load in idle
// time after start, or as the pointer or the focus comes to a trigger, so opening does not wait.
const PopoverLayer = lazyPart<PopoverLayerProps>(() => import('./popover-layer.tsx'));

export interface PopoverButtonProps extends Omit<ComponentProps<'button'>, 'content' | 'onClick'> {
  /** Its only child (say a `Button`) is the trigger, as with Radix's `asChild`. */
  asChild?: boolean;
  open?: boolean;
  onOpenChange?(open: boolean): void;
  /** What the popover holds; a function is given `close` for the popover's own buttons. */
  content: ReactNode | ((close: () => void) => ReactNode);
  align?: PopoverLayerProps['align'];
  contentClassName?: string;
  /** The popover's accessible name. */
  contentLabel?: string;
}

/**
 * A button that opens a popover, as Radix's Popover with its trigger does (the same ARIA, keys,
 * focus and placement). The popover is mounted only while open, so a long list of these (a reply's
 * 'Regenerate with…', a sidebar row's menus) re-renders only buttons.
 */
export function PopoverButton({
  asChild = false,
  open: controlledOpen,
  onOpenChange,
  content,
  align,
  contentClassName,
  contentLabel,
  onPointerEnter,
  onFocus,
  ...props
}: PopoverButtonProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => whenIdle(PopoverLayer.preload), []);
  const Trigger = asChild ? Slot.Root : 'button';
  return (
    <>
      <Trigger
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        data-state={open ? 'open' : 'closed'}
        {...props}
        ref={trigger}
        onPointerEnter={(event) => {
          PopoverLayer.preload();
          onPointerEnter?.(event);
        }}
        onFocus={(event) => {
          PopoverLayer.preload();
          onFocus?.(event);
        }}
        onClick={() => setOpen(!open)}
      />
      {open && (
        <PopoverLayer
          trigger={trigger}
          onOpenChange={setOpen}
          id={id}
          align={align}
          className={contentClassName}
          aria-label={contentLabel}
        >
          {typeof content === 'function' ? content(() => setOpen(false)) : content}
        </PopoverLayer>
      )}
    </>
  );
}
