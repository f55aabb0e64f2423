import { attachmentIds, withFileIds, type Conversation } from '../domain/conversation.ts';
import {
  activePath,
  deleteSubtree,
  findMessage,
  forkPath,
  restoreSubtree,
  siblingsOf,
  subtreeOf,
  switchToMessage,
} from '../domain/message-tree.ts';
import { holdFiles, stageFiles } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { isStreamingIn } from './chat-store.ts';
import type { OpenConversations } from './open-conversations.ts';

/** Moving about the message tree and pruning it: versions, a message revealed, delete, branch. */
export interface TreeCommands {
  /** 'Previous version' (-1) and 'Next version' (+1): shows that version with its own path below it. */
  showVersion(conversationId: string, messageId: string, step: -1 | 1): Promise<void>;
  /**
   * Opens a conversation at a message (a search result): on the branch that holds it, when it is
   * off the path shown, then asks the list to scroll to it and mark it.
   */
  revealMessage(conversationId: string, messageId: string): Promise<void>;
  /** Deletes a message and everything below it on its branch, with Undo. */
  deleteMessage(conversationId: string, messageId: string): Promise<void>;
  /** A new conversation '{name} (branch)' holding the path up to a message, selected. */
  branchFrom(conversationId: string, messageId: string): Promise<void>;
}

export function createTreeCommands({
  ctx,
  open,
}: {
  ctx: ChatContext;
  open: OpenConversations;
}): TreeCommands {
  async function showVersion(conversationId: string, messageId: string, step: -1 | 1): Promise<void> {
    if (isStreamingIn(ctx.get(), conversationId)) return;
    await open.change(
      conversationId,
      (conversation) => {
        const { siblings, index } = siblingsOf(conversation, messageId);
        const target = siblings[index + step];
        return target ? switchToMessage(conversation, target.id) : conversation;
      },
      // Shown at once; the large record is written after the new path has been painted.
      { saveWhenIdle: true },
    );
  }

  async function revealMessage(conversationId: string, messageId: string): Promise<void> {
    if (ctx.get().activeId !== conversationId) open.setActive(conversationId);
    const conversation = await open.ensureLoaded(conversationId);
    if (!conversation || !findMessage(conversation, messageId)) return;
    if (!activePath(conversation).some((message) => message.id === messageId)) {
      if (isStreamingIn(ctx.get(), conversationId)) return;
      await open.change(conversationId, (current) => switchToMessage(current, messageId), {
        saveWhenIdle: true,
      });
    }
    ctx.view.setState({ revealed: { conversationId, messageId } });
  }

  async function deleteMessage(conversationId: string, messageId: string): Promise<void> {
    if (isStreamingIn(ctx.get(), conversationId)) return;
    const before = ctx.get().loaded[conversationId];
    if (!before || !findMessage(before, messageId)) return;
    const removed = subtreeOf(before, messageId);
    const shownLeaf = before.activeLeafId;
    // Their files go with them; Undo stores them again.
    const files = await holdFiles(attachmentIds({ messages: removed }), ctx.db());
    const deleted = await open.change(conversationId, (conversation) =>
      deleteSubtree(conversation, messageId),
    );
    if (!deleted) return;
    ctx.notify.success('Message deleted', {
      action: {
        label: 'Undo',
        onClick: () => {
          stageFiles(files, ctx.db());
          void open.change(conversationId, (conversation) =>
            // While a reply streams into the branch shown, the restored one waits as a version.
            restoreSubtree(
              conversation,
              removed,
              isStreamingIn(ctx.get(), conversationId) ? null : shownLeaf,
              ctx.newId,
            ),
          );
        },
      },
    });
  }

  async function branchFrom(conversationId: string, messageId: string): Promise<void> {
    const conversation = await open.ensureLoaded(conversationId);
    if (!conversation) return;
    const fork = forkPath(conversation, messageId, {
      id: ctx.newId(),
      name: `${conversation.name} (branch)`,
      now: ctx.now(),
      order: ctx.now().getTime(),
    });
    if (fork) await open.add(await withOwnFiles(fork));
  }

  /**
   * The conversation with its own copy of every file its messages refer to: new ids, the same
   * bytes staged under them. Files are stored per conversation, so a copy (a branch) must not
   * share them: deleting one conversation would take the other's files.
   */
  async function withOwnFiles(conversation: Conversation): Promise<Conversation> {
    const copies = new Map<string, string>();
    for (const id of attachmentIds(conversation)) {
      const copy = ctx.newId();
      copies.set(id, copy);
      const blob = await ctx.db().readAttachment(id);
      if (blob) ctx.db().stageAttachment(copy, blob);
    }
    if (copies.size === 0) return conversation;
    return {
      ...conversation,
      messages: conversation.messages.map((message) => withFileIds(message, copies)),
    };
  }

  return { showVersion, revealMessage, deleteMessage, branchFrom };
}
