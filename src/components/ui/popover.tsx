import { Popover as PopoverPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverClose = PopoverPrimitive.Close;
export const PopoverAnchor = PopoverPrimitive.Anchor;

export function PopoverContent({ className, ...props }: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        data-slot="popover-content"
        sideOffset={6}
        collisionPadding={8}
        className={cn(
          'z-50 w-64 rounded-md border border-gray-200 bg-white p-3 text-sm shadow-lg outline-none dark:border-gray-700 dark:bg-gray-900',
          className,
        )}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
