import { Keyboard, Search } from 'lucide-react';
import { actions } from '../../hooks/use-actions.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { isMac } from '../../hooks/use-shortcuts.ts';
import { shortcutLabel, type ActionId } from '../../state/actions.ts';
import { chat } from '../../state/chat.ts';
import type { Theme } from '../../state/chat.ts';
import { menuItemClass } from '../ui/menu-item.ts';

const themes: readonly { value: Theme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System' },
];

/** The 'More' menu's contents, loaded when it first opens: the theme three ways, the palette, the shortcuts. */
export default function HeaderMenuItems({ run }: { run: (id: ActionId) => void }) {
  const theme = useChatState((state) => state.theme);
  const keys = (id: ActionId) => {
    const shortcut = actions.find((action) => action.id === id)?.shortcut;
    // Not on a touch screen, where no key is at hand.
    return (
      shortcut && (
        <span className="ml-auto text-xs text-muted-foreground pointer-coarse:hidden">
          {shortcutLabel(shortcut, isMac)}
        </span>
      )
    );
  };
  return (
    <>
      <fieldset className="mb-2">
        <legend className="px-2 pb-1 text-xs font-medium text-muted-foreground">Theme</legend>
        {themes.map(({ value, label }) => (
          <label key={value} className={`${menuItemClass} cursor-pointer`}>
            <input
              type="radio"
              name="theme"
              value={value}
              checked={theme === value}
              onChange={() => chat.setTheme(value)}
              className="accent-indigo-600"
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="border-t border-gray-200 pt-2 dark:border-gray-700">
        <button type="button" className={menuItemClass} onClick={() => run('palette')}>
          <Search className="size-4" aria-hidden /> Command palette {keys('palette')}
        </button>
        <button type="button" className={menuItemClass} onClick={() => run('shortcuts')}>
          <Keyboard className="size-4" aria-hidden /> Keyboard shortcuts {keys('shortcuts')}
        </button>
      </div>
    </>
  );
}
