import { Ellipsis } from 'lucide-react';
import { useState } from 'react';
import { runAction } from '../../hooks/use-actions.ts';
import type { ActionId } from '../../state/actions.ts';
import { lazyPart } from '../ui/lazy-part.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';

const HeaderMenuItems = lazyPart(
  () => import('./header-menu-items.tsx'),
  <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading…</p>,
);

/** 'More': the theme, three ways (the toggle beside it only flips light and dark), and the palette. */
export function HeaderMenu() {
  const [open, setOpen] = useState(false);
  const run = (id: ActionId) => {
    setOpen(false);
    runAction(id);
  };
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label="More"
        title="More"
        className="inline-flex size-9 items-center justify-center rounded-md hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:hover:bg-gray-800"
      >
        <Ellipsis className="size-4" />
      </PopoverTrigger>
      <PopoverContent align="end" className="w-60 p-2" aria-label="More">
        <HeaderMenuItems run={run} />
      </PopoverContent>
    </Popover>
  );
}
