import { useId, useState } from 'react';
import type { ModelPin } from '../../domain/conversation.ts';
import { personasOf, type Prompt } from '../../domain/prompts.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { NativeSelect } from '../ui/input.tsx';

/**
 * The personas, and the one whose system prompt is `text` (the select shows it, however it got
 * there): of several with that text, the one whose model is `pin`, else one without a model.
 */
export function usePersonas(
  text: string,
  pin: ModelPin | undefined,
): { personas: Prompt[]; current: Prompt | undefined } {
  const personas = personasOf(useChatState((state) => state.prompts));
  const matches = personas.filter((persona) => persona.body === text);
  const current =
    matches.find(({ model }) => model && model.provider === pin?.provider && model.model === pin.model) ??
    matches.find(({ model }) => !model) ??
    matches[0];
  return { personas, current };
}

export interface PersonaChoice {
  personas: Prompt[];
  current: Prompt | undefined;
  /** The persona chosen in the select since the form opened, while the field still holds its text. */
  picked: string | null;
  /** A persona's id, or '' for none. */
  choose(id: string): void;
}

/** 'Persona' in 'Conversation settings': choosing one puts its system prompt in the form's field. */
export function usePersonaChoice(
  text: string,
  setText: (text: string) => void,
  pin: ModelPin | undefined,
): PersonaChoice {
  const { personas, current: byText } = usePersonas(text, pin);
  const [pickedId, setPickedId] = useState<string | null>(null);
  const picked = personas.find((persona) => persona.id === pickedId && persona.body === text);
  return {
    personas,
    current: picked ?? byText,
    picked: picked?.id ?? null,
    choose(id) {
      setText(personas.find((persona) => persona.id === id)?.body ?? '');
      setPickedId(id || null);
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
  setsModel,
}: Omit<PersonaChoice, 'picked'> & {
  inline?: boolean;
  /** Whether choosing it sets its model: the note under the select says which. */
  setsModel: boolean;
}) {
  const id = useId();
  const hintId = useId();
  const model = setsModel ? current?.model?.model : undefined;
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
        <PersonaOptions personas={personas} />
      </NativeSelect>
      {note && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {note}
        </p>
      )}
    </div>
  );
}

/** A persona select's options: 'None', then each persona by name (its id the value). */
export function PersonaOptions({ personas }: { personas: readonly Prompt[] }) {
  return (
    <>
      <option value="">None</option>
      {personas.map((persona) => (
        <option key={persona.id} value={persona.id}>
          {persona.title}
        </option>
      ))}
    </>
  );
}
