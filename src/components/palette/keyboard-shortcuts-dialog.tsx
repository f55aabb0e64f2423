import { actions } from '../../hooks/use-actions.ts';
import { isMac } from '../../hooks/use-shortcuts.ts';
import { shortcutLabel } from '../../state/actions.ts';
import { chat } from '../../state/chat.ts';
import { Dialog, DialogContent } from '../ui/dialog.tsx';

/** The composer's own keys, listed with the shortcuts. */
const composerKeys = [
  ['Send the message', 'Enter'],
  ['New line in the message', 'Shift+Enter'],
] as const;

/** 'Keyboard shortcuts' (Ctrl+/): every shortcut, as the registry defines it. */
export default function KeyboardShortcutsDialog() {
  const rows = [
    ...actions.flatMap((action) =>
      action.shortcut ? [[action.title, shortcutLabel(action.shortcut, isMac)] as const] : [],
    ),
    ...composerKeys,
  ];
  return (
    <Dialog open onOpenChange={(open) => !open && chat.setOverlay(null)}>
      <DialogContent
        title="Keyboard shortcuts"
        description="Shortcuts without Ctrl do not act while you type in a field."
        className="w-[min(28rem,calc(100vw-2rem))]"
      >
        <table className="w-full text-sm">
          <tbody>
            {rows.map(([title, keys]) => (
              <tr key={title} className="border-t border-gray-100 first:border-t-0 dark:border-gray-800">
                <th scope="row" className="py-1.5 pr-4 text-left font-normal">
                  {title}
                </th>
                <td className="py-1.5 text-right">
                  <kbd className="rounded border border-gray-300 bg-gray-50 px-1.5 py-0.5 font-mono text-xs dark:border-gray-700 dark:bg-gray-800">
                    {keys}
                  </kbd>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </DialogContent>
    </Dialog>
  );
}
