import { createImportRunner, type FoundExport, type ImportWorker } from './import-runner.ts';
import type { ReadExport } from './import-reading.ts';
import { downloadText } from '../lib/download.ts';
import { connectionIdOf, type Config, type Connections } from '../domain/config.ts';
import { connectionUrl, providerCatalog, takesKey } from '../domain/provider-catalog.ts';
import type { Conversation } from '../domain/conversation.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import { buildExport, conversationFileIds, exportFileName, projectFileIds } from '../domain/export-format.ts';
import { laterProject, orderProjects, type Project } from '../domain/projects.ts';
import { base64Of } from '../lib/base64.ts';
import { holdFiles, stageFiles } from './attachment-files.ts';
import type { ChatContext } from './chat-context.ts';
import { listItemOf } from './chat-store.ts';
import type { ConfigService } from './config-commands.ts';
import type { ConversationSync } from './conversation-sync.ts';
import type { ReplyRunner } from './reply-runner.ts';

interface Snapshot {
  config: Config;
  connections: Connections;
  conversations: Conversation[];
  projects: Project[];
  activeId: string | null;
  /** The bytes of the conversations' and projects' files, staged to be written with them. */
  files: ReadonlyMap<string, Blob>;
}

/**
 * An imported configuration that carries no key keeps the current key (docs/decisions.md#key-left-out-of-exports), or better the
 * key remembered for the same connection. Never for an address the file names itself (a base URL,
 * an endpoint) other than the current one: a file could otherwise send the user's key to its host.
 */
function withKnownKey(imported: Config, current: Config, connections: Connections): Config {
  // The browser's own model takes no key: none goes with it.
  if (!takesKey(imported.provider)) return { ...imported, apiKey: '' };
  const address = connectionUrl(imported);
  const remembered = connections[connectionIdOf(imported)];
  if (remembered && connectionUrl(remembered) === address) return { ...imported, apiKey: remembered.apiKey };
  const publicHost = !imported.baseUrl?.trim() && providerCatalog[imported.provider].api.host !== undefined;
  const safe = publicHost || connectionUrl(current) === address;
  return { ...imported, apiKey: safe ? current.apiKey : '' };
}

/** What the user is told of an import of our own format, and of a backup restored (the same replace). */
const replaceMessages = {
  import: {
    invalid: 'Error importing data: Invalid format',
    failed: 'Failed to import data',
    done: 'Data imported successfully',
    undone: 'Import undone',
    undoFailed: 'Could not undo the import',
    undoStays: false,
  },
  restore: {
    invalid: 'The backup could not be read',
    failed: 'Failed to restore the backup',
    done: 'Backup restored',
    undone: 'Restore undone',
    undoFailed: 'Could not undo the restore',
    // Asked for and confirmed, yet easy to regret once the old conversations are seen gone.
    undoStays: true,
  },
};

/** What a file chosen or pasted in the Import tab came to. */
export type ImportOutcome =
  /** Another app's export, waiting for 'Add' (see import-runner.ts). */
  | { found: FoundExport }
  /** Not readable at all (a ZIP too large, the importer stopped): said in the dialog. */
  | { problem: string }
  /** Our own export: true when it replaced everything (a bad one gets its toast). */
  | { replaced: boolean };

export interface ExportImport {
  /** The export text, exactly as downloaded. Null (with a toast) on failure. */
  exportText(includeApiKey: boolean, includeAttachments?: boolean): Promise<string | null>;
  downloadExport(text: string): void;
  /**
   * 'Import Data', or a file chosen: our own export replaces everything (docs/behaviour.md#import-format),
   * another app's is named and counted first.
   */
  importFile(file: Blob): Promise<ImportOutcome>;
  /** 'Restore': a backup's export (decompressed) replaces everything, as an import does. */
  restoreBackup(backup: Blob): Promise<boolean>;
  /** Adds the conversations of the export just inspected; the configuration stays. */
  addImported(): Promise<boolean>;
  cancelImport(): void;
}

/**
 * Export and import of everything (the Import / Export dialog, docs/behaviour.md#import-export-dialog).
 * Every file is read in the import worker (`startWorker`; tests run its work on their own thread).
 */
export function createDataCommands({
  ctx,
  sync,
  configs,
  replies,
  startWorker,
}: {
  ctx: ChatContext;
  sync: ConversationSync;
  configs: ConfigService;
  replies: ReplyRunner;
  startWorker?: (() => ImportWorker) | undefined;
}): ExportImport {
  /** Every conversation, with the in-memory copy where it is newer than storage, in list order. */
  async function allConversations(): Promise<Conversation[]> {
    const { items: stored } = await ctx.db().getAll();
    const { loaded, list } = ctx.get();
    const byId = new Map(stored.map((conversation) => [conversation.id, conversation]));
    for (const conversation of Object.values(loaded)) byId.set(conversation.id, conversation);
    const order = new Map(list.map((row, index) => [row.id, index]));
    return [...byId.values()].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  }

  /**
   * Every project, stored or only in memory (a write that failed), the later copy of each, in the
   * sidebar's order.
   */
  async function allProjects(): Promise<Project[]> {
    const { items: stored } = await ctx.db().listProjects();
    const byId = new Map(stored.map((project) => [project.id, project]));
    for (const project of ctx.get().projects) {
      const known = byId.get(project.id);
      byId.set(project.id, known ? laterProject(known, project) : project);
    }
    return orderProjects([...byId.values()]);
  }

  /** The ids of every file the conversations and the projects hold. */
  const fileIdsOf = (conversations: readonly Conversation[], projects: readonly Project[]) => [
    ...conversationFileIds(conversations),
    ...projectFileIds(projects),
  ];

  /** The files' bytes as base64, by id: an export carries them so it stands alone. */
  async function fileData(ids: Iterable<string>): Promise<Map<string, string>> {
    const data = new Map<string, string>();
    for (const id of ids) {
      const blob = await ctx.db().readAttachment(id);
      if (blob) data.set(id, await base64Of(blob));
    }
    return data;
  }

  async function exportText(includeApiKey: boolean, includeAttachments = true): Promise<string | null> {
    try {
      const { config, activeId, keyLock } = ctx.get();
      const conversations = await allConversations();
      const projects = await allProjects();
      return buildExport({
        config,
        conversations,
        projects,
        activeConversationId: activeId,
        // Locked, this tab does not know the key: the file carries none (an empty one would wipe it).
        includeApiKey: includeApiKey && keyLock !== 'locked',
        now: ctx.now(),
        ...(includeAttachments && { files: await fileData(fileIdsOf(conversations, projects)) }),
      });
    } catch (error) {
      console.error('Failed to export data', error);
      ctx.notify.error('Failed to export data');
      return null;
    }
  }

  function downloadExport(text: string): void {
    try {
      downloadText(exportFileName(ctx.now()), text, 'application/json');
    } catch (error) {
      console.error('Failed to export data', error);
      ctx.notify.error('Failed to export data');
    }
  }

  async function replaceEverything({
    config,
    connections,
    conversations,
    projects,
    activeId,
    files,
  }: Snapshot): Promise<boolean> {
    // A reply streaming into a conversation that is about to be replaced stops here.
    replies.stop();
    stageFiles(files, ctx.db());
    const result = await ctx.db().replaceAll(conversations, projects);
    if (!sync.reportWrite(result)) return false;
    sync.forgetBacklog();
    configs.writeConfig(config);
    configs.applyConfig(config);
    configs.replaceConnections(connections);
    const loaded = Object.fromEntries(conversations.map((conversation) => [conversation.id, conversation]));
    ctx.store.setState({ list: conversations.map(listItemOf), loaded, activeId, projects });
    ctx.settings.saveActiveId(activeId);
    // The other tabs read the conversations and the projects again.
    ctx.tabSync.post({ type: 'conversations-replaced' });
    return true;
  }

  /**
   * Our own export, read and checked whole by the import worker (on any problem nothing changes),
   * replaces everything. The previous state is kept in memory and the toast offers Undo. Returns
   * true when imported. A backup restored (`kind` 'restore') is the same import, told as what it is.
   */
  async function replaceWith(read: ReadExport, kind: keyof typeof replaceMessages): Promise<boolean> {
    const messages = replaceMessages[kind];
    if (!read.ok) {
      ctx.notify.error(messages.invalid, read.problem);
      return false;
    }
    const { data } = read;
    if (data.configHasKey && ctx.get().keyLock === 'locked') {
      // Stored while locked, the file's key could not join the protected ones: unlock first.
      ctx.notify.error(
        'Unlock your API keys first',
        'This file carries a key, which is kept with the others.',
      );
      ctx.view.setState({ overlay: 'unlock-keys' });
      return false;
    }
    try {
      const current = await allConversations();
      const currentProjects = await allProjects();
      const before: Snapshot = {
        config: ctx.get().config,
        connections: ctx.get().connections,
        conversations: current,
        projects: currentProjects,
        activeId: ctx.get().activeId,
        // Held for Undo: the import deletes them from storage.
        files: await holdFiles(fileIdsOf(current, currentProjects), ctx.db()),
      };
      const config = !data.config
        ? before.config
        : data.configHasKey
          ? data.config
          : withKnownKey(data.config, before.config, before.connections);
      const connections = { ...before.connections, [connectionIdOf(config)]: config };
      const conversations = data.conversations ?? before.conversations;
      // Projects go with the conversations: an earlier release's file (none) leaves none.
      const projects = data.conversations ? (data.projects ?? []) : before.projects;
      const activeId = pickActiveId(conversations, data.activeConversationId ?? null);
      const { files, unreadableFiles: unreadable } = data.conversations
        ? read
        : { files: before.files, unreadableFiles: 0 };
      if (!(await replaceEverything({ config, connections, conversations, projects, activeId, files }))) {
        ctx.notify.error(messages.failed);
        return false;
      }
      ctx.notify.success(messages.done, {
        ...(unreadable > 0 && {
          description: `${unreadable} attached ${unreadable === 1 ? 'file was' : 'files were'} not readable and left out.`,
        }),
        action: { label: 'Undo', onClick: () => void undoImport(before, messages) },
        untilDismissed: messages.undoStays,
      });
      return true;
    } catch (error) {
      console.error(messages.failed, error);
      ctx.notify.error(messages.failed);
      return false;
    }
  }

  async function undoImport(before: Snapshot, messages: (typeof replaceMessages)['import']): Promise<void> {
    if (await replaceEverything(before)) ctx.notify.success(messages.undone);
    else ctx.notify.error(messages.undoFailed);
  }

  const importer = createImportRunner(ctx, sync, startWorker);

  async function importFile(file: Blob): Promise<ImportOutcome> {
    const inspection = await importer.inspect(file);
    if ('export' in inspection) return { replaced: await replaceWith(inspection.export, 'import') };
    return inspection;
  }

  async function restoreBackup(backup: Blob): Promise<boolean> {
    return replaceWith(await importer.readExport(backup), 'restore');
  }

  return {
    exportText,
    downloadExport,
    importFile,
    restoreBackup,
    addImported: importer.add,
    cancelImport: importer.cancel,
  };
}
