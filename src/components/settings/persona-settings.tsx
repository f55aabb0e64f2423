import { useId, useState } from 'react';
import { personasOf, promptPreview, type Prompt } from '../../domain/prompts.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { Button } from '../ui/button.tsx';
import { LibraryEditor } from './library-editor.tsx';
import { SavedList } from './saved-list.tsx';

/**
 * 'Personas': saved system prompts with a name and optionally a model, each with 'Edit' and
 * 'Delete' (with Undo), and 'New persona'. One is chosen in 'Conversation settings', in a new
 * conversation, from the palette, or for a project (docs/prompts.md#personas).
 */
export function PersonaSettings() {
  const personas = personasOf(useChatState((state) => state.prompts));
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const headingId = useId();
  const hintId = useId();

  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Personas
      </h3>
      <p id={hintId} className="text-xs text-faint-foreground">
        A system prompt with a name, and a model if you like: choose one in a new conversation or in
        &apos;Conversation settings&apos;.
      </p>
      <SavedList
        label="Saved personas"
        entries={personas}
        preview={(persona) =>
          persona.model
            ? `${persona.model.model} · ${promptPreview(persona.body)}`
            : promptPreview(persona.body)
        }
        onEdit={setEditing}
      />
      <div>
        <Button variant="outline" size="sm" aria-describedby={hintId} onClick={() => setEditing('new')}>
          New persona
        </Button>
      </div>
      {editing && (
        <LibraryEditor persona entry={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
