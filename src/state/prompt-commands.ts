import {
  changePrompt as changeRule,
  createPrompt as createRule,
  promptLimits,
  promptsFile,
  promptsFileName,
  readPrompts,
  readPromptsFile,
  type Prompt,
  type PromptChange,
  personaById,
  withPersona,
} from '../domain/prompts.ts';
import type { ModelPin } from '../domain/conversation.ts';
import { downloadText } from '../lib/download.ts';
import type { ChatContext } from './chat-context.ts';
import { blankConversation } from './conversation-commands.ts';
import type { OpenConversations } from './open-conversations.ts';

/** The prompt library: prompts saved in this browser, inserted from the `/` menu (docs/prompts.md). */
export interface PromptCommands {
  /**
   * A new prompt, or with `persona` a persona (its name, system prompt and model); its id, or null
   * when it was refused (the toast says why) or not saved.
   */
  createPrompt(title: string, body: string, persona?: { model?: ModelPin }): string | null;
  /** Changes its title or text; false when refused (the toast says why) or not saved. */
  changePrompt(id: string, change: PromptChange): boolean;
  /** Deletes it, with Undo. */
  deletePrompt(id: string): void;
  /** Sets a conversation up as a persona says: its system prompt, and its model if it has one. */
  choosePersona(conversationId: string, personaId: string): Promise<void>;
  /** A new conversation set up by a persona ('New conversation as {name}'). */
  newConversationAs(personaId: string): Promise<void>;
  /** Downloads every prompt as prompts.json. */
  exportPrompts(): void;
  /**
   * Adds the prompts of an exported file: a prompt already here (its id) is replaced when the
   * file's copy is newer. Says how many in a toast; resolves that number.
   */
  importPrompts(text: string): number;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The commands, and what the controller tells them. */
export interface PromptLibrary extends PromptCommands {
  /** Takes the prompts as storage holds them, unchecked (at start, and after another tab's change). */
  receive(stored: unknown): void;
}

export function createPromptCommands({
  ctx,
  open,
}: {
  ctx: ChatContext;
  open: OpenConversations;
}): PromptLibrary {
  const { store, settings } = ctx;

  async function choosePersona(conversationId: string, personaId: string): Promise<void> {
    const persona = personaById(ctx.get().prompts, personaId);
    if (persona)
      await open.change(conversationId, (conversation) => withPersona(conversation, persona, ctx.now()));
  }

  async function newConversationAs(personaId: string): Promise<void> {
    const persona = personaById(ctx.get().prompts, personaId);
    if (!persona) return;
    const now = ctx.now();
    await open.add(withPersona(blankConversation(ctx, now, persona.model?.provider), persona, now));
  }

  /** The prompts as storage holds them now (another tab may have changed them); this tab's without storage. */
  function stored(): Prompt[] {
    return settings.storage ? readPrompts(settings.loadPrompts()) : ctx.get().prompts;
  }

  /** Changes the prompts as storage holds them, and shows the result; false when not saved. */
  function save(change: (prompts: Prompt[]) => Prompt[]): boolean {
    const prompts = change(stored());
    store.setState({ prompts });
    const written = settings.savePrompts(prompts);
    if (!written.ok) ctx.notify.error('The prompts could not be saved', written.message);
    return written.ok;
  }

  function createPrompt(title: string, body: string, persona?: { model?: ModelPin }): string | null {
    if (stored().length >= promptLimits.prompts) {
      ctx.notify.error(`There can be at most ${count(promptLimits.prompts, 'prompt')}.`);
      return null;
    }
    const made = createRule({ id: ctx.newId(), title, body, now: ctx.now(), ...(persona && { persona }) });
    if (!made.ok) {
      ctx.notify.error(made.problem);
      return null;
    }
    return save((prompts) => [...prompts, made.prompt]) ? made.prompt.id : null;
  }

  function changePrompt(id: string, change: PromptChange): boolean {
    const known = stored().find((prompt) => prompt.id === id);
    if (!known) {
      ctx.notify.error('This prompt was deleted meanwhile (in another tab?).');
      return false;
    }
    const changed = changeRule(known, change, ctx.now());
    if (!changed.ok) {
      ctx.notify.error(changed.problem);
      return false;
    }
    return save((prompts) => prompts.map((prompt) => (prompt.id === id ? changed.prompt : prompt)));
  }

  function deletePrompt(id: string): void {
    const deleted = stored().find((prompt) => prompt.id === id);
    if (!deleted) return;
    if (!save((prompts) => prompts.filter((prompt) => prompt.id !== id))) return;
    ctx.notify.success(deleted.persona ? 'Persona deleted' : 'Prompt deleted', {
      action: {
        label: 'Undo',
        onClick: () =>
          void save((prompts) =>
            prompts.some((prompt) => prompt.id === id) ? prompts : [...prompts, deleted],
          ),
      },
    });
  }

  function exportPrompts(): void {
    const { prompts } = ctx.get();
    if (prompts.length === 0) {
      ctx.notify.error('There are no prompts to export yet.');
      return;
    }
    try {
      downloadText(
        promptsFileName,
        JSON.stringify(promptsFile(prompts, ctx.now()), null, 2),
        'application/json',
      );
    } catch (error) {
      ctx.notify.error(
        'The prompts could not be downloaded',
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  function importPrompts(text: string): number {
    const file = readPromptsFile(text);
    if (!file.ok) {
      ctx.notify.error(`No prompts were imported: ${file.problem}.`);
      return 0;
    }
    let added = 0;
    let updated = 0;
    let current = 0;
    let leftOut = 0;
    const saved = save((prompts) => {
      const byId = new Map(prompts.map((prompt) => [prompt.id, prompt]));
      for (const prompt of file.prompts) {
        const known = byId.get(prompt.id);
        if (known && known.updatedAt >= prompt.updatedAt) current += 1;
        else if (known) {
          byId.set(prompt.id, prompt);
          updated += 1;
        } else if (byId.size >= promptLimits.prompts) leftOut += 1;
        else {
          byId.set(prompt.id, prompt);
          added += 1;
        }
      }
      return [...byId.values()];
    });
    if (!saved) return 0;
    const imported = added + updated;
    const details = [
      added > 0 &&
        updated > 0 &&
        `${added.toLocaleString('en')} new, ${updated.toLocaleString('en')} updated`,
      current > 0 && `${count(current, 'prompt was', 'prompts were')} already here, as new or newer`,
      file.unread > 0 && `${count(file.unread, 'entry', 'entries')} of the file could not be read`,
      leftOut > 0 &&
        `${count(leftOut, 'prompt was', 'prompts were')} left out: at most ${count(promptLimits.prompts, 'prompt')} are kept`,
    ].filter(Boolean);
    ctx.notify.success(imported === 0 ? 'No prompts imported' : `${count(imported, 'prompt')} imported`, {
      ...(details.length > 0 && { description: `${details.join('; ')}.` }),
    });
    return imported;
  }

  return {
    createPrompt,
    changePrompt,
    deletePrompt,
    choosePersona,
    newConversationAs,
    exportPrompts,
    importPrompts,
    receive: (value) => store.setState({ prompts: readPrompts(value) }),
  };
}
