import { useEffect, useId, useState } from 'react';
import { cleanProjectName, projectLimits, type Project, type ProjectChange } from '../../domain/projects.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { Input, Label, Textarea } from '../ui/input.tsx';
import { DeleteProject } from './delete-project.tsx';
import { ProjectColourField } from './project-colour-field.tsx';
import { ProjectFiles } from './project-files.tsx';
import { ProjectModelFields } from './project-model-fields.tsx';
import { ProjectPersonaField } from './project-persona-field.tsx';
import { useProjectModel } from './use-project-model.ts';

interface Drafts {
  name: string;
  emoji: string;
  instructions: string;
}

/** What the typed fields change; an empty name is left for the rule to refuse (domain/projects.ts). */
function changesOf(project: Project, drafts: Drafts): ProjectChange {
  const change: ProjectChange = {};
  if (cleanProjectName(drafts.name) !== project.name) change.name = drafts.name;
  const emoji = drafts.emoji.trim();
  if (emoji !== (project.emoji ?? '')) change.emoji = emoji || undefined;
  if (drafts.instructions !== project.instructions) change.instructions = drafts.instructions;
  return change;
}

/** 'Project settings' for the project the view state names; loaded when first opened (chat-screen.tsx). */
export default function ProjectSettingsDialog() {
  const id = useViewState((state) => state.projectSettings);
  const project = useChatState((state) => state.projects.find((known) => known.id === id));
  // Deleted meanwhile (in another tab): nothing left to set.
  const gone = id !== null && !project;
  useEffect(() => {
    if (gone) chat.showProjectSettings(null);
  }, [gone]);
  return project ? <ProjectSettings key={project.id} project={project} /> : null;
}

function ProjectSettings({ project }: { project: Project }) {
  const [drafts, setDrafts] = useState<Drafts>({
    name: project.name,
    emoji: project.emoji ?? '',
    instructions: project.instructions,
  });
  const edit = (field: keyof Drafts) => (event: { target: { value: string } }) =>
    setDrafts((current) => ({ ...current, [field]: event.target.value }));
  const save = () => {
    const change = changesOf(project, drafts);
    if (Object.keys(change).length > 0) void chat.changeProject(project.id, change);
    // A name refused (empty) shows the kept one again.
    if (!cleanProjectName(drafts.name)) setDrafts((current) => ({ ...current, name: project.name }));
  };
  // Every way out (Done, Escape, the close button) keeps what was typed, as leaving a field does.
  const close = () => {
    save();
    chat.showProjectSettings(null);
  };
  const target = useProjectModel(project.pin);
  const ids = { name: useId(), emoji: useId(), instructions: useId(), help: useId() };

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent title="Project settings" description="What every conversation in this project shares.">
        <div className="-mx-5 flex min-h-0 flex-col gap-4 overflow-y-auto px-5 py-1">
          <div className="flex gap-3">
            <div className="flex min-w-0 flex-1 flex-col gap-1.5">
              <Label htmlFor={ids.name}>Name</Label>
              <Input
                id={ids.name}
                value={drafts.name}
                maxLength={projectLimits.nameLength}
                onChange={edit('name')}
                onBlur={save}
              />
            </div>
            <div className="flex w-20 flex-col gap-1.5">
              <Label htmlFor={ids.emoji}>Emoji</Label>
              <Input
                id={ids.emoji}
                value={drafts.emoji}
                maxLength={projectLimits.emojiLength}
                placeholder="📁"
                onChange={edit('emoji')}
                onBlur={save}
                className="text-center"
              />
            </div>
          </div>
          <ProjectColourField project={project} />
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.instructions}>Instructions</Label>
            <Textarea
              id={ids.instructions}
              aria-describedby={ids.help}
              value={drafts.instructions}
              maxLength={projectLimits.instructionsLength}
              onChange={edit('instructions')}
              onBlur={save}
              className="h-32"
            />
            <p id={ids.help} className="text-xs text-muted-foreground">
              Sent before the system prompt of every conversation in this project.
            </p>
          </div>
          <ProjectModelFields project={project} target={target} />
          <ProjectPersonaField project={project} />
          <ProjectFiles project={project} target={target} />
        </div>
        <div className="flex justify-between gap-2 border-t border-gray-200 pt-4 dark:border-gray-800">
          <DeleteProject project={project} />
          <Button onClick={close}>Done</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
