import { createStore, type StoreApi } from 'zustand/vanilla';
import { connectionIdOf, defaultConfig, type Config, type Connections } from '../domain/config.ts';
import type { Conversation, ConversationPlace, ModelPin } from '../domain/conversation.ts';
import type { SyncStatus } from '../domain/sync-settings.ts';
import type { McpServer } from '../domain/mcp-servers.ts';
import type { Project } from '../domain/projects.ts';
import type { Prompt } from '../domain/prompts.ts';
import type { McpStatus } from '../tools/mcp/types.ts';
import type { ListedModel } from '../providers/types.ts';
import { activePath } from '../domain/message-tree.ts';
import { capabilitiesOf, modelOf, providerDefaults, withModel } from '../domain/provider-catalog.ts';
import type { ModelCapabilities } from '../domain/provider-definitions/capabilities.ts';
import type { ToolHints } from '../tools/tool-source.ts';
import { lastInputTokens } from '../domain/reply-stats.ts';

import { defaultToolSettings, type Theme, type ToolSettings } from '../storage/local-settings.ts';

export type { Theme };

/** A sidebar row: what the list needs without loading the messages. */
export interface ConversationListItem {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  /** See Conversation.activeAt: absent, updatedAt. */
  activeAt?: string;
  place?: ConversationPlace;
  /** See Conversation.projectId. */
  projectId?: string;
}

/**
 * The replies being streamed, if any: in one conversation at a time, one reply, or one per model
 * of a compared question (the versions of one turn).
 */
export interface StreamingReply {
  conversationId: string;
  /** At least one. */
  messageIds: readonly string[];
}

/** The product's data as this tab holds it (the screen's chrome is in view-store.ts). */
export interface ChatState {
  ready: boolean;
  /** The saved configuration (the panel edits a draft until 'Save Configuration'). */
  config: Config;
  /** Every project (domain/projects.ts), in no set order: see orderProjects. */
  projects: Project[];
  /**
   * The saved prompts (domain/prompts.ts), in no set order: see orderPrompts. Read checked, once
   * the prompts' commands have loaded (at start, when any are saved).
   */
  prompts: Prompt[];
  /** Every conversation, without messages, in no set order: see orderConversations. */
  list: ConversationListItem[];
  /** Conversations whose messages are loaded, by id. */
  loaded: Record<string, Conversation>;
  activeId: string | null;
  streaming: StreamingReply | null;
  theme: Theme;
  /** False when IndexedDB is unavailable: the app works in memory only. */
  persistent: boolean;
  /** Set while saves fail (storage full, ...); cleared by the next successful save. */
  storageProblem: string | null;
  /** Each provider's last saved configuration: its remembered key, and what a pinned conversation uses. */
  connections: Connections;
  /** Providers' own model lists, by the connection they were fetched with (see modelListKey). */
  modelLists: Record<string, ListedModel[]>;
  /** 'Automatic titles': after the first reply, the model names the conversation. */
  autoTitle: boolean;
  /** 'Protect keys with a passphrase': off, on but not unlocked in this session, or unlocked. */
  keyLock: 'off' | 'locked' | 'unlocked';
  /** The last question whose request failed with nothing received, and why. */
  failedTurn: FailedTurn | null;
  /** Keys of another provider's shape the user chose to send anyway, as `connection id|key` (this session). */
  confirmedKeys: readonly string[];
  /** Tools always allowed and the step limit (the Tools settings). */
  toolSettings: ToolSettings;
  /** The tool call waiting for the user's 'Allow once', 'Always allow' or 'Deny' (tool-runner.ts). */
  toolApproval: ToolApproval | null;
  /** The MCP servers the user connected (Tools settings), without their secrets. */
  mcpServers: McpServer[];
  /** Their secrets, by key (domain/mcp-servers.ts), kept like API keys: in the vault while protected. */
  mcpSecrets: Record<string, string>;
  /** Each server's state in this tab, by server id. */
  mcpStatus: Record<string, McpStatus>;
  /** Sync with the user's CouchDB (docs/sync.md): where it stands; null while it is off. */
  syncStatus: SyncStatus | null;
  /** Files sync left out (larger than the server takes), by id: said on their messages. */
  syncLeftOut: readonly string[];
}

/** A tool call waiting for the user's answer, with what its server says of the tool (hints, never trusted). */
export interface ToolApproval {
  conversationId: string;
  messageId: string;
  callId: string;
  /** The source's name, as the user knows it. */
  sourceLabel: string;
  hints: ToolHints;
}

/** A question left unanswered: the provider's reason, and whether its model does not exist or was retired. */
export interface FailedTurn {
  conversationId: string;
  questionId: string;
  pin: ModelPin;
  reason: string;
  modelGone: boolean;
}

export type ChatStore = StoreApi<ChatState>;

export function createChatStore(): ChatStore {
  return createStore<ChatState>(() => ({
    ready: false,
    config: defaultConfig,
    projects: [],
    prompts: [],
    list: [],
    loaded: {},
    activeId: null,
    streaming: null,
    theme: 'system',
    persistent: true,
    storageProblem: null,
    connections: {},
    modelLists: {},
    autoTitle: true,
    keyLock: 'off',
    failedTurn: null,
    confirmedKeys: [],
    toolApproval: null,
    toolSettings: defaultToolSettings,
    mcpServers: [],
    mcpSecrets: {},
    syncStatus: null,
    syncLeftOut: [],
    mcpStatus: {},
  }));
}

/** The sidebar row of a conversation or of its stored summary. */
export function listItemOf(conversation: ConversationListItem): ConversationListItem {
  const { id, createdAt, updatedAt, activeAt, place, projectId } = conversation;
  const item: ConversationListItem = { id, name: shownName(conversation.name), createdAt, updatedAt };
  if (activeAt) item.activeAt = activeAt;
  if (place) item.place = place;
  if (projectId) item.projectId = projectId;
  return item;
}

/**
 * Rows (and so the sidebar, the header and the palette) show at most this much of a name; the
 * conversation keeps all of it. An imported name of 5 MB took the page 1.1 s to lay out.
 */
const shownNameLength = 200;

function shownName(name: string): string {
  if (name.length <= shownNameLength) return name;
  const before = name.charCodeAt(shownNameLength - 1);
  const end = before >= 0xd800 && before <= 0xdbff ? shownNameLength - 1 : shownNameLength;
  return `${name.slice(0, end)}…`;
}

/** Puts a conversation into memory: its messages and its sidebar row. */
export function commitConversation(store: ChatStore, conversation: Conversation): void {
  store.setState((state) => {
    const index = state.list.findIndex((row) => row.id === conversation.id);
    const row = state.list[index];
    // A streamed token changes only the messages: keep the list (and the sidebar) untouched.
    const item = listItemOf(conversation);
    const unchanged =
      row &&
      row.name === item.name &&
      row.updatedAt === conversation.updatedAt &&
      row.activeAt === conversation.activeAt &&
      row.place === conversation.place &&
      row.projectId === conversation.projectId;
    const list = unchanged ? state.list : index === -1 ? [...state.list, item] : state.list.with(index, item);
    return { list, loaded: { ...state.loaded, [conversation.id]: conversation } };
  });
}

export function forgetConversation(store: ChatStore, id: string): void {
  store.setState((state) => {
    const loaded = Object.fromEntries(Object.entries(state.loaded).filter(([key]) => key !== id));
    return { list: state.list.filter((row) => row.id !== id), loaded };
  });
}

export const selectActiveConversation = (state: ChatState): Conversation | undefined =>
  state.activeId ? state.loaded[state.activeId] : undefined;

/** Whether a reply is streaming into this conversation: its messages are then not to be changed. */
export const isStreamingIn = (state: ChatState, conversationId: string): boolean =>
  state.streaming?.conversationId === conversationId;

/** The ids of the replies streaming into this conversation (none: an empty list, always the same one). */
export const streamingIdsIn = (state: ChatState, conversationId: string | undefined): readonly string[] =>
  state.streaming && state.streaming.conversationId === conversationId ? state.streaming.messageIds : noIds;
const noIds: readonly string[] = [];

/**
 * The configuration a conversation's next reply uses: the saved one, or for a conversation with a
 * pin (or a one-off choice, `override`) that provider's connection with the pinned model. A provider
 * never saved gets its defaults without a key, so asking it says to configure it first.
 */
export function targetConfig(state: ChatState, conversationId: string | null, override?: ModelPin): Config {
  const pin = override ?? (conversationId ? state.loaded[conversationId]?.pin : undefined);
  if (!pin) return state.config;
  const { temperature, maxTokens } = state.config;
  const connection =
    connectionOf(state, connectionIdOf(pin)) ??
    providerDefaults(pin.provider, { apiKey: '', temperature, maxTokens });
  return withModel(connection, pin.model);
}

/** What a configuration's model can do: the provider's table, overruled by its live model list. */
export function modelCapabilities(state: ConnectionState, config: Config): ModelCapabilities {
  const model = modelOf(config);
  const listed = liveModelsOf(state, connectionIdOf(config))?.find(({ id }) => id === model);
  return capabilitiesOf(config, listed?.capabilities);
}

/**
 * How full the context window of the model a conversation asks next is, in whole percent: the
 * last request's input tokens (as the provider counted them) against the window. Null when
 * either is unknown.
 */
export function contextPercent(state: ChatState, conversationId: string): number | null {
  // A streaming reply reports its usage when it ends: until then the figure stands, and is not
  // worked out again on every streamed frame.
  const known = lastContextPercent.get(conversationId);
  if (known !== undefined && isStreamingIn(state, conversationId)) return known;
  const conversation = state.loaded[conversationId];
  if (!conversation) return null;
  const input = lastInputTokens(activePath(conversation));
  const window = modelCapabilities(state, targetConfig(state, conversationId)).contextWindow;
  const percent = input === undefined || !window ? null : Math.round((input / window) * 100);
  lastContextPercent.set(conversationId, percent);
  return percent;
}

const lastContextPercent = new Map<string, number | null>();

/** Which connection a live model list belongs to: provider, host and key. */
export function modelListKey(config: Config): string {
  return [config.provider, config.baseUrl ?? '', config.endpoint ?? '', config.apiKey].join('|');
}

/** What a provider's connection and model list are read from. */
export type ConnectionState = Pick<ChatState, 'config' | 'connections' | 'modelLists'>;

/** A provider's connection as the app knows it: the saved configuration if it is that provider's, else the remembered one. */
export function connectionOf(state: ConnectionState, connectionId: string): Config | undefined {
  return connectionIdOf(state.config) === connectionId ? state.config : state.connections[connectionId];
}

/** Every known connection once, the saved configuration over its remembered (older) copy. */
export function connectionsOf(state: Pick<ChatState, 'config' | 'connections'>): Config[] {
  const all = [...Object.values(state.connections), state.config];
  return [...new Map(all.map((connection) => [connectionIdOf(connection), connection])).values()];
}

/** The live model list of a provider's connection, once fetched. */
export function liveModelsOf(state: ConnectionState, connectionId: string): ListedModel[] | null {
  const connection = connectionOf(state, connectionId);
  return (connection && state.modelLists[modelListKey(connection)]) ?? null;
}
