import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Project } from '../../domain/projects.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../ui/dialog.tsx';

function consequence(count: number): string {
  const what =
    count === 0
      ? 'It has no conversations.'
      : count === 1
        ? 'Its 1 conversation is deleted with it.'
        : `Its ${count} conversations are deleted with it.`;
  return `${what} You can undo this right after.`;
}

/** 'Delete project', asked first: it takes the project's conversations with it (Undo brings both back). */
export function DeleteProject({ project }: { project: Project }) {
  const [asking, setAsking] = useState(false);
  const count = useChatState((state) => state.list.filter((row) => row.projectId === project.id).length);
  return (
    <>
      <Button variant="danger" onClick={() => setAsking(true)}>
        <Trash2 aria-hidden /> Delete project
      </Button>
      <Dialog open={asking} onOpenChange={setAsking}>
        <DialogContent
          title="Delete project?"
          description={consequence(count)}
          className="w-[min(24rem,calc(100vw-2rem))]"
        >
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="danger"
              onClick={() => {
                // Closed without saving the settings' drafts: a save landing after the delete would bring it back.
                setAsking(false);
                chat.showProjectSettings(null);
                void chat.deleteProject(project.id);
              }}
            >
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
