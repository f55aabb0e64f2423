import { connectionIdOf, type Config, type Connections } from '../domain/config.ts';
import { restoreConfig } from '../domain/config-restore.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { readMcpServers, type McpServer } from '../domain/mcp-servers.ts';
import { isKeptSecretKey } from '../domain/kept-secrets.ts';
import type { Prompt } from '../domain/prompts.ts';
import { storageKeys } from './keys.ts';
import { storageFailure, storageOk, unavailable, type StorageResult } from './result.ts';

/** The part of `Storage` used here, so tests can pass a Map-backed fake. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type Theme = 'light' | 'dark' | 'system';

/** Reading `localStorage` itself throws where storage is blocked (sandboxed frames, some privacy modes). */
export function browserStorage(): StorageLike | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Whether sync was ever set up here: only then does its code load at start (sync-store.ts reads it). */
export function hasSyncSetUp(storage?: StorageLike): boolean {
  return read(storageKeys.sync, storage) !== null;
}

/**
 * Whether release 1's list of conversations is still in localStorage: only then is the code that
 * moves it (legacy-migration.ts) loaded.
 */
export function hasLegacyConversations(storage?: StorageLike): boolean {
  return read(storageKeys.conversations, storage) !== null;
}

/**
 * Release 1's list of conversations while it is still in localStorage (parsed, unchecked):
 * undefined when there is none, or it is not JSON.
 */
export function readLegacyList(storage: StorageLike | null = browserStorage()): unknown {
  try {
    const raw = storage?.getItem(storageKeys.conversations);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function read(key: string, storage: StorageLike | undefined): string | null {
  try {
    return (storage ?? browserStorage())?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null, storage: StorageLike | undefined): StorageResult {
  const target = storage ?? browserStorage();
  if (!target) return unavailable('localStorage');
  try {
    if (value === null) target.removeItem(key);
    else target.setItem(key, value);
    return storageOk();
  } catch (error) {
    return storageFailure(error);
  }
}

/**
 * The saved configuration and, when something was saved but cannot be used (not JSON, not an
 * object, an unknown provider), why: the app then starts on the defaults and says so.
 */
export function readSavedConfig(storage?: StorageLike): { config: Config | null; problem: string | null } {
  const raw = read(storageKeys.config, storage);
  if (raw === null) return { config: null, problem: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    console.error('Failed to parse saved configuration', error);
    return { config: null, problem: 'it is not valid JSON' };
  }
  const config = restoreConfig(parsed);
  if (!config) {
    console.error('Failed to parse saved configuration', new Error('unknown provider or not an object'));
    return { config: null, problem: 'it is not a configuration of a known provider' };
  }
  return { config, problem: null };
}

export function loadConfig(storage?: StorageLike): Config | null {
  return readSavedConfig(storage).config;
}

export function saveConfig(config: Config, storage?: StorageLike): StorageResult {
  return write(storageKeys.config, JSON.stringify(config), storage);
}

/** Each provider's last saved configuration; entries that cannot be read are left out. */
export function loadConnections(storage?: StorageLike): Connections {
  const raw = read(storageKeys.connections, storage);
  let parsed: unknown;
  try {
    parsed = raw === null ? {} : JSON.parse(raw);
  } catch (error) {
    console.error('Failed to parse saved connections', error);
    return {};
  }
  const connections: Connections = {};
  if (typeof parsed !== 'object' || parsed === null) return connections;
  for (const [id, value] of Object.entries(parsed)) {
    const config = restoreConfig(value);
    // An entry must be the configuration of the connection it is filed under.
    if (config && connectionIdOf(config) === id) connections[id] = config;
  }
  return connections;
}

export function saveConnections(connections: Connections, storage?: StorageLike): StorageResult {
  return write(storageKeys.connections, JSON.stringify(connections), storage);
}

/** The bare id; a JSON-quoted id, as older versions may have written, is accepted too. */
export function loadActiveId(storage?: StorageLike): string | null {
  const raw = read(storageKeys.activeConversation, storage);
  if (raw === null || raw === '') return null;
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      const unquoted: unknown = JSON.parse(raw);
      if (typeof unquoted === 'string') return unquoted === '' ? null : unquoted;
    } catch {
      // Not JSON after all: an id that merely starts and ends with a quote.
    }
  }
  return raw;
}

/** Null removes the key: no conversation is active. */
export function saveActiveId(id: string | null, storage?: StorageLike): StorageResult {
  return write(storageKeys.activeConversation, id, storage);
}

function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark' || value === 'system';
}

export function loadTheme(storage?: StorageLike): Theme {
  const raw = read(storageKeys.theme, storage);
  if (isTheme(raw)) return raw;
  const unquoted = raw?.replace(/^"(.*)"$/, '$1');
  return isTheme(unquoted) ? unquoted : 'system';
}

export function saveTheme(theme: Theme, storage?: StorageLike): StorageResult {
  return write(storageKeys.theme, theme, storage);
}

function draftKey(conversationId: string): string {
  return `${storageKeys.draftPrefix}${conversationId}`;
}

/** Naming conversations after their first reply: on unless turned off. */
export function loadAutoTitle(storage?: StorageLike): boolean {
  return read(storageKeys.autoTitle, storage) !== 'off';
}

export function saveAutoTitle(on: boolean, storage?: StorageLike): StorageResult {
  return write(storageKeys.autoTitle, on ? 'on' : 'off', storage);
}

/** How tools run: which are always allowed, and how many steps a reply may take. */
export interface ToolSettings {
  /** `{server}/{tool}` of each tool the user chose 'Always allow' for. */
  alwaysAllowed: string[];
  /** A reply calls tools at most this many times in a row, then answers. */
  stepLimit: number;
}

export const defaultToolSettings: ToolSettings = { alwaysAllowed: [], stepLimit: 10 };

/** The tool settings; what cannot be read is the default. */
export function loadToolSettings(storage?: StorageLike): ToolSettings {
  let value: unknown;
  try {
    value = JSON.parse(read(storageKeys.tools, storage) ?? 'null');
  } catch {
    return defaultToolSettings;
  }
  if (!isRecord(value)) return defaultToolSettings;
  const allowed = ownField(value, 'alwaysAllowed');
  const steps = ownField(value, 'stepLimit');
  return {
    alwaysAllowed: Array.isArray(allowed)
      ? allowed.filter((entry): entry is string => typeof entry === 'string').slice(0, 1000)
      : [],
    stepLimit:
      typeof steps === 'number' && Number.isInteger(steps) && steps >= 1 && steps <= 100
        ? steps
        : defaultToolSettings.stepLimit,
  };
}

export function saveToolSettings(settings: ToolSettings, storage?: StorageLike): StorageResult {
  return write(storageKeys.tools, JSON.stringify(settings), storage);
}

/** The MCP servers the user connected; what does not read is left out. */
export function loadMcpServers(storage?: StorageLike): McpServer[] {
  try {
    return readMcpServers(JSON.parse(read(storageKeys.mcpServers, storage) ?? '[]'));
  } catch {
    return [];
  }
}

export function saveMcpServers(servers: readonly McpServer[], storage?: StorageLike): StorageResult {
  return write(storageKeys.mcpServers, servers.length === 0 ? null : JSON.stringify(servers), storage);
}

/** Stores a value as JSON; what went wrong (storage full or blocked) in the result. */
export function storeJson(key: string, value: unknown, storage?: StorageLike): StorageResult {
  return write(key, JSON.stringify(value), storage);
}

/** A stored JSON value, parsed but unchecked; null when absent or not JSON. */
export function parsed(key: string, storage?: StorageLike): unknown {
  try {
    return JSON.parse(read(key, storage) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * The saved prompts and personas as stored, in one list: parsed but unchecked (null when there
 * are none, or they are not JSON). Only a JSON.parse at start; domain/prompts.ts's
 * `readPrompts`, loaded with the prompts' commands, checks them before they are used.
 */
export function loadPrompts(storage?: StorageLike): unknown {
  const lists = [parsed(storageKeys.prompts, storage), parsed(storageKeys.personas, storage)].filter(
    (value) => Array.isArray(value),
  );
  return lists.length === 0 ? null : lists.flat();
}

/** The prompts under their key and the personas under theirs; none removes a key. */
export function savePrompts(prompts: readonly Prompt[], storage?: StorageLike): StorageResult {
  const save = (key: string, list: readonly Prompt[]) =>
    write(key, list.length === 0 ? null : JSON.stringify(list), storage);
  const written = save(
    storageKeys.prompts,
    prompts.filter((prompt) => !prompt.persona),
  );
  return written.ok
    ? save(
        storageKeys.personas,
        prompts.filter((prompt) => prompt.persona),
      )
    : written;
}

/** The MCP servers' secrets kept in the clear (keys not protected), by key. */
export function loadMcpSecrets(storage?: StorageLike): Record<string, string> {
  try {
    const value: unknown = JSON.parse(read(storageKeys.mcpSecrets, storage) ?? '{}');
    if (!isRecord(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => isKeptSecretKey(entry[0]) && typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

/** Empty removes them (none kept, or sealed in the vault). */
export function saveMcpSecrets(
  secrets: Readonly<Record<string, string>>,
  storage?: StorageLike,
): StorageResult {
  return write(
    storageKeys.mcpSecrets,
    Object.keys(secrets).length === 0 ? null : JSON.stringify(secrets),
    storage,
  );
}

/** The unsent text of a conversation, or ''. */
export function loadDraft(conversationId: string, storage?: StorageLike): string {
  return read(draftKey(conversationId), storage) ?? '';
}

/** Empty text removes the draft. */
export function saveDraft(conversationId: string, text: string, storage?: StorageLike): StorageResult {
  return write(draftKey(conversationId), text === '' ? null : text, storage);
}

/** The API keys, encrypted under a passphrase (see lib/passphrase-crypto.ts); base64 fields. */
export interface KeyVault {
  format: 1;
  iterations: number;
  salt: string;
  iv: string;
  /** AES-GCM of the JSON of each connection's key, by connection id. */
  data: string;
}

/** The vault when keys are protected; null when they are not (or it does not read). */
export function loadKeyVault(storage?: StorageLike): KeyVault | null {
  const raw = read(storageKeys.keyVault, storage);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!isRecord(value)) return null;
    const [format, iterations, salt, iv, data] = ['format', 'iterations', 'salt', 'iv', 'data'].map((key) =>
      ownField(value, key),
    );
    if (format !== 1 || typeof iterations !== 'number' || iterations < 1) return null;
    if (typeof salt !== 'string' || typeof iv !== 'string' || typeof data !== 'string') return null;
    return { format, iterations, salt, iv, data };
  } catch {
    return null;
  }
}

/** Null removes it: keys are no longer protected. */
export function saveKeyVault(vault: KeyVault | null, storage?: StorageLike): StorageResult {
  return write(storageKeys.keyVault, vault && JSON.stringify(vault), storage);
}

function sessionStore(): StorageLike | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** This tab's key-session token (see key-session.ts); null in a tab of a new browser session. */
export function loadKeySessionToken(storage: StorageLike | undefined = sessionStore()): string | null {
  return storage ? read(storageKeys.keySessionToken, storage) : null;
}

export function saveKeySessionToken(token: string, storage: StorageLike | undefined = sessionStore()): void {
  if (storage) write(storageKeys.keySessionToken, token, storage);
}

/** The raw key (base64) an earlier release kept in sessionStorage, removed as it is read. */
export function takeLegacySessionKey(storage: StorageLike | undefined = sessionStore()): string | null {
  const raw = storage ? read(storageKeys.legacyKeySession, storage) : null;
  if (raw !== null) write(storageKeys.legacyKeySession, null, storage);
  return raw;
}

/**
 * The settings of one browser profile, bound to where they are kept: the browser's localStorage
 * in the app, a Map-backed fake in tests (test-storage.ts). What the chat controller is given.
 */
export function createLocalSettings(local: StorageLike | null = browserStorage()) {
  const storage = local ?? undefined;
  return {
    storage,
    /** A setting's stored text as it is (sync sends settings as stored: state/sync-local.ts). */
    readText: (key: string) => read(key, storage),
    writeText: (key: string, value: string | null) => write(key, value, storage),
    hasLegacyConversations: () => hasLegacyConversations(storage),
    readLegacyList: () => readLegacyList(local),
    readSavedConfig: () => readSavedConfig(storage),
    loadConfig: () => loadConfig(storage),
    saveConfig: (config: Config) => saveConfig(config, storage),
    loadConnections: () => loadConnections(storage),
    saveConnections: (connections: Connections) => saveConnections(connections, storage),
    loadActiveId: () => loadActiveId(storage),
    saveActiveId: (id: string | null) => saveActiveId(id, storage),
    loadTheme: () => loadTheme(storage),
    saveTheme: (theme: Theme) => saveTheme(theme, storage),
    loadAutoTitle: () => loadAutoTitle(storage),
    saveAutoTitle: (on: boolean) => saveAutoTitle(on, storage),
    loadToolSettings: () => loadToolSettings(storage),
    hasSyncSetUp: () => hasSyncSetUp(storage),
    saveToolSettings: (settings: ToolSettings) => saveToolSettings(settings, storage),
    loadMcpServers: () => loadMcpServers(storage),
    saveMcpServers: (servers: readonly McpServer[]) => saveMcpServers(servers, storage),
    loadPrompts: () => loadPrompts(storage),
    savePrompts: (prompts: readonly Prompt[]) => savePrompts(prompts, storage),
    loadMcpSecrets: () => loadMcpSecrets(storage),
    saveMcpSecrets: (secrets: Readonly<Record<string, string>>) => saveMcpSecrets(secrets, storage),
    loadDraft: (conversationId: string) => loadDraft(conversationId, storage),
    saveDraft: (conversationId: string, text: string) => saveDraft(conversationId, text, storage),
    loadKeyVault: () => loadKeyVault(storage),
    saveKeyVault: (vault: KeyVault | null) => saveKeyVault(vault, storage),
  };
}

export type LocalSettings = ReturnType<typeof createLocalSettings>;
