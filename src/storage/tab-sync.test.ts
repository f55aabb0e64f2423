import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTabSync,
  readTabSyncMessage,
  subscribeToStorageEvents,
  type TabSyncMessage,
  type TabSync,
} from './tab-sync.ts';

const syncs: TabSync[] = [];

function tab(tabId: string, channelName: string): TabSync {
  const sync = createTabSync({ tabId, channelName });
  syncs.push(sync);
  return sync;
}

afterEach(() => {
  for (const sync of syncs.splice(0)) sync.close();
});

function nextMessage(sync: TabSync): Promise<TabSyncMessage> {
  return new Promise((resolve) => {
    const unsubscribe = sync.subscribe((message) => {
      unsubscribe();
      resolve(message);
    });
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('createTabSync', () => {
  it('delivers messages to other tabs', async () => {
    const channel = `sync-test-${Math.random()}`;
    const a = tab('tab-a', channel);
    const b = tab('tab-b', channel);
    const received = nextMessage(b);
    a.post({ type: 'conversation-saved', id: 'c1' });
    expect(await received).toEqual({ type: 'conversation-saved', id: 'c1' });
  });

  it('ignores messages from its own tab', async () => {
    const channel = `sync-test-${Math.random()}`;
    const sender = tab('same', channel);
    const sameTab = tab('same', channel);
    const other = tab('other', channel);
    const ownHandler = vi.fn();
    sameTab.subscribe(ownHandler);
    sender.subscribe(ownHandler);
    const received = nextMessage(other);
    sender.post({ type: 'active-changed', id: null });
    expect(await received).toEqual({ type: 'active-changed', id: null });
    await settle();
    expect(ownHandler).not.toHaveBeenCalled();
  });

  it('drops malformed messages and stops after unsubscribe', async () => {
    const channel = `sync-test-${Math.random()}`;
    const receiver = tab('receiver', channel);
    const handler = vi.fn();
    const unsubscribe = receiver.subscribe(handler);
    const raw = new BroadcastChannel(channel);
    raw.postMessage({ from: 'x', message: { type: 'conversation-saved' } });
    raw.postMessage({ from: 'x', message: { type: 'unknown' } });
    raw.postMessage('hello');
    raw.postMessage({ from: 'x', message: { type: 'config-saved' } });
    await settle();
    expect(handler.mock.calls).toEqual([[{ type: 'config-saved' }]]);
    unsubscribe();
    raw.postMessage({ from: 'x', message: { type: 'config-saved' } });
    await settle();
    raw.close();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('is a no-op without BroadcastChannel', () => {
    const sync = createTabSync({ BroadcastChannel: undefined });
    const unsubscribe = sync.subscribe(() => undefined);
    expect(() => sync.post({ type: 'conversations-replaced' })).not.toThrow();
    unsubscribe();
    sync.close();
    expect(() => sync.post({ type: 'config-saved' })).not.toThrow();
  });

  it('gives every instance in a tab the same random id by default', () => {
    const a = createTabSync({ BroadcastChannel: null });
    const b = createTabSync({ BroadcastChannel: null });
    expect(a.tabId).toBe(b.tabId);
    expect(a.tabId.length).toBeGreaterThan(8);
  });
});

describe('readTabSyncMessage', () => {
  it('copies only known fields', () => {
    const parsed: unknown = JSON.parse('{"type":"conversation-deleted","id":"x","__proto__":{"evil":1}}');
    const message = readTabSyncMessage(parsed);
    expect(message).toEqual({ type: 'conversation-deleted', id: 'x' });
    expect(Object.keys(message ?? {})).toEqual(['type', 'id']);
    expect(readTabSyncMessage({ type: 'active-changed', id: 3 })).toBeNull();
  });

  it('takes a shared key only as a CryptoKey, never as text (an earlier release shared its bytes)', async () => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    expect(readTabSyncMessage({ type: 'key-share', key })).toEqual({ type: 'key-share', key });
    expect(readTabSyncMessage({ type: 'key-share', key: 'c2VjcmV0' })).toBeNull();
  });
});

describe('sync messages between tabs', () => {
  it('a status is read field by field; anything else is dropped', () => {
    expect(
      readTabSyncMessage({
        type: 'sync-status',
        status: { kind: 'syncing', changes: 3, extra: 1 },
        leftOut: ['f', 2],
      }),
    ).toEqual({ type: 'sync-status', status: { kind: 'syncing', changes: 3 }, leftOut: ['f'] });
    expect(readTabSyncMessage({ type: 'sync-status', status: null, leftOut: [] })).toEqual({
      type: 'sync-status',
      status: null,
      leftOut: [],
    });
    for (const status of [{ kind: 'syncing', changes: -1 }, { kind: 'error' }, { kind: 'hacked' }, 'synced'])
      expect(readTabSyncMessage({ type: 'sync-status', status, leftOut: [] })).toBeNull();
    expect(readTabSyncMessage({ type: 'sync-command', command: 'pause' })).toEqual({
      type: 'sync-command',
      command: 'pause',
    });
    expect(readTabSyncMessage({ type: 'sync-command', command: 'delete-everything' })).toBeNull();
  });
});

describe('subscribeToStorageEvents', () => {
  function storageEvent(key: string | null): Event {
    return Object.assign(new Event('storage'), { key, newValue: 'x' });
  }

  it('reports changes to our keys and clears, ignoring others', () => {
    const target = new EventTarget();
    const handler = vi.fn();
    const unsubscribe = subscribeToStorageEvents(handler, target);
    target.dispatchEvent(storageEvent('ai-chat-config'));
    target.dispatchEvent(storageEvent('ai-chat-active-conversation'));
    target.dispatchEvent(storageEvent('theme'));
    target.dispatchEvent(storageEvent('ai-chat-prompts'));
    target.dispatchEvent(storageEvent('ai-chat-personas'));
    target.dispatchEvent(storageEvent('someone-else'));
    target.dispatchEvent(storageEvent(null));
    expect(handler.mock.calls).toEqual([
      ['config'],
      ['activeConversation'],
      ['theme'],
      ['prompts'],
      ['prompts'],
      ['all'],
    ]);
    unsubscribe();
    target.dispatchEvent(storageEvent('theme'));
    expect(handler).toHaveBeenCalledTimes(6);
  });

  it('is a no-op without a window', () => {
    expect(() => subscribeToStorageEvents(() => undefined)()).not.toThrow();
  });
});
