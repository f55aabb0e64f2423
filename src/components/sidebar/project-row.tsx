import { ChevronDown, ChevronRight, Ellipsis, Folder } from 'lucide-react';
import { memo, useState, type DragEvent } from 'react';
import type { Project } from '../../domain/projects.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import { lazyPart } from '../ui/lazy-part.tsx';
import { PopoverButton } from '../ui/popover-button.tsx';
import { draggedConversation } from './conversation-drag.ts';
import { projectDotClass } from '../projects/project-colors.ts';

// The menu's items load when it first opens.
const ProjectMenuItems = lazyPart(
  () => import('./project-menu-items.tsx'),
  <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading…</p>,
);

/** A project's line has one fixed height (px), like a conversation's, for the virtualized list. */
export const projectRowHeight = 40;

const iconButton =
  'rounded p-1 text-gray-500 hover:bg-gray-200 hover:text-gray-900 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700 dark:hover:text-gray-100';

/** Its emoji, its colour's dot, or a folder. */
export function ProjectMark({ project }: { project: Pick<Project, 'emoji' | 'color'> }) {
  if (project.emoji) return <span aria-hidden>{project.emoji}</span>;
  if (project.color)
    return (
      <span aria-hidden className={cn('size-2.5 shrink-0 rounded-full', projectDotClass[project.color])} />
    );
  return <Folder aria-hidden className="size-4 shrink-0 text-gray-500" />;
}

/**
 * A project in the sidebar: folds and unfolds its conversations, takes a conversation dropped on
 * it, and has its menu ('New conversation in {name}', settings, delete).
 */
export const ProjectRow = memo(function ProjectRow({ project, count }: { project: Project; count: number }) {
  const [over, setOver] = useState(false);
  const open = !project.folded;
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(draggedConversation)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    const id = event.dataTransfer.getData(draggedConversation);
    if (!id) return;
    event.preventDefault();
    void chat.moveToProject(id, project.id);
  };
  return (
    <li
      data-testid="project-row"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn(
        'group relative flex h-10 items-center rounded-md',
        // Opaque in every state, for the action strip below to take (bg-inherit).
        over ? 'bg-sidebar-active ring-2 ring-indigo-500' : 'bg-sidebar hover:bg-sidebar-hover',
      )}
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => void chat.changeProject(project.id, { folded: open ? true : undefined })}
        className="flex h-full min-w-0 flex-1 items-center gap-1.5 rounded-md px-2 text-left text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        {open ? (
          <ChevronDown aria-hidden className="size-3.5 shrink-0 text-gray-500" />
        ) : (
          <ChevronRight aria-hidden className="size-3.5 shrink-0 text-gray-500" />
        )}
        <ProjectMark project={project} />
        <span className="truncate">{project.name}</span>
        <span
          className="ml-auto pr-8 text-xs font-normal text-muted-foreground"
          aria-label={`${count} conversations`}
        >
          {count}
        </span>
      </button>
      {/* The row's full height in the row's colour: no part of the name shows through or above it. */}
      <div className="absolute inset-y-0 right-1 flex items-center rounded bg-inherit opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 has-[[data-state=open]]:opacity-100">
        <PopoverButton
          aria-label={`Actions for ${project.name}`}
          className={iconButton}
          onPointerEnter={ProjectMenuItems.preload}
          onFocus={ProjectMenuItems.preload}
          align="end"
          contentClassName="w-60 p-1"
          content={<ProjectMenuItems project={project} />}
        >
          <Ellipsis className="size-3.5" />
        </PopoverButton>
      </div>
    </li>
  );
});
