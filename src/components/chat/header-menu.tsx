import { Ellipsis } from 'lucide-react';
import { runAction } from '../../hooks/use-actions.ts';
import { lazyPart } from '../ui/lazy-part.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';

const HeaderMenuItems = lazyPart(
  () => import('./header-menu-items.tsx'),
  <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading…</p>,
);

/** 'More': the theme, three ways (the toggle beside it only flips light and dark), and the palette. */
export function HeaderMenu() {
  return (
    <PopoverButton
      aria-label="More"
      title="More"
      className="inline-flex size-9 items-center justify-center rounded-md hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:hover:bg-gray-800"
      align="end"
      contentClassName="w-60 p-2"
      contentLabel="More"
      content={(close) => (
        <HeaderMenuItems
          run={(id) => {
            close();
            runAction(id);
          }}
        />
      )}
    >
      <Ellipsis className="size-4" />
    </PopoverButton>
  );
}
