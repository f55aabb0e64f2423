import { Check, Ellipsis, Pencil, Pin, Trash2, X } from 'lucide-react';
import { memo, useState, type KeyboardEvent } from 'react';
import { timeAgo } from '../../lib/relative-time.ts';
import { cn } from '../../lib/cn.ts';
import { chat, type ConversationListItem } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';
import { draggedConversation } from './conversation-drag.ts';

const { deleteConversation, renameConversation, selectConversation } = chat;

// The menu's items load when a row's menu first opens.
const ConversationMenuItems = lazyPart(
  () => import('./conversation-menu-items.tsx'),
  <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading…</p>,
);

interface ConversationRowProps {
  item: ConversationListItem;
  active: boolean;
  now: number;
  /** Listed under its project: indented. */
  nested?: boolean;
}

/** Rows have one fixed height (px), so the list can render only those in view. */
export const conversationRowHeight = 56;
const rowClass = 'h-14 py-0.5';

const iconButton =
  'rounded p-1 text-gray-500 hover:bg-gray-200 hover:text-gray-900 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700 dark:hover:text-gray-100';

export const ConversationRow = memo(function ConversationRow({
  item,
  active,
  now,
  nested = false,
}: ConversationRowProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.name);

  const save = () => {
    setEditing(false);
    void renameConversation(item.id, draft);
  };
  const cancel = () => {
    setEditing(false);
    setDraft(item.name);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') save();
    if (event.key === 'Escape') cancel();
  };

  if (editing) {
    return (
      <li className={cn(rowClass, 'flex items-center gap-1 rounded-md bg-gray-100 px-1.5 dark:bg-gray-800')}>
        <input
          autoFocus
          value={draft}
          aria-label="Conversation name"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className="h-7 min-w-0 flex-1 rounded border border-gray-300 bg-white px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-600 dark:bg-gray-900"
        />
        <button type="button" aria-label="Save name" className={iconButton} onClick={save}>
          <Check className="size-4" />
        </button>
        <button type="button" aria-label="Cancel rename" className={iconButton} onClick={cancel}>
          <X className="size-4" />
        </button>
      </li>
    );
  }

  return (
    <li
      data-testid="conversation-row"
      data-active={active}
      // Dropped on a project's row, it moves there (the row's menu has 'Move to project…' too).
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData(draggedConversation, item.id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      className={cn(
        rowClass,
        'group relative flex items-center rounded-md',
        nested && 'ml-4',
        // Opaque in every state, for the action strip below to take (bg-inherit).
        active ? 'bg-sidebar-active' : 'bg-sidebar hover:bg-sidebar-hover',
      )}
    >
      <button
        type="button"
        aria-current={active ? 'true' : undefined}
        onClick={() => selectConversation(item.id)}
        className="flex h-full min-w-0 flex-1 flex-col items-start justify-center rounded-md px-3 text-left outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <span className="flex w-full items-center gap-1 text-sm font-medium">
          {item.place === 'pinned' && <Pin className="size-3 shrink-0" aria-label="Pinned" />}
          <span className="truncate">{item.name}</span>
        </span>
        <span className="text-xs text-muted-foreground">{timeAgo(item.updatedAt, now)}</span>
      </button>
      {/* The row's full height in the row's colour: no part of the title shows through or above it. */}
      <div className="absolute inset-y-0 right-1 flex items-center gap-0.5 rounded bg-inherit opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 has-[[data-state=open]]:opacity-100">
        <button
          type="button"
          aria-label="Rename conversation"
          className={iconButton}
          onClick={() => {
            setDraft(item.name);
            setEditing(true);
          }}
        >
          <Pencil className="size-3.5" />
        </button>
        <PopoverButton
          aria-label="Delete conversation"
          className={iconButton}
          align="end"
          content={(close) => (
            <>
              <p className="font-semibold">Delete conversation?</p>
              <p className="mt-1 text-muted-foreground">This action cannot be undone.</p>
              <div className="mt-3 flex justify-end gap-2">
                <Button variant="outline" size="sm" onClick={close}>
                  Cancel
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => {
                    void deleteConversation(item.id);
                    close();
                  }}
                >
                  Delete
                </Button>
              </div>
            </>
          )}
        >
          <Trash2 className="size-3.5" />
        </PopoverButton>
        <PopoverButton
          aria-label="More actions"
          className={iconButton}
          // Its items are loaded as the pointer or the focus comes near, so they are there on click.
          onPointerEnter={ConversationMenuItems.preload}
          onFocus={ConversationMenuItems.preload}
          align="end"
          contentClassName="w-52 p-1"
          content={<ConversationMenuItems item={item} />}
        >
          <Ellipsis className="size-3.5" />
        </PopoverButton>
      </div>
    </li>
  );
});
