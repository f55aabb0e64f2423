import { attachmentIds, type Conversation } from '../domain/conversation.ts';
import { conversationRecord } from '../domain/conversation-record.ts';
import { validateConversation } from '../domain/conversation-validation.ts';
import { defaultConfig } from '../domain/config.ts';
import { findMessage, mergeConversations } from '../domain/message-tree.ts';
import { readProject } from '../domain/project-validation.ts';
import { laterProject, type Project } from '../domain/projects.ts';
import { readPrompt, type Prompt } from '../domain/prompts.ts';
import { isIsoTimestamp, isRecord, ownField } from '../domain/json-guards.ts';

/**
 * What is replicated, kind by kind (docs/sync.md#what-is-replicated-and-how): each record is one
 * document, `{type}:{id}`, holding its stored form, read back with the checks storage uses (the
 * server's documents are as hostile as an imported file). Two copies meet through the rule two
 * tabs follow for that kind: conversations merge by message id, projects and prompts are won
 * whole by the later change.
 */
export interface SyncedKind<T> {
  type: string;
  idOf(value: T): string;
  /** The form the document holds (JSON). */
  encode(value: T): unknown;
  /** A document's value read back; null when it does not read as one with this id. */
  decode(value: unknown, id: string): T | null;
  /** The two copies as one; the same whichever side computes it. */
  merge(mine: T, theirs: T): T;
  /**
   * `merged` as the server's copy would hold it: what a device keeps for itself alone (which
   * branch it shows) left as the server has it, so a write that differs only in that is not made.
   */
  asServerSees(merged: T, theirs: T): T;
  /** The stored files it refers to (their bytes are documents of their own). */
  files(value: T): string[];
}

export const conversationKind: SyncedKind<Conversation> = {
  type: 'conversation',
  idOf: (conversation) => conversation.id,
  encode: conversationRecord,
  decode(value, id) {
    const result = validateConversation(value, 'record', {
      now: new Date(),
      fallbackProvider: defaultConfig.provider,
    });
    return result.ok && result.value.id === id ? result.value : null;
  },
  merge: mergeConversations,
  asServerSees(merged, theirs) {
    if (!findMessage(merged, theirs.activeLeafId)) return merged;
    const seen: Conversation = { ...merged, activeLeafId: theirs.activeLeafId };
    if (theirs.activeAt === undefined) delete seen.activeAt;
    else seen.activeAt = theirs.activeAt;
    return seen;
  },
  files: (conversation) => [...attachmentIds(conversation)],
};

export const projectKind: SyncedKind<Project> = {
  type: 'project',
  idOf: (project) => project.id,
  encode: (project) => project,
  decode(value, id) {
    const project = readProject(value);
    return project?.id === id ? project : null;
  },
  // The later change wins whole; on a tie the lesser JSON, so both sides pick the same one.
  merge: (mine, theirs) =>
    mine.updatedAt === theirs.updatedAt ? tieBreak(mine, theirs) : laterProject(mine, theirs),
  asServerSees: (merged) => merged,
  files: (project) => project.files.map((file) => file.id),
};

export const promptKind: SyncedKind<Prompt> = {
  type: 'prompt',
  idOf: (prompt) => prompt.id,
  encode: (prompt) => prompt,
  decode(value, id) {
    const prompt = readPrompt(value);
    return prompt?.id === id ? prompt : null;
  },
  merge: (mine, theirs) =>
    mine.updatedAt === theirs.updatedAt
      ? tieBreak(mine, theirs)
      : theirs.updatedAt > mine.updatedAt
        ? theirs
        : mine,
  asServerSees: (merged) => merged,
  files: () => [],
};

function tieBreak<T>(a: T, b: T): T {
  return JSON.stringify(a) <= JSON.stringify(b) ? a : b;
}

/**
 * The settings that sync, as stored (in localStorage, under the names `storageKeys` gives these): all but what is this device's alone (the sync
 * set-up, drafts, the open conversation), what lets something act without asking (the tools
 * always allowed, the MCP servers and their tokens), and the keys, which are taken out of the
 * configuration and the connections before they leave and put back from this device's own when
 * they arrive, only where the connection still goes to the same address.
 */
export const syncedSettingKeys = ['config', 'connections', 'theme', 'autoTitle', 'voice'] as const;
export type SyncedSettingKey = (typeof syncedSettingKeys)[number];

export interface SyncedSettings {
  id: typeof settingsId;
  /** When this copy changed: the later copy wins whole. */
  updatedAt: string;
  /** Each setting's stored text, keys taken out; absent: not set. */
  stored: Partial<Record<SyncedSettingKey, string>>;
}
export const settingsId = 'preferences';
/** A setting's stored text is read back as storage reads it; this bounds what is taken at all. */
const settingTextLimit = 256_000;

/**
 * The settings kind; `withKeys`: the keys go with their connections (the user's choice, on an
 * encrypted database only: state/sync-runner.ts), else they are taken out of whatever arrives.
 */
export const settingsKindFor = (withKeysSynced: boolean): SyncedKind<SyncedSettings> => ({
  type: 'settings',
  idOf: (settings) => settings.id,
  encode: (settings) => settings,
  decode(value, id) {
    if (id !== settingsId || !isRecord(value)) return null;
    const updatedAt = ownField(value, 'updatedAt');
    const stored = ownField(value, 'stored');
    if (!isIsoTimestamp(updatedAt) || !isRecord(stored)) return null;
    const kept: SyncedSettings['stored'] = {};
    for (const key of syncedSettingKeys) {
      const text = ownField(stored, key);
      if (typeof text === 'string' && text.length <= settingTextLimit)
        kept[key] = withKeysSynced ? text : withoutKeys(key, text);
    }
    return { id: settingsId, updatedAt, stored: kept };
  },
  // The later change wins; on a tie the server's copy (a device that never changed its settings
  // since sync began stamps them at the epoch, so it takes the ones already synced).
  merge: (mine, theirs) => (theirs.updatedAt >= mine.updatedAt ? theirs : mine),
  asServerSees: (merged) => merged,
  files: () => [],
});
export const settingsKind = settingsKindFor(false);

/** A configuration's connection id, as config.ts names it, from its stored JSON. */
function connectionIdIn(config: Record<string, unknown>): string {
  const provider = ownField(config, 'provider');
  const endpointId = ownField(config, 'endpointId');
  return typeof endpointId === 'string' && endpointId
    ? `${String(provider)}:${endpointId}`
    : String(provider);
}

/** The configurations a setting's JSON holds (the configuration, or each connection's), to take keys out or put them in. */
function withEachConfig(
  key: SyncedSettingKey,
  text: string,
  change: (config: Record<string, unknown>) => Record<string, unknown>,
): string {
  if (key !== 'config' && key !== 'connections') return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(value)) return text;
  if (key === 'config') return JSON.stringify(change(value));
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(value).map(([id, config]) => [id, isRecord(config) ? change(config) : config]),
    ),
  );
}

/** A stored setting without any key in it. */
export function withoutKeys(key: SyncedSettingKey, text: string): string {
  return withEachConfig(key, text, (config) => ('apiKey' in config ? { ...config, apiKey: '' } : config));
}

/** Where a configuration's requests go: its base URL or Azure endpoint ('' for a provider's own). */
function addressIn(config: Record<string, unknown>): string {
  const address = ownField(config, 'baseUrl') ?? ownField(config, 'endpoint');
  return typeof address === 'string' ? address : '';
}

/** This device's keys, by connection id, with where each connection sent it. */
export type HeldKeys = Record<string, { key: string; address: string }>;

/**
 * A setting from another device with this device's keys put back by connection id, and only
 * where the connection still goes to the same address: a server that changed an address gets no
 * key sent there. None known: ''.
 */
export function withKeys(key: SyncedSettingKey, text: string, keys: Readonly<HeldKeys>): string {
  return withEachConfig(key, text, (config) => {
    const held = Object.hasOwn(keys, connectionIdIn(config)) ? keys[connectionIdIn(config)] : undefined;
    // A key that came with its connection (synced keys) stays; else this device's, if any.
    const own = ownField(config, 'apiKey');
    if (typeof own === 'string' && own) return config;
    return { ...config, apiKey: held && held.address === addressIn(config) ? held.key : '' };
  });
}

/** The keys a stored configuration or connections hold, by connection id, with their addresses. */
export function keysIn(key: SyncedSettingKey, text: string | null): HeldKeys {
  const keys: HeldKeys = {};
  if (text !== null)
    withEachConfig(key, text, (config) => {
      const apiKey = ownField(config, 'apiKey');
      if (typeof apiKey === 'string' && apiKey)
        keys[connectionIdIn(config)] = { key: apiKey, address: addressIn(config) };
      return config;
    });
  return keys;
}

/**
 * The connections from another device, with this device's own that it lacks kept (with their
 * keys): a copy that has not heard of a connection yet does not take it away.
 */
export function withOwnConnections(text: string, own: string | null): string {
  let theirs: unknown;
  let mine: unknown;
  try {
    theirs = JSON.parse(text);
    mine = own === null ? {} : JSON.parse(own);
  } catch {
    return text;
  }
  if (!isRecord(theirs) || !isRecord(mine)) return text;
  return JSON.stringify({ ...mine, ...theirs });
}

export const syncedKinds = [conversationKind, projectKind, promptKind, settingsKind] as const;

/** A document's id: its kind, then the record's id. */
export const documentId = (type: string, id: string) => `${type}:${id}`;

/** The kind and record id of a document id; null for a document that is not a record (a file, the encryption marker). */
export function recordOf(documentIdValue: string): { kind: SyncedKind<unknown>; id: string } | null {
  const colon = documentIdValue.indexOf(':');
  if (colon <= 0) return null;
  const type = documentIdValue.slice(0, colon);
  const kind = syncedKinds.find((known) => known.type === type) as SyncedKind<unknown> | undefined;
  return kind ? { kind, id: documentIdValue.slice(colon + 1) } : null;
}

/** A file's bytes: the attachment `data` of the document `file:{id}`. */
export const fileDocumentId = (fileId: string) => `file:${fileId}`;
export const fileAttachmentName = 'data';
