import { useId, useState } from 'react';
import { personasOf, type Prompt } from '../../domain/prompts.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { NativeSelect } from '../ui/input.tsx';

/** The personas, and the one whose system prompt is `text` (the select shows it, however it got there). */
export function usePersonas(text: string): { personas: Prompt[]; current: Prompt | undefined } {
  const personas = personasOf(useChatState((state) => state.prompts));
  return { personas, current: personas.find((persona) => persona.body === text) };
}

export interface PersonaChoice {
  personas: Prompt[];
  current: Prompt | undefined;
  /** The persona chosen in the select since the form opened, if it is still the one shown. */
  picked: string | null;
  /** A persona's id, or '' for none. */
  choose(id: string): void;
}

/** 'Persona' in 'Conversation settings': choosing one puts its system prompt in the form's field. */
export function usePersonaChoice(text: string, setText: (text: string) => void): PersonaChoice {
  const { personas, current } = usePersonas(text);
  const [picked, setPicked] = useState<string | null>(null);
  return {
    personas,
    current,
    picked: picked !== null && picked === current?.id ? picked : null,
    choose(id) {
      setText(personas.find((persona) => persona.id === id)?.body ?? '');
      setPicked(id || null);
    },
  };
}

/**
 * The select of personas ('None' empties the system prompt); nothing while there are none.
 * `inline`: the label beside a select of its own width (above the message box).
 */
export function PersonaField({
  personas,
  current,
  choose,
  inline = false,
}: Omit<PersonaChoice, 'picked'> & { inline?: boolean }) {
  const id = useId();
  const hintId = useId();
  const model = current?.model?.model;
  const note = model ? `It also sets the model to ${model}.` : '';
  if (personas.length === 0) return null;
  return (
    <div className={inline ? 'flex flex-wrap items-center gap-x-2 gap-y-1' : 'flex flex-col gap-1.5'}>
      <label htmlFor={id} className="text-sm font-medium">
        Persona
      </label>
      <NativeSelect
        id={id}
        className={inline ? 'w-56 max-w-full' : undefined}
        value={current?.id ?? ''}
        aria-describedby={note ? hintId : undefined}
        onChange={(event) => choose(event.target.value)}
      >
        <option value="">None</option>
        {personas.map((persona) => (
          <option key={persona.id} value={persona.id}>
            {persona.title}
          </option>
        ))}
      </NativeSelect>
      {note && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {note}
        </p>
      )}
    </div>
  );
}
