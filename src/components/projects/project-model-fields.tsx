import { ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import type { ModelPin } from '../../domain/conversation.ts';
import type { Project, ProjectChange } from '../../domain/projects.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import type { ReasoningEffort } from '../../domain/provider-definitions/capabilities.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { LazyModelList } from '../chat/lazy-model-list.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';
import { effortsOf, type ProjectModel } from './use-project-model.ts';
import { effortNames } from '../chat/conversation-settings-form.tsx';

/** A new model, and the project's effort dropped when that model does not take it. */
function pinChange(project: Project, pin: ModelPin | undefined): ProjectChange {
  const state = chat.store.getState();
  const config = pin ? targetConfig(state, null, pin) : state.config;
  const efforts = modelCapabilities(state, config).efforts ?? [];
  const keepsEffort = project.effort === undefined || efforts.includes(project.effort);
  return keepsEffort ? { pin } : { pin, effort: undefined };
}

/** 'Model for new conversations' and, for a reasoning model, 'Reasoning effort': what new conversations start with. */
export function ProjectModelFields({ project, target }: { project: Project; target: ProjectModel }) {
  const [open, setOpen] = useState(false);
  const saved = useChatState((state) => `${connectionLabel(state.config)} · ${modelOf(state.config)}`);
  const efforts = effortsOf(target);
  const effort = project.effort && efforts.includes(project.effort) ? project.effort : '';
  const effortId = useId();
  const choose = (pin: ModelPin | undefined) => {
    void chat.changeProject(project.id, pinChange(project, pin));
    setOpen(false);
  };
  const shown = project.pin ? `${target.model} (${target.connection})` : `The saved configuration (${saved})`;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-gray-700 dark:text-gray-300">
          Model for new conversations
        </span>
        <Popover open={open} onOpenChange={setOpen}>
          <PopoverTrigger
            aria-label={`Model for new conversations: ${shown}`}
            className="inline-flex h-9 w-full items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-3 text-left text-sm hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-gray-800"
          >
            <span className="truncate">{shown}</span>
            <ChevronDown className="size-4 shrink-0 text-gray-500" aria-hidden />
          </PopoverTrigger>
          <PopoverContent align="start" className="w-80" aria-label="Choose a model for new conversations">
            {project.pin && (
              <button
                type="button"
                onClick={() => choose(undefined)}
                className="mb-2 w-full rounded border border-gray-200 px-2 py-1 text-left text-xs hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
              >
                Use the saved configuration ({saved})
              </button>
            )}
            <LazyModelList current={project.pin} onChoose={choose} />
          </PopoverContent>
        </Popover>
        <p className="text-xs text-muted-foreground">
          Conversations already in the project keep their own model.
        </p>
      </div>
      {efforts.length > 0 && (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={effortId}>Reasoning effort</Label>
          <NativeSelect
            id={effortId}
            value={effort}
            onChange={(event) =>
              void chat.changeProject(project.id, {
                effort: (event.target.value as ReasoningEffort | '') || undefined,
              })
            }
          >
            <option value="">Model default</option>
            {efforts.map((value) => (
              <option key={value} value={value}>
                {effortNames[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
    </div>
  );
}
