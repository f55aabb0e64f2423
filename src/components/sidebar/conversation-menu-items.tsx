import { Archive, ArchiveRestore, Download, FolderInput, Pin, PinOff } from 'lucide-react';
import { chat, type ConversationListItem } from '../../state/chat.ts';
import { PopoverClose } from '../ui/popover.tsx';
import { menuItemClass } from '../ui/menu-item.ts';

const { downloadMarkdown, placeConversation } = chat;

/** A conversation row's 'More actions': pin, archive, move to a project, download. */
export default function ConversationMenuItems({ item }: { item: ConversationListItem }) {
  return (
    <>
      <PopoverClose asChild>
        <button
          type="button"
          className={menuItemClass}
          onClick={() => void placeConversation(item.id, item.place === 'pinned' ? null : 'pinned')}
        >
          {item.place === 'pinned' ? <PinOff className="size-4" /> : <Pin className="size-4" />}
          {item.place === 'pinned' ? 'Unpin conversation' : 'Pin conversation'}
        </button>
      </PopoverClose>
      <PopoverClose asChild>
        <button
          type="button"
          className={menuItemClass}
          onClick={() => void placeConversation(item.id, item.place === 'archived' ? null : 'archived')}
        >
          {item.place === 'archived' ? <ArchiveRestore className="size-4" /> : <Archive className="size-4" />}
          {item.place === 'archived' ? 'Unarchive conversation' : 'Archive conversation'}
        </button>
      </PopoverClose>
      <PopoverClose asChild>
        <button type="button" className={menuItemClass} onClick={() => chat.showMoveToProject(item.id)}>
          <FolderInput className="size-4" />
          Move to project…
        </button>
      </PopoverClose>
      <PopoverClose asChild>
        <button type="button" className={menuItemClass} onClick={() => void downloadMarkdown(item.id)}>
          <Download className="size-4" />
          Download as Markdown
        </button>
      </PopoverClose>
    </>
  );
}
