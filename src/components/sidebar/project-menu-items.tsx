import { MessageSquarePlus, Settings2, Trash2 } from 'lucide-react';
import type { Project } from '../../domain/projects.ts';
import { chat } from '../../state/chat.ts';
import { PopoverClose } from '../ui/popover.tsx';
import { menuItemClass } from '../ui/menu-item.ts';

/** A project's menu in the sidebar: start a conversation in it, its settings, delete it (with Undo). */
export default function ProjectMenuItems({ project }: { project: Project }) {
  return (
    <>
      <PopoverClose asChild>
        <button
          type="button"
          className={menuItemClass}
          onClick={() => void chat.newConversationInProject(project.id)}
        >
          <MessageSquarePlus className="size-4 shrink-0" />
          <span className="truncate">New conversation in {project.name}</span>
        </button>
      </PopoverClose>
      <PopoverClose asChild>
        <button type="button" className={menuItemClass} onClick={() => chat.showProjectSettings(project.id)}>
          <Settings2 className="size-4" />
          Project settings
        </button>
      </PopoverClose>
      <PopoverClose asChild>
        <button type="button" className={menuItemClass} onClick={() => void chat.deleteProject(project.id)}>
          <Trash2 className="size-4" />
          Delete project
        </button>
      </PopoverClose>
    </>
  );
}
