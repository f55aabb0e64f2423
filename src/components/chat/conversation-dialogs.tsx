import { useId, useState } from 'react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';

// The palette's Rename and Delete of the open conversation (the sidebar's row does both in place),
// loaded when first asked for.

const close = (open: boolean) => !open && chat.setOverlay(null);

function RenameConversationDialog() {
  const id = useChatState((state) => state.activeId);
  const name = useChatState((state) => state.list.find((row) => row.id === state.activeId)?.name ?? '');
  const [draft, setDraft] = useState(name);
  const fieldId = useId();
  return (
    <Dialog open onOpenChange={close}>
      <DialogContent title="Rename conversation" className="w-[min(28rem,calc(100vw-2rem))]">
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (id) void chat.renameConversation(id, draft);
            chat.setOverlay(null);
          }}
        >
          <Label htmlFor={fieldId}>Name</Label>
          <Input id={fieldId} value={draft} onChange={(event) => setDraft(event.target.value)} autoFocus />
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit">Save</Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The required words and buttons (docs/behaviour.md#sidebar), as the row's popover has them. */
function DeleteConversationDialog() {
  const id = useChatState((state) => state.activeId);
  return (
    <Dialog open onOpenChange={close}>
      <DialogContent
        title="Delete conversation?"
        description="This action cannot be undone."
        className="w-[min(24rem,calc(100vw-2rem))]"
      >
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="danger"
            onClick={() => {
              if (id) void chat.deleteConversation(id);
              chat.setOverlay(null);
            }}
          >
            Delete
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** The one the palette asked for. */
export default function ConversationDialogs({
  overlay,
}: {
  overlay: 'rename-conversation' | 'delete-conversation';
}) {
  return overlay === 'rename-conversation' ? <RenameConversationDialog /> : <DeleteConversationDialog />;
}
