import { isRecord, ownField } from '../domain/json-guards.ts';
import type { SyncStatus } from '../domain/sync-settings.ts';
import { storageKeys } from './keys.ts';

/** What one tab tells the others after changing stored data; receivers re-read what changed. */
export type TabSyncMessage =
  | { type: 'conversation-saved'; id: string }
  | { type: 'conversation-deleted'; id: string }
  | { type: 'conversations-replaced' }
  /** Conversations were added (another app's export): the others only gain rows. */
  | { type: 'conversations-added' }
  | { type: 'config-saved' }
  /** Projects were created, changed or deleted: the others read them again. */
  | { type: 'projects-changed' }
  | { type: 'active-changed'; id: string | null }
  /** A tab whose keys are locked asks the unlocked ones for the vault's key (once per session). */
  | { type: 'key-request' }
  /**
   * The vault's key, a non-extractable CryptoKey (structured clone carries it; no script can read
   * it out); the receiver checks it against the vault.
   */
  | { type: 'key-share'; key: CryptoKey }
  /** The tab that runs sync for all (sync-commands.ts) says where it stands; null: it stopped. */
  | { type: 'sync-status'; status: SyncStatus | null; leftOut: string[] }
  /** Another tab's 'Sync now', 'Pause', 'Resume', 'Turn off sync', or its question for the status. */
  | { type: 'sync-command'; command: SyncCommand };

export const syncCommands = ['sync-now', 'pause', 'resume', 'stop', 'status'] as const;
export type SyncCommand = (typeof syncCommands)[number];

/** A status from another tab (another version, maybe), checked field by field. */
function readSyncStatus(value: unknown): SyncStatus | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const kind = ownField(value, 'kind');
  const changes = ownField(value, 'changes');
  const message = ownField(value, 'message');
  switch (kind) {
    case 'synced': {
      const tooLarge = ownField(value, 'tooLarge');
      return typeof tooLarge === 'number' && Number.isInteger(tooLarge) && tooLarge > 0
        ? { kind, tooLarge }
        : { kind };
    }
    case 'offline':
    case 'paused':
      return { kind };
    case 'syncing':
      return typeof changes === 'number' && Number.isInteger(changes) && changes >= 0
        ? { kind, changes }
        : undefined;
    case 'error':
      return typeof message === 'string' && message.length <= 1000 ? { kind, message } : undefined;
    default:
      return undefined;
  }
}

export interface TabSync {
  readonly tabId: string;
  post(message: TabSyncMessage): void;
  /** Messages from other tabs only. Returns the unsubscribe function. */
  subscribe(handler: (message: TabSyncMessage) => void): () => void;
  close(): void;
}

export interface TabSyncOptions {
  /** Defaults to this tab's id; tests pass their own to play several tabs. */
  tabId?: string;
  channelName?: string;
  /** Defaults to the global one; null or undefined turns sync into a no-op. */
  BroadcastChannel?: typeof BroadcastChannel | null;
}

function randomId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  );
}

/** One id per tab (per page load), shared by every sync instance in it. */
const thisTabId = randomId();

/** A fresh message from untrusted data (another tab may run another version), or null. */
export function readTabSyncMessage(value: unknown): TabSyncMessage | null {
  if (!isRecord(value)) return null;
  const type = ownField(value, 'type');
  const id = ownField(value, 'id');
  switch (type) {
    case 'conversation-saved':
    case 'conversation-deleted':
      return typeof id === 'string' ? { type, id } : null;
    case 'conversations-replaced':
    case 'conversations-added':
    case 'config-saved':
    case 'projects-changed':
      return { type };
    case 'active-changed':
      return typeof id === 'string' || id === null ? { type, id } : null;
    case 'key-request':
      return { type };
    case 'key-share': {
      const key = ownField(value, 'key');
      // An earlier release's tab shares the raw key as text: it is not taken (the user is asked).
      // Outside a secure context there is no CryptoKey, and no key to take.
      return typeof CryptoKey === 'function' && key instanceof CryptoKey ? { type, key } : null;
    }
    case 'sync-status': {
      const status = readSyncStatus(ownField(value, 'status'));
      const leftOut = ownField(value, 'leftOut');
      if (status === undefined || !Array.isArray(leftOut)) return null;
      return {
        type,
        status,
        leftOut: leftOut.filter((fileId): fileId is string => typeof fileId === 'string').slice(0, 100_000),
      };
    }
    case 'sync-command': {
      const command = ownField(value, 'command');
      return (syncCommands as readonly unknown[]).includes(command)
        ? { type, command: command as SyncCommand }
        : null;
    }
    default:
      return null;
  }
}

export function createTabSync(options: TabSyncOptions = {}): TabSync {
  const tabId = options.tabId ?? thisTabId;
  const Channel = 'BroadcastChannel' in options ? options.BroadcastChannel : globalThis.BroadcastChannel;
  const handlers = new Set<(message: TabSyncMessage) => void>();
  let channel: BroadcastChannel | null = null;
  try {
    channel = Channel ? new Channel(options.channelName ?? storageKeys.tabChannel) : null;
  } catch {
    channel = null;
  }
  if (channel) {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const envelope = event.data;
      if (!isRecord(envelope) || ownField(envelope, 'from') === tabId) return;
      const message = readTabSyncMessage(ownField(envelope, 'message'));
      if (message) for (const handler of [...handlers]) handler(message);
    };
  }

  return {
    tabId,
    post(message) {
      try {
        channel?.postMessage({ from: tabId, message });
      } catch {
        // A closed channel: the other tabs will catch up on their next read.
      }
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    close() {
      handlers.clear();
      channel?.close();
      channel = null;
    },
  };
}

/** Which of our localStorage values another tab changed; 'all' when it cleared storage. */
export type StorageChange =
  | 'config'
  | 'connections'
  | 'keyVault'
  | 'activeConversation'
  | 'theme'
  | 'autoTitle'
  | 'tools'
  | 'mcpServers'
  | 'mcpSecrets'
  | 'prompts'
  | 'all';

const watchedKeys = new Map<string, StorageChange>([
  [storageKeys.config, 'config'],
  [storageKeys.connections, 'connections'],
  // Keys protected, changed or no longer protected in another tab.
  [storageKeys.keyVault, 'keyVault'],
  [storageKeys.activeConversation, 'activeConversation'],
  [storageKeys.theme, 'theme'],
  [storageKeys.autoTitle, 'autoTitle'],
  [storageKeys.tools, 'tools'],
  [storageKeys.mcpServers, 'mcpServers'],
  [storageKeys.mcpSecrets, 'mcpSecrets'],
  [storageKeys.prompts, 'prompts'],
  [storageKeys.personas, 'prompts'],
]);

type EventTargetLike = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/**
 * Calls the handler when another tab changes one of our localStorage keys (the browser fires
 * `storage` only in the other tabs). Returns the unsubscribe function; a no-op without a window.
 */
export function subscribeToStorageEvents(
  handler: (change: StorageChange) => void,
  target: EventTargetLike | undefined = typeof window === 'undefined' ? undefined : window,
): () => void {
  if (!target) return () => undefined;
  const listener = (event: Event) => {
    const key = 'key' in event ? event.key : undefined;
    if (key === null) handler('all');
    else if (typeof key === 'string') {
      const change = watchedKeys.get(key);
      if (change) handler(change);
    }
  };
  target.addEventListener('storage', listener);
  return () => target.removeEventListener('storage', listener);
}
