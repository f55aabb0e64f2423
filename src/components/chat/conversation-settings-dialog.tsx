import { SlidersHorizontal } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '../ui/dialog.tsx';

const SettingsForm = lazy(() =>
  import('./conversation-settings-form.tsx').then((module) => ({ default: module.SettingsForm })),
);

/** 'Conversation settings': the conversation's own system prompt and, for a reasoning model, its effort. */
export function ConversationSettingsDialog({ conversationId }: { conversationId: string }) {
  // An overlay, so the palette opens it too.
  const open = useViewState((state) => state.overlay === 'conversation-settings');
  const setOpen = (next: boolean) => chat.setOverlay(next ? 'conversation-settings' : null);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Conversation settings" title="Conversation settings">
          <SlidersHorizontal />
        </Button>
      </DialogTrigger>
      <DialogContent title="Conversation settings">
        {open && (
          <Suspense fallback={null}>
            <SettingsForm conversationId={conversationId} onDone={() => setOpen(false)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
