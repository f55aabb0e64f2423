import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { moveToProject as moveRule, pickActiveId } from '../domain/conversation-rules.ts';
import { projectLimits, type Project, type ProjectChange } from '../domain/projects.ts';
import { changeProject as changeRule, createProject } from '../domain/project-rules.ts';
import { personaById, withPersona } from '../domain/prompts.ts';
import { holdFiles, prepareFile, stageFiles } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { commitConversation, forgetConversation, isStreamingIn } from './chat-store.ts';
import { blankConversation } from './conversation-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ReplyRunner } from './reply-runner.ts';

/** Projects: conversations grouped with shared instructions, files, model and settings (docs/projects.md). */
export interface ProjectCommands {
  /** A new project ('Project n' unless named); resolves its id, or null when it could not be saved. */
  createProject(name?: string): Promise<string | null>;
  /** Renames it, sets its instructions, model, settings, emoji or colour, folds it. */
  changeProject(id: string, change: ProjectChange): Promise<void>;
  /** Adds files to the project (each prepared as an attachment is); a file refused says why. */
  addProjectFiles(id: string, files: readonly File[]): Promise<void>;
  removeProjectFile(id: string, fileId: string): Promise<void>;
  /** Deletes the project and its conversations, with Undo (which brings both back). */
  deleteProject(id: string): Promise<void>;
  /** 'Move to project…': into a project, or (null) out of any. */
  moveToProject(conversationId: string, projectId: string | null): Promise<void>;
  /** 'New conversation in {project}': started with the project's model and settings. */
  newConversationInProject(projectId: string): Promise<void>;
}

export function createProjectCommands({
  ctx,
  sync,
  open,
  replies,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  open: OpenConversations;
  replies: ReplyRunner;
}): ProjectCommands {
  const { store } = ctx;
  const projectOf = (id: string) => ctx.get().projects.find((project) => project.id === id);

  function commitProject(project: Project): void {
    store.setState((state) => {
      const index = state.projects.findIndex((known) => known.id === project.id);
      return {
        projects: index === -1 ? [...state.projects, project] : state.projects.with(index, project),
      };
    });
  }

  /** Writes `apply` over the stored copy (a change another tab made meanwhile stays unless it is older). */
  async function save(
    id: string,
    apply: (stored: Project | undefined) => Project | undefined,
  ): Promise<boolean> {
    const { result, value, changed } = await ctx.db().updateProject(id, apply);
    if (!changed) return false;
    const ok = sync.reportWrite(result);
    // What was stored, unless a later change was made here meanwhile (it is being saved too).
    const known = projectOf(id);
    if (value && (!known || value.updatedAt >= known.updatedAt)) commitProject(value);
    if (ok) ctx.tabSync.post({ type: 'projects-changed' });
    return ok;
  }

  async function createProjectCommand(name?: string): Promise<string | null> {
    if (ctx.get().projects.length >= projectLimits.projects) {
      ctx.notify.error(`There can be at most ${projectLimits.projects} projects.`);
      return null;
    }
    const project = createProject({
      id: ctx.newId(),
      existingCount: ctx.get().projects.length,
      now: ctx.now(),
      ...(name !== undefined && { name }),
    });
    commitProject(project);
    return (await save(project.id, () => project)) ? project.id : null;
  }

  async function changeProject(id: string, change: ProjectChange): Promise<void> {
    const known = projectOf(id);
    if (!known) return;
    const now = ctx.now();
    commitProject(changeRule(known, change, now));
    await save(id, (stored) => stored && changeRule(stored, change, now));
  }

  async function addProjectFiles(id: string, files: readonly File[]): Promise<void> {
    const known = projectOf(id);
    if (!known) return;
    const room = projectLimits.files - known.files.length;
    if (files.length > room)
      ctx.notify.error(
        `A project holds at most ${projectLimits.files} files: ${Math.max(room, 0)} more can be added.`,
      );
    const prepared = [];
    for (const file of files.slice(0, Math.max(room, 0))) {
      try {
        prepared.push(await prepareFile(file, ctx.newId()));
      } catch (error) {
        ctx.notify.error(error instanceof Error ? error.message : String(error));
      }
    }
    if (prepared.length === 0) return;
    for (const { part, blob } of prepared) ctx.db().stageAttachment(part.id, blob);
    const parts = prepared.map(({ part }) => part);
    const now = ctx.now();
    const add = (project: Project) => changeRule(project, { files: [...project.files, ...parts] }, now);
    commitProject(add(projectOf(id) ?? known));
    await save(id, (stored) => stored && add(stored));
  }

  async function removeProjectFile(id: string, fileId: string): Promise<void> {
    const now = ctx.now();
    const drop = (project: Project) =>
      changeRule(project, { files: project.files.filter((file) => file.id !== fileId) }, now);
    const known = projectOf(id);
    if (known) commitProject(drop(known));
    await save(id, (stored) => stored && drop(stored));
  }

  async function deleteProject(id: string): Promise<void> {
    const project = projectOf(id);
    if (!project) return;
    const ids = ctx.get().list.flatMap((row) => (row.projectId === id ? [row.id] : []));
    // Held in memory while Undo is offered: the conversations whole, and every file's bytes.
    const kept: Conversation[] = [];
    for (const conversationId of ids) {
      const conversation = ctx.get().loaded[conversationId] ?? (await ctx.db().get(conversationId));
      if (conversation) kept.push(conversation);
    }
    const fileIds = [...project.files.map((file) => file.id), ...kept.flatMap((c) => [...attachmentIds(c)])];
    const files = await holdFiles(fileIds, ctx.db());
    if (ids.some((conversationId) => isStreamingIn(ctx.get(), conversationId))) replies.stop();
    store.setState((state) => ({ projects: state.projects.filter((known) => known.id !== id) }));
    for (const conversationId of ids) forgetConversation(store, conversationId);
    const { activeId } = ctx.get();
    if (activeId !== null && ids.includes(activeId)) open.setActive(pickActiveId(ctx.get().list, null));
    await Promise.all(ids.map((conversationId) => sync.remove(conversationId)));
    if (sync.reportWrite(await ctx.db().deleteProject(id))) ctx.tabSync.post({ type: 'projects-changed' });
    const count = kept.length;
    ctx.notify.success('Project deleted', {
      untilDismissed: true,
      description: `${project.name}${count > 0 ? ` and its ${count} conversation${count === 1 ? '' : 's'}` : ''}`,
      action: { label: 'Undo', onClick: () => void restore(project, kept, files) },
    });
  }

  /**
   * Undo of a delete: the project as it was, and its conversations under new ids (a deleted id
   * stays deleted, in this tab and the others: conversation-sync.ts).
   */
  async function restore(
    project: Project,
    conversations: readonly Conversation[],
    files: ReadonlyMap<string, Blob>,
  ) {
    stageFiles(files, ctx.db());
    commitProject(project);
    await save(project.id, () => project);
    for (const conversation of conversations) {
      const copy = { ...conversation, id: ctx.newId() };
      commitConversation(store, copy);
      await sync.save(copy.id, { create: true });
    }
  }

  async function moveToProject(conversationId: string, projectId: string | null): Promise<void> {
    if (projectId !== null && !projectOf(projectId)) return;
    await open.change(conversationId, (conversation) =>
      (conversation.projectId ?? null) === projectId
        ? conversation
        : moveRule(conversation, projectId, ctx.now()),
    );
  }

  async function newConversationInProject(projectId: string): Promise<void> {
    const project = projectOf(projectId);
    if (!project) return;
    const persona = personaById(ctx.get().prompts, project.personaId);
    const now = ctx.now();
    const made = blankConversation(ctx, now, (project.pin ?? persona?.model)?.provider);
    const at = now.toISOString();
    let conversation: Conversation = { ...made, projectId, projectAt: at };
    if (persona) conversation = withPersona(conversation, persona, now);
    // The project's own model comes before its persona's.
    if (project.pin) Object.assign(conversation, { pin: { ...project.pin }, pinnedAt: at });
    if (project.effort) Object.assign(conversation, { effort: project.effort, effortAt: at });
    if (project.toolSwitches)
      Object.assign(conversation, { toolSwitches: { ...project.toolSwitches }, toolSwitchesAt: at });
    await open.add(conversation);
  }

  return {
    createProject: createProjectCommand,
    changeProject,
    addProjectFiles,
    removeProjectFile,
    deleteProject,
    moveToProject,
    newConversationInProject,
  };
}
