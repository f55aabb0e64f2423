import { connectionIdOf, defaultConfig, type Config, type Connections } from '../domain/config.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import { activePath, findMessage } from '../domain/message-tree.ts';
import type { ConversationStore } from '../storage/conversation-store.ts';
import type { BackupInfo, backupPolicy } from '../storage/backup-db.ts';
import type { BackupWorkerReply } from './backup.worker.ts';
import type { LocalSettings } from '../storage/local-settings.ts';
import { askToPersist, storageFigures, type StorageFigures } from '../storage/persistence.ts';
import type { TabSyncMessage } from '../storage/tab-sync.ts';
import type { ChatContext, ChatDependencies } from './chat-context.ts';
import type { Backups } from './backups.ts';
import type { ExportImport } from './data-commands.ts';
import { createChatStore, listItemOf, selectActiveConversation, type ChatStore } from './chat-store.ts';
import { createConfigCommands, type SettingsCommands } from './config-commands.ts';
import { createKeyLock } from './key-lock.ts';
import { createConversationCommands, type ConversationCommands } from './conversation-commands.ts';
import { createConversationSync } from './conversation-sync.ts';
import { createClosingRescue } from './closing-rescue.ts';
import { createMessageCommands, type MessageCommands } from './message-commands.ts';
import { createOpenConversations } from './open-conversations.ts';
import type { LocalServerCommands } from './local-servers.ts';
import type { SyncCommands } from './sync-commands.ts';
import type { ProjectCommands } from './project-commands.ts';
import type { PromptCommands, PromptLibrary } from './prompt-commands.ts';
import { createReplyRunner } from './reply-runner.ts';
import { builtinTools } from './builtin-source.ts';
import type { SourceSwitch, ToolRunner } from './tool-runner.ts';
import { createToolCommands, type ToolCommands } from './tool-commands.ts';
import { createMcpServers, type McpCommands } from './mcp-servers.ts';
import { builtinServer } from '../domain/tools.ts';
import { whenIdle } from '../lib/when-idle.ts';
import { createTreeCommands, type TreeCommands } from './tree-commands.ts';
import {
  createFocusRequests,
  createViewStore,
  type FocusRequests,
  type FocusTarget,
  type Overlay,
  type ViewState,
  type ViewStore,
} from './view-store.ts';

/** Commands whose code loads on first use: each resolves once it has loaded and run. */
type Loaded<Commands> = {
  [Name in keyof Commands]: Commands[Name] extends (...args: infer Args) => infer Result
    ? (...args: Args) => Promise<Awaited<Result>>
    : never;
};

/** Export, import, backups and what storage holds (their code loads on first use). */
export interface DataCommands extends Loaded<Omit<ExportImport, 'restoreBackup'>> {
  /** The automatic backups, newest first, and the policy they are kept by. */
  listBackups(): Promise<{ backups: BackupInfo[]; policy: typeof backupPolicy }>;
  backUpNow(): Promise<BackupWorkerReply>;
  /** A backup as an export file. */
  downloadBackup(info: BackupInfo): Promise<void>;
  /** 'Restore': the backup replaces everything, as an import does, with Undo. True when restored. */
  restoreBackup(id: string): Promise<boolean>;
  /** 'Storage': the browser's figures and the five largest conversations. */
  storageReport(): Promise<StorageReport>;
}

/** 'Protect keys with a passphrase' and its dialogs (key-lock.ts). */
export interface KeyCommands {
  protectKeys(passphrase: string): Promise<boolean>;
  unlockKeys(passphrase: string): Promise<boolean>;
  unprotectKeys(): Promise<boolean>;
  /** 'Forgot passphrase': clears the keys and nothing else. */
  forgetKeys(): Promise<void>;
}

/** The screen's chrome: what is open, folded or asked to take the focus (view-store.ts). */
export interface ViewCommands {
  setImportExportOpen(open: boolean): void;
  setSheet(sheet: ViewState['sheet']): void;
  /** Opens one overlay (closing any other), or closes it with null. */
  setOverlay(overlay: Overlay | null): void;
  /** Starts or ends dictation or the hands-free talk (docs/voice.md). */
  setVoice(voice: ViewState['voice']): void;
  setSettingsCollapsed(collapsed: boolean): void;
  /** Asks the composer or the sidebar's search to take the focus. */
  focus(target: FocusTarget): void;
  /** The message list has scrolled to the revealed message. */
  revealDone(): void;
  /**
   * 'Open in panel' on a code block of the active conversation: the artifact and version that
   * block is (by its code, in the reply `messageId` when given).
   */
  openArtifact(code: string, messageId?: string): Promise<void>;
  /** Shows another version (null: the latest), or closes the panel (null). */
  showArtifact(artifact: ViewState['artifact']): void;
  /** Opens a project's settings dialog, or closes it (null). */
  showProjectSettings(projectId: string | null): void;
  /** Opens 'Move to project…' for a conversation, or closes it (null). */
  showMoveToProject(conversationId: string | null): void;
  /** Asks the message box to insert a prompt (through its variables' form), or says it did (null). */
  insertPrompt(promptId: string | null): void;
}

/**
 * The chat application without React, as the UI sees it: the product's data (`store`), the
 * screen's chrome (`view`), and every command, grouped by what it is about.
 */
export interface ChatController
  extends
    ConversationCommands,
    Loaded<ProjectCommands>,
    Loaded<PromptCommands>,
    MessageCommands,
    TreeCommands,
    ToolCommands,
    McpCommands,
    SettingsCommands,
    Loaded<LocalServerCommands>,
    Loaded<SyncCommands>,
    DataCommands,
    KeyCommands,
    ViewCommands {
  readonly store: ChatStore;
  readonly view: ViewStore;
  /** Requests for a field to take the focus, which the fields listen to. */
  readonly focusRequests: FocusRequests;
  /** Restores everything from storage: configuration, theme, conversation list, the active one. */
  boot(): Promise<void>;
  /** Other tabs' settings, and the page going away (what streams is saved). */
  watchBrowser(): void;
}

export interface StorageReport extends StorageFigures {
  /** By size, largest first (conversations last written by an earlier release are not sized). */
  largest: { id: string; name: string; bytes: number }[];
}

/** Commands whose module loads on first use, each waiting for it and then running. */
function loadedOnUse<Commands extends object, Name extends keyof Commands & string>(
  load: () => Promise<Commands>,
  names: readonly Name[],
): Pick<Loaded<Commands>, Name> {
  const entries = names.map((name) => [
    name,
    async (...args: unknown[]) => ((await load())[name] as (...args: unknown[]) => unknown)(...args),
  ]);
  return Object.fromEntries(entries) as Pick<Loaded<Commands>, Name>;
}

/**
 * Each provider's remembered connection. A configuration saved before connections were kept (an
 * earlier release) counts as its provider's, so its key is remembered from the first start.
 */
function rememberedConnections(settings: LocalSettings, saved: Config | null): Connections {
  const connections = settings.loadConnections();
  if (saved && !connections[connectionIdOf(saved)]) connections[connectionIdOf(saved)] = saved;
  return connections;
}

/**
 * The chat application without React: its state, and every command the UI can run. Made with its
 * dependencies, so tests drive it with a fake provider and an in-memory database.
 */
export function createChatController(deps: ChatDependencies): ChatController {
  const store = createChatStore();
  const view = createViewStore();
  const focusRequests = createFocusRequests();
  const { settings } = deps;
  let database: ConversationStore | null = null;
  const ctx: ChatContext = {
    createProvider: deps.createProvider,
    settings,
    tabSync: deps.tabSync,
    notify: deps.notify,
    now: deps.now,
    newId: deps.newId,
    store,
    get: store.getState,
    view,
    focus: focusRequests,
    db() {
      if (!database) throw new Error('Conversation storage used before it was opened');
      return database;
    },
  };
  // Once something is worth keeping, the browser is asked not to evict it (once a session).
  const sync = createConversationSync(ctx, () => void askToPersist());
  const keyLock = createKeyLock(ctx);
  const configs = createConfigCommands({ ctx, sync, keyLock });
  const mcp = createMcpServers({ ctx, keyLock });
  // 'Find local models' loads on its click: the first screen has no use for it.
  // Sync with the user's CouchDB: loaded when it is set up, or at start when it is on.
  let syncModule: ReturnType<typeof loadSync> | null = null;
  const loadSync = () =>
    import('./sync-commands.ts').then(({ createSyncCommands }) =>
      createSyncCommands({ ctx, sync, keyLock, reloadSettings }),
    );
  const syncCommands = () =>
    (syncModule ??= loadSync().catch((error: unknown) => {
      syncModule = null;
      throw error;
    }));
  let localServerModule: Promise<LocalServerCommands> | null = null;
  const localServers = () =>
    (localServerModule ??= import('./local-servers.ts').then(
      ({ createLocalServerCommands }) => createLocalServerCommands({ ctx, configs }),
      (error: unknown) => {
        // Offline without the chunk: the next click tries again.
        localServerModule = null;
        throw error;
      },
    ));
  const toolSources = () => deps.toolSources ?? [builtinTools, ...mcp.sources()];
  const isOn: SourceSwitch = (conversation, source) =>
    conversation.toolSwitches?.[source.id] ?? source.id !== builtinServer;
  // The tool loop loads with the first reply (or in idle time before it): the first screen has
  // no use for it.
  let runnerModule: Promise<ToolRunner> | null = null;
  const loadToolRunner = () =>
    (runnerModule ??= import('./tool-runner.ts').then(({ createToolRunner }) =>
      createToolRunner({ ctx, sources: toolSources, isOn }),
    ));
  const toolRunner: ToolRunner = {
    offered: async (conversation, config) => (await loadToolRunner()).offered(conversation, config),
    stepLimit: () => settings.loadToolSettings().stepLimit,
    runCalls: async (step) => (await loadToolRunner()).runCalls(step),
    answer: (decision) => void loadToolRunner().then((runner) => runner.answer(decision)),
  };
  const replies = createReplyRunner({ ctx, sync, tools: toolRunner });
  const rescue = createClosingRescue({ ctx, sync, replies });
  const open = createOpenConversations({ ctx, sync });
  const conversations = createConversationCommands({ ctx, sync, open, replies });
  // Loaded when first used: the sidebar shows projects from the state alone.
  let projectModule: Promise<ProjectCommands> | null = null;
  const projects = () =>
    (projectModule ??= import('./project-commands.ts').then(({ createProjectCommands }) =>
      createProjectCommands({ ctx, sync, open, replies }),
    ));
  async function reloadProjects(): Promise<void> {
    store.setState({ projects: (await ctx.db().listProjects()).items });
  }
  // Loaded when first used, and at start when prompts are saved: until then they are read, not checked.
  let promptModule: Promise<PromptLibrary> | null = null;
  const prompts = () =>
    (promptModule ??= import('./prompt-commands.ts').then(({ createPromptCommands }) =>
      createPromptCommands({ ctx, open }),
    ));
  function loadPrompts(): void {
    const saved = settings.loadPrompts();
    if (saved === null) store.setState({ prompts: [] });
    else void prompts().then((library) => library.receive(saved));
  }
  const messages = createMessageCommands({
    ctx,
    sync,
    open,
    replies,
    targetFor: configs.targetFor,
    projects,
  });
  const tree = createTreeCommands({ ctx, open });
  const toolCommands = createToolCommands({ ctx, open, runner: toolRunner, sources: toolSources, isOn });
  // Export and import load when first used: the chat screen's first load carries neither.
  let exportImport: Promise<ExportImport> | null = null;
  const data = () =>
    (exportImport ??= import('./data-commands.ts').then(({ createDataCommands }) =>
      createDataCommands({ ctx, sync, configs, replies, startWorker: deps.startImportWorker }),
    ));
  let backupsModule: Promise<Backups> | null = null;
  const backups = () =>
    (backupsModule ??= import('./backups.ts').then(
      ({ createBackups }) =>
        createBackups(
          ctx,
          deps.runBackup ?? (async () => ({ status: 'failed', message: 'No backups are taken here' })),
        ),
      (error: unknown) => {
        // Offline without the chunk: the next use tries again.
        backupsModule = null;
        throw error;
      },
    ));

  async function boot(): Promise<void> {
    const saved = settings.readSavedConfig();
    configs.applyConfig(saved.config ?? defaultConfig);
    configs.applyConnections(rememberedConnections(settings, saved.config));
    store.setState({
      theme: settings.loadTheme(),
      autoTitle: settings.loadAutoTitle(),
      toolSettings: settings.loadToolSettings(),
    });
    loadPrompts();
    mcp.load();
    await keyLock.load({ ask: true });
    if (saved.problem) {
      deps.notify.warning(
        'The saved configuration could not be read',
        `The default settings are used instead (${saved.problem}). Your conversations are not affected; save your settings again in the panel on the right.`,
      );
    }

    const db = await deps.openConversationStore();
    database = db;
    if (!db.persistent) {
      deps.notify.warning(
        'Conversations are not being saved',
        'This browser does not allow storage here (private mode?). The app works, but closing the tab loses your chats.',
      );
    }
    const migration = !settings.hasLegacyConversations()
      ? { migrated: 0 }
      : await import('../storage/legacy-migration.ts')
          .then(({ migrateLegacyConversations }) => migrateLegacyConversations(db, settings.storage))
          .catch((error: unknown) => ({
            migrated: 0,
            problem: error instanceof Error ? error.message : String(error),
          }));
    if ('problem' in migration) {
      console.error('Could not migrate saved conversations', migration.problem);
      // Without IndexedDB the old data simply stays where it is (the warning above says so).
      if (db.persistent) {
        deps.notify.warning(
          'Some conversations saved by an older version could not be read',
          `${migration.problem}; the readable ones are shown.`,
        );
      }
    }

    // What a tab closed mid-reply had on screen, in its conversation before the list is read.
    if (db.persistent)
      await rescue
        .fold()
        .catch((error: unknown) => console.error('Could not fold in rescued replies', error));

    // Few and small: read with the list, so the sidebar shows them from the first paint.
    const storedProjects = db.listProjects().catch((error: unknown) => {
      console.error('Could not read saved projects', error);
      return { items: [], skipped: 0 };
    });
    const { items: summaries, skipped } = await db.listSummaries().catch((error: unknown) => {
      // Never stuck on 'Loading…': start empty and say why.
      console.error('Could not read saved conversations', error);
      deps.notify.error(
        'Saved conversations could not be read',
        `The browser's storage failed (${error instanceof Error ? error.message : String(error)}). Reloading may help.`,
      );
      return { items: [], skipped: 0 };
    });
    if (skipped > 0) {
      const one = skipped === 1;
      deps.notify.warning(
        `${skipped} saved conversation${one ? '' : 's'} could not be read and ${one ? 'was' : 'were'} skipped`,
        `${one ? 'It is' : 'They are'} damaged in this browser's storage; the other conversations are shown.`,
      );
    }
    const list = summaries.map(listItemOf);
    const activeId = pickActiveId(list, settings.loadActiveId());
    store.setState({ list, activeId, persistent: db.persistent, projects: (await storedProjects).items });
    if (activeId) await open.ensureLoaded(activeId).catch((error: unknown) => console.error(error));
    store.setState({ ready: true });
    whenIdle(() => void loadToolRunner().catch(() => undefined));
    deps.tabSync.subscribe((message) => void applyOtherTabChange(message));
    if (db.persistent && settings.hasSyncSetUp())
      syncCommands()
        .then((commands) => commands.start())
        .catch((error: unknown) => console.warn('Sync could not start', error));
    if (deps.runBackup && db.persistent)
      backups()
        .then((service) => service.schedule(list.length > 0))
        .catch((error: unknown) => console.warn('No backup will be taken in this tab', error));
  }

  async function applyOtherTabChange(message: TabSyncMessage): Promise<void> {
    switch (message.type) {
      case 'conversation-saved': {
        await sync.receive(message.id);
        // The other tab deleted the branch a reply is streaming into: it is not wanted any more.
        const { streaming, loaded } = store.getState();
        const target = streaming?.conversationId === message.id ? loaded[message.id] : undefined;
        if (streaming && target)
          for (const id of streaming.messageIds) if (!findMessage(target, id)) replies.stop(id);
        return;
      }
      case 'conversation-deleted': {
        // Deletion is final: a reply streaming into it here stops.
        if (store.getState().streaming?.conversationId === message.id) replies.stop();
        sync.forget(message.id);
        if (store.getState().activeId === message.id) {
          open.setActive(pickActiveId(store.getState().list, null));
        }
        return;
      }
      case 'conversations-added': {
        // New rows only: what is open here, and a reply streaming, stay as they are.
        const { items } = await ctx.db().listSummaries();
        const known = new Set(store.getState().list.map((row) => row.id));
        const added = items.filter((summary) => !known.has(summary.id)).map(listItemOf);
        if (added.length > 0) store.setState((state) => ({ list: [...state.list, ...added] }));
        return;
      }
      case 'conversations-replaced': {
        // Everything was replaced (an import): a reply streaming here has nowhere to go.
        replies.stop();
        const { items: summaries } = await ctx.db().listSummaries();
        const list = summaries.map(listItemOf);
        const activeId = pickActiveId(list, store.getState().activeId);
        store.setState({ list, loaded: {}, activeId, projects: (await ctx.db().listProjects()).items });
        if (activeId) await open.ensureLoaded(activeId);
        return;
      }
      case 'projects-changed':
        return reloadProjects();
      case 'config-saved':
      case 'active-changed':
      case 'key-request':
      case 'key-share':
        // Config arrives through the storage event; each tab keeps its own active conversation;
        // the key lock hears its own messages from the start (key-lock.ts).
        return;
    }
  }

  /** Settings changed in storage (by another tab, or sync): taken in as this tab's. */
  function reloadSettings(): void {
    const saved = settings.loadConfig();
    const { config, connections } = keyLock.withHeldKeys(saved, rememberedConnections(settings, saved));
    if (config) configs.applyConfig(config);
    configs.applyConnections(connections);
    store.setState({
      theme: settings.loadTheme(),
      autoTitle: settings.loadAutoTitle(),
      toolSettings: settings.loadToolSettings(),
    });
    loadPrompts();
    mcp.load();
    // Stored without keys while they are protected: the vault gives them back.
    void keyLock.load();
  }

  function watchBrowser(): void {
    deps.page.onSettingsChanged(reloadSettings);
    // Closing the tab mid-reply keeps what has arrived, and what is still to be written: plain
    // writes issued at once. Those may not commit before the page is gone, so the replies are
    // first kept in localStorage, whose write is synchronous (closing-rescue.ts). A tab merely
    // hidden saves as usual.
    deps.page.onClose(() => {
      rescue.keep();
      replies.saveNow();
      sync.flushNow();
    });
    deps.page.onHidden(() => {
      replies.saveNow();
      void sync.saveBacklog();
    });
  }

  return {
    store,
    view,
    focusRequests,
    boot,
    watchBrowser,
    ...conversations,
    ...loadedOnUse(projects, [
      'createProject',
      'changeProject',
      'addProjectFiles',
      'removeProjectFile',
      'deleteProject',
      'moveToProject',
      'newConversationInProject',
    ]),
    ...loadedOnUse(prompts, [
      'createPrompt',
      'changePrompt',
      'deletePrompt',
      'choosePersona',
      'newConversationAs',
      'exportPrompts',
      'importPrompts',
    ]),
    ...messages,
    ...tree,
    ...toolCommands,
    ...mcp.commands,
    ...configs.commands,
    ...loadedOnUse(localServers, ['findLocalModels']),
    ...loadedOnUse(syncCommands, [
      'testSync',
      'turnOnSync',
      'turnOffSync',
      'syncTarget',
      'syncNow',
      'pauseSync',
      'resumeSync',
    ]),
    exportText: async (includeApiKey, includeAttachments) =>
      (await data()).exportText(includeApiKey, includeAttachments),
    downloadExport: async (text) => (await data()).downloadExport(text),
    importFile: async (file) => (await data()).importFile(file),
    addImported: async () => (await data()).addImported(),
    cancelImport: async () => (await data()).cancelImport(),
    listBackups: async () => (await backups()).list(),
    backUpNow: async () => (await backups()).takeNow(),
    async downloadBackup(info) {
      if (!(await (await backups()).download(info))) deps.notify.error('The backup could not be read');
    },
    async restoreBackup(id) {
      const backup = await (await backups()).exportOf(id);
      if (backup !== null) return (await data()).restoreBackup(backup);
      deps.notify.error('The backup could not be read');
      return false;
    },
    async storageReport() {
      const [figures, { items }] = await Promise.all([storageFigures(), ctx.db().listSummaries()]);
      const largest = items
        .flatMap(({ id, name, bytes }) => (bytes === undefined ? [] : [{ id, name, bytes }]))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 5);
      return { ...figures, largest };
    },
    protectKeys: keyLock.protect,
    unlockKeys: keyLock.unlock,
    unprotectKeys: keyLock.unprotect,
    forgetKeys: keyLock.forget,
    setImportExportOpen: (importExportOpen) => view.setState({ importExportOpen }),
    setSheet: (sheet) => view.setState({ sheet }),
    setOverlay: (overlay) => view.setState({ overlay }),
    setVoice: (voice) => view.setState({ voice }),
    setSettingsCollapsed: (settingsCollapsed) => view.setState({ settingsCollapsed }),
    focus: (target) => focusRequests.request(target),
    revealDone: () => view.setState({ revealed: null }),
    async openArtifact(code, messageId) {
      const conversation = selectActiveConversation(store.getState());
      if (!conversation) return;
      // Loaded with the panel: the chat screen does not need it.
      const { artifactsOf, findArtifactVersion } = await import('../domain/artifacts.ts');
      const artifacts = artifactsOf(activePath(conversation), undefined, conversation.artifactEdits);
      const found = findArtifactVersion(artifacts, code, messageId);
      if (found)
        view.setState({
          artifact: {
            conversationId: conversation.id,
            key: found.artifact.key,
            version: found.version === found.artifact.versions.length - 1 ? null : found.version,
          },
        });
    },
    showArtifact: (artifact) => view.setState({ artifact }),
    showProjectSettings: (projectSettings) => view.setState({ projectSettings }),
    showMoveToProject: (moving) => view.setState({ moving }),
    insertPrompt: (promptToInsert) => view.setState({ promptToInsert }),
  };
}
