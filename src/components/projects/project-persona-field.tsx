import { useId } from 'react';
import { personaById, personasOf } from '../../domain/prompts.ts';
import type { Project } from '../../domain/projects.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { PersonaOptions } from '../chat/persona-field.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';

/** 'Persona for new conversations': shown while any persona is saved (Settings → Personas). */
export function ProjectPersonaField({ project }: { project: Project }) {
  const personas = personasOf(useChatState((state) => state.prompts));
  const id = useId();
  const hintId = useId();
  if (personas.length === 0) return null;
  // A persona deleted since reads as none.
  const current = personaById(personas, project.personaId);
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>Persona for new conversations</Label>
      <NativeSelect
        id={id}
        aria-describedby={hintId}
        value={current?.id ?? ''}
        onChange={(event) =>
          void chat.changeProject(project.id, { personaId: event.target.value || undefined })
        }
      >
        <PersonaOptions personas={personas} />
      </NativeSelect>
      <p id={hintId} className="text-xs text-muted-foreground">
        Its system prompt starts each new conversation, after the instructions; its model is used when the
        project sets none.
      </p>
    </div>
  );
}
