import { useId, useRef, useState } from 'react';
import { messagePrompts, orderPrompts, promptPreview, type Prompt } from '../../domain/prompts.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { LibraryEditor } from './library-editor.tsx';
import { PersonaSettings } from './persona-settings.tsx';
import { SavedList } from './saved-list.tsx';

/**
 * 'Prompts': the saved prompts, each with 'Edit' and 'Delete' (with Undo), 'New prompt', and
 * the prompts as a file ('Export prompts', 'Import prompts'). They are inserted into the message
 * box by typing '/' (docs/prompts.md).
 */
export function PromptSettings() {
  const prompts = useChatState((state) => state.prompts);
  const saved = orderPrompts(messagePrompts(prompts));
  // The prompt being edited; 'new' for a new one.
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const hintId = useId();

  return (
    <>
      <section
        aria-labelledby={headingId}
        className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
      >
        <h3 id={headingId} className="text-sm font-semibold">
          Prompts
        </h3>
        <p id={hintId} className="text-xs text-faint-foreground">
          Text you reuse, kept in this browser: type / at the start of the message box to insert one. The file
          of 'Export prompts' holds the personas too.
        </p>
        <SavedList
          label="Saved prompts"
          entries={saved}
          preview={(prompt) => promptPreview(prompt.body)}
          onEdit={setEditing}
        />
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-describedby={hintId} onClick={() => setEditing('new')}>
            New prompt
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={prompts.length === 0}
            onClick={() => void chat.exportPrompts()}
          >
            Export prompts
          </Button>
          <Button variant="outline" size="sm" onClick={() => picker.current?.click()}>
            Import prompts
          </Button>
          <input
            ref={picker}
            type="file"
            accept=".json,application/json"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              // The same file may be picked again.
              event.target.value = '';
              if (file) void file.text().then((text) => chat.importPrompts(text));
            }}
          />
        </div>
        {editing && (
          <LibraryEditor
            persona={false}
            entry={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
          />
        )}
      </section>
      <PersonaSettings />
    </>
  );
}
