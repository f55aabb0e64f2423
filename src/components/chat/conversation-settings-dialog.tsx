import { SlidersHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import { systemPromptOf } from '../../domain/conversation-rules.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../ui/dialog.tsx';
import { Textarea } from '../ui/input.tsx';

function SystemPromptForm({ conversationId, onDone }: { conversationId: string; onDone(): void }) {
  const saved = useChatState((state) => {
    const conversation = state.loaded[conversationId];
    return conversation ? systemPromptOf(conversation) : '';
  });
  const [prompt, setPrompt] = useState(saved);
  const fieldId = useId();

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void chat.setSystemPrompt(conversationId, prompt).then(onDone);
      }}
    >
      <label htmlFor={fieldId} className="text-sm font-medium">
        System prompt
      </label>
      <Textarea
        id={fieldId}
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        className="h-40 text-sm"
      />
      <p className="text-xs text-gray-600 dark:text-gray-400">
        The assistant&apos;s instructions for this conversation. Leave it empty to send none.
      </p>
      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}

/** 'Conversation settings': the conversation's own system prompt. */
export function ConversationSettingsDialog({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Conversation settings" title="Conversation settings">
          <SlidersHorizontal />
        </Button>
      </DialogTrigger>
      <DialogContent title="Conversation settings">
        {open && <SystemPromptForm conversationId={conversationId} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}
