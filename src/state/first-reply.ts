import type { Conversation } from '../domain/conversation.ts';
import { activePath } from '../domain/message-tree.ts';
import { projectFingerprint } from '../domain/project-rules.ts';
import { createAutoTitles } from './auto-title.ts';
import type { ChatContext } from './chat-context.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ProjectCommands } from './project-commands.ts';

/**
 * What follows a conversation's first reply: its name (auto-title.ts) and, in a project, the
 * project's measure: the input tokens the provider counted for that first request.
 */
export function createFirstReply(
  ctx: ChatContext,
  open: OpenConversations,
  projects: () => Promise<ProjectCommands>,
) {
  const name = createAutoTitles(ctx, open);

  async function measure(conversation: Conversation): Promise<void> {
    const project = ctx.get().projects.find((known) => known.id === conversation.projectId);
    const path = activePath(conversation).filter((message) => message.role !== 'system');
    const [question, reply] = path;
    if (!project || path.length !== 2 || question?.role !== 'user' || reply?.role !== 'assistant') return;
    const tokens = reply.stats?.usage?.inputTokens;
    // A reply that called tools, ran code or searched was several requests: their usage adds up.
    const oneRequest =
      !reply.web && reply.parts.every((part) => part.type === 'text' || part.type === 'reasoning');
    if (!tokens || !oneRequest || !reply.provider || !reply.model) return;
    // Counted with the instructions and files the request was built with: a project changed since
    // the reply started, or a conversation moved into it meanwhile, would be stamped with others.
    if (project.updatedAt > reply.createdAt || (conversation.projectAt ?? '') > reply.createdAt) return;
    await (
      await projects()
    ).changeProject(project.id, {
      measured: {
        tokens,
        provider: reply.provider,
        model: reply.model,
        of: projectFingerprint(project),
        at: ctx.now().toISOString(),
      },
    });
  }

  return async function afterReply(conversationId: string, target: ReplyTarget): Promise<void> {
    const conversation = ctx.get().loaded[conversationId];
    if (conversation?.projectId) await measure(conversation).catch((error: unknown) => console.warn(error));
    await name(conversationId, target);
  };
}
