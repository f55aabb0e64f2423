/** The form of 'Conversation settings', loaded when the dialog first opens. */
import { useId, useState } from 'react';
import { systemPromptOf } from '../../domain/conversation-rules.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import type { ReasoningEffort } from '../../domain/provider-definitions/capabilities.ts';
import { artifactsOn, artifactsSwitch } from '../../domain/artifact-instruction.ts';
import { chat } from '../../state/chat.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { DialogClose } from '../ui/dialog.tsx';
import { Textarea } from '../ui/input.tsx';
import { PersonaField, usePersonaChoice } from './persona-field.tsx';

/** How efforts are named to the user (here and in a project's settings). */
export const effortNames: Record<ReasoningEffort, string> = {
  off: 'Off',
  minimal: 'Minimal',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  xhigh: 'Extra high',
  max: 'Max',
};

/** The model the conversation asks next: its efforts, and the conversation's choice if that model takes it. */
function useEffortChoice(conversationId: string) {
  const efforts = useChatState(
    (state) => modelCapabilities(state, targetConfig(state, conversationId)).efforts?.join(' ') ?? '',
  );
  const saved = useChatState((state) => state.loaded[conversationId]?.effort);
  const offered = efforts ? (efforts.split(' ') as ReasoningEffort[]) : [];
  return { offered, saved: saved && offered.includes(saved) ? saved : undefined };
}

export function SettingsForm({ conversationId, onDone }: { conversationId: string; onDone(): void }) {
  const saved = useChatState((state) => {
    const conversation = state.loaded[conversationId];
    return conversation ? systemPromptOf(conversation) : '';
  });
  const [prompt, setPrompt] = useState(saved);
  const pin = useChatState((state) => state.loaded[conversationId]?.pin);
  const persona = usePersonaChoice(prompt, setPrompt, pin);
  const fieldId = useId();
  const effortId = useId();
  const efforts = useEffortChoice(conversationId);
  const [effort, setEffort] = useState<ReasoningEffort | ''>(efforts.saved ?? '');
  const artifactsSaved = useChatState((state) => {
    const conversation = state.loaded[conversationId];
    return conversation ? artifactsOn(conversation) : false;
  });
  const [artifacts, setArtifacts] = useState(artifactsSaved);
  const artifactsId = useId();

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const effortChanged = efforts.offered.length > 0 && effort !== (efforts.saved ?? '');
        void Promise.all([
          // A persona chosen here brings its model too; text that only reads as one does not.
          persona.picked
            ? chat.choosePersona(conversationId, persona.picked)
            : chat.setSystemPrompt(conversationId, prompt),
          effortChanged && chat.setReasoningEffort(conversationId, effort || null),
          // A switch of the conversation's, kept and merged like its tool switches.
          artifacts !== artifactsSaved &&
            chat.setConversationTools(conversationId, artifactsSwitch, artifacts),
        ]).then(onDone);
      }}
    >
      <PersonaField {...persona} setsModel={persona.picked !== null} />
      <label htmlFor={fieldId} className="text-sm font-medium">
        System prompt
      </label>
      <Textarea
        id={fieldId}
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        className="h-40 text-sm"
      />
      <p className="text-xs text-muted-foreground">
        The assistant&apos;s instructions for this conversation. Leave it empty to send none.
      </p>
      {efforts.offered.length > 0 && (
        <>
          <label htmlFor={effortId} className="text-sm font-medium">
            Reasoning effort
          </label>
          <select
            id={effortId}
            value={effort}
            onChange={(event) => setEffort(event.target.value as ReasoningEffort | '')}
            className="h-9 rounded-md border border-gray-300 bg-white px-2 text-sm dark:border-gray-700 dark:bg-gray-900"
          >
            <option value="">Model default</option>
            {efforts.offered.map((value) => (
              <option key={value} value={value}>
                {effortNames[value]}
              </option>
            ))}
          </select>
          <p className="text-xs text-muted-foreground">
            How long the model thinks before it answers; only the values this model accepts.
          </p>
        </>
      )}
      <div className="flex items-start gap-2">
        <input
          id={artifactsId}
          type="checkbox"
          checked={artifacts}
          onChange={(event) => setArtifacts(event.target.checked)}
          className="mt-1 size-4 accent-indigo-600"
        />
        <div>
          <label htmlFor={artifactsId} className="text-sm font-medium">
            Artifacts
          </label>
          <p className="text-xs text-muted-foreground">
            Ask the model to write pages, diagrams, components and documents as named blocks you can open
            beside the chat (a short instruction after the system prompt).
          </p>
        </div>
      </div>
      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
