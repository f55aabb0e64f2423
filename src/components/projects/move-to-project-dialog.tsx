import { Folder } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { orderProjects, projectLimits, type Project } from '../../domain/projects.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { cn } from '../../lib/cn.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input } from '../ui/input.tsx';
import { projectDotClass } from './project-colors.ts';

/** Where to: a project's id, none (null), or a project made here (a symbol: any string may be an id). */
const newProject = Symbol('new project');
type Choice = string | null | typeof newProject;

const close = () => chat.showMoveToProject(null);

/** 'Move to project' for the conversation the view state names; loaded when first asked for (chat-screen.tsx). */
export default function MoveToProjectDialog() {
  const conversationId = useViewState((state) => state.moving);
  const row = useChatState((state) => state.list.find((known) => known.id === conversationId));
  // Deleted meanwhile: nothing to move.
  const gone = conversationId !== null && !row;
  useEffect(() => {
    if (gone) close();
  }, [gone]);
  return row ? <MoveForm key={row.id} conversationId={row.id} current={row.projectId ?? null} /> : null;
}

/** What a project is shown by before its name, as in the sidebar: its emoji, its colour's dot, or a folder. */
function ProjectMark({ project }: { project: Project }) {
  if (project.emoji) return <span aria-hidden>{project.emoji}</span>;
  if (project.color)
    return (
      <span aria-hidden className={cn('size-2.5 shrink-0 rounded-full', projectDotClass[project.color])} />
    );
  return <Folder aria-hidden className="size-4 shrink-0 text-gray-500" />;
}

const optionClass =
  'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-gray-100 has-checked:bg-indigo-50 dark:hover:bg-gray-800 dark:has-checked:bg-indigo-950';

function Option({
  name,
  value,
  choice,
  onChoose,
  children,
}: {
  name: string;
  value: Choice;
  choice: Choice;
  onChoose(value: Choice): void;
  children: ReactNode;
}) {
  const checked = choice === value;
  return (
    <label className={optionClass}>
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={() => onChoose(value)}
        // Only the checked one in the tab order, as a browser does: the dialog's first focus lands on it.
        tabIndex={checked ? 0 : -1}
        className="accent-indigo-600"
      />
      {children}
    </label>
  );
}

function MoveForm({ conversationId, current }: { conversationId: string; current: string | null }) {
  const projects = useChatState((state) => state.projects);
  const ordered = useMemo(() => orderProjects(projects), [projects]);
  const [choice, setChoice] = useState<Choice>(current);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const groupName = useId();
  const labelId = useId();
  const full = projects.length >= projectLimits.projects;
  const option = (key: string, value: Choice, children: ReactNode) => (
    <Option key={key} name={groupName} value={value} choice={choice} onChoose={setChoice}>
      {children}
    </Option>
  );

  const move = async () => {
    let target = choice;
    if (target === newProject) {
      setBusy(true);
      // Unnamed, it is 'Project n'; null: it could not be saved (the command said why).
      target = await chat.createProject(name.trim() || undefined);
      setBusy(false);
      if (target === null) return;
    }
    if (target !== current) await chat.moveToProject(conversationId, target);
    close();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent title="Move to project" className="w-[min(26rem,calc(100vw-2rem))]">
        <form
          className="flex min-h-0 flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void move();
          }}
        >
          <span id={labelId} className="sr-only">
            Project
          </span>
          <div
            role="radiogroup"
            aria-labelledby={labelId}
            className="-mx-2 flex max-h-72 flex-col overflow-y-auto px-2"
          >
            {option('none', null, 'No project')}
            {ordered.map((project) =>
              option(
                `project-${project.id}`,
                project.id,
                <>
                  <ProjectMark project={project} />
                  <span className="truncate">{project.name}</span>
                </>,
              ),
            )}
            {!full && option('new', newProject, 'New project')}
          </div>
          {choice === newProject && (
            <Input
              aria-label="New project name"
              placeholder={`Project ${projects.length + 1}`}
              value={name}
              maxLength={projectLimits.nameLength}
              onChange={(event) => setName(event.target.value)}
            />
          )}
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={busy}>
              Move
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
