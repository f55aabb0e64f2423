/** Every name this app stores data under, in one place. */
export const storageKeys = {
  /** localStorage: the configuration as JSON. */
  config: 'ai-chat-config',
  /**
   * localStorage: the last saved configuration of each provider, by provider id, so its key (and
   * its endpoint) are remembered and a conversation can be pinned to it.
   */
  connections: 'ai-chat-connections',
  /** localStorage, legacy: all conversations as one JSON list; migrated to IndexedDB, then removed. */
  conversations: 'ai-chat-conversations',
  /** localStorage: the bare id of the active conversation. */
  activeConversation: 'ai-chat-active-conversation',
  /** localStorage: light, dark or system, bare. */
  theme: 'theme',
  /** localStorage: 'off' when conversations are not to be named by their model; absent: on. */
  autoTitle: 'ai-chat-auto-title',
  /** localStorage: the tool settings as JSON (`ToolSettings`): tools always allowed, the step limit. */
  tools: 'ai-chat-tools',
  /** localStorage: the sync set-up as JSON (`SyncSettings`, domain/sync-settings.ts), without the password. */
  sync: 'ai-chat-sync',
  /**
   * localStorage: how far sync has come (sync-runner.ts): the server's changes feed position, the
   * conversations deleted here and not yet on the server, what was last sent of each.
   */
  syncProgress: 'ai-chat-sync-progress',
  /** localStorage: the voice settings as JSON (`VoiceSettings`, domain/voice-settings.ts). */
  voice: 'ai-chat-voice',
  /** localStorage: the MCP servers the user connected, as JSON (`McpServer[]`), without secrets. */
  mcpServers: 'ai-chat-mcp-servers',
  /**
   * localStorage: the saved prompts as JSON (`Prompt[]`, domain/prompts.ts), read back through
   * `readPrompts`; absent while there are none.
   */
  prompts: 'ai-chat-prompts',
  /**
   * localStorage: the personas (prompts with `persona: true`) as JSON, apart from the prompts so
   * that a tab of an earlier release, which knows no personas, never reads or rewrites them.
   */
  personas: 'ai-chat-personas',
  /**
   * localStorage, while keys are not protected: the MCP servers' secrets (tokens, headers, OAuth
   * state) by key (`mcp:{server}`, `mcp-oauth:…`), kept like API keys. Sealed in `keyVault` with
   * the API keys while they are protected, and then absent.
   */
  mcpSecrets: 'ai-chat-mcp-secrets',
  /**
   * localStorage, only while keys are protected with a passphrase: the keys of every connection,
   * encrypted (`KeyVault`); `config` and `connections` then hold '' for each key.
   */
  keyVault: 'ai-chat-key-vault',
  /**
   * sessionStorage, written by earlier releases: the unlocked vault's raw key, base64. Converted
   * once into a key that cannot be read out (key-session.ts), then removed.
   */
  legacyKeySession: 'ai-chat-key-session',
  /** sessionStorage: this tab's random token, under which key-session.ts files its unlocked key. */
  keySessionToken: 'ai-chat-key-token',
  /**
   * IndexedDB database of the unlocked vault's key, as a non-extractable CryptoKey, one record per
   * unlocked tab of this browser session (key-session.ts). Apart from the conversations: never
   * exported or backed up.
   */
  keySessionDatabase: {
    name: 'ai-chat-key-sessions',
    version: 1,
    /** `CryptoKey` values, out-of-line keys: the tab's token. */
    store: 'keys',
  },
  /** Web Lock held (shared) by every tab holding the unlocked key: none held, the records are stale. */
  keySessionLock: 'ai-chat-key-held',
  /**
   * localStorage, only between a page closed mid-reply and the next start: the replies not yet
   * safely stored as the page went, as JSON (state/closing-rescue.ts), folded into their
   * conversations at start and then removed.
   */
  closingRescue: 'ai-chat-closing-rescue',
  /** localStorage: the unsent text of a conversation, under this prefix plus its id. */
  draftPrefix: 'ai-chat-draft:',
  /** IndexedDB database holding one record per conversation. */
  database: {
    name: 'ai-chat',
    /** 2 added the attachment store, 3 the project store. */
    version: 3,
    /** Full records, keyPath id. */
    conversationStore: 'conversations',
    /** Sidebar rows without message bodies, keyPath id, written in the same transaction. */
    summaryStore: 'summaries',
    /**
     * The bytes of attached files, `{ id, conversationId, blob }`, keyPath id, indexed by
     * conversation; written and deleted in the same transaction as the record that refers to them.
     */
    attachmentStore: 'attachments',
    attachmentsByConversation: 'conversationId',
    /**
     * Projects (domain/projects.ts), keyPath id. Their files are in the attachment store, under
     * the project's id in place of a conversation's.
     */
    projectStore: 'projects',
  },
  /**
   * IndexedDB database of the search index (src/search): a saved copy of it, so a cold start
   * does not rebuild it. Apart from the conversations, so it can be dropped and rebuilt freely.
   */
  searchDatabase: {
    name: 'ai-chat-search',
    version: 1,
    /** Out-of-line keys; one entry, `snapshotKey`. */
    snapshotStore: 'snapshots',
    snapshotKey: 'index',
  },
  /**
   * IndexedDB database of automatic backups (backup-db.ts): each an export of everything but the
   * key, gzipped. Apart from the conversations, so damage to one never reaches the other.
   */
  backupDatabase: {
    name: 'ai-chat-backups',
    version: 1,
    /** What each backup is (`BackupInfo`), keyPath id: listed without reading any backup. */
    infoStore: 'backups',
    /** The gzipped export, `{ id, data: Blob }`, keyPath id, written in the same transaction. */
    dataStore: 'backup-data',
  },
  /** Web Lock held by the one tab that runs sync for every tab of this browser (sync-commands.ts). */
  syncLeadLock: 'ai-chat-sync-lead',
  /** Web Lock held while a backup is taken, so two tabs never take the same one. */
  backupLock: 'ai-chat-backup',
  /** BroadcastChannel over which tabs tell each other what they changed. */
  tabChannel: 'ai-chat-sync',
} as const;
