import { describe, expect, it } from 'vitest';
import {
  keysIn,
  recordOf,
  settingsKind,
  withKeys,
  withOwnConnections,
  withoutKeys,
  type SyncedSettings,
} from './synced-kinds.ts';

const config = JSON.stringify({ provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-laptop' });
const connections = JSON.stringify({
  openai: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-laptop' },
  'custom:lab': { provider: 'custom', endpointId: 'lab', model: 'llama', apiKey: 'lab-key' },
});

describe('synced settings', () => {
  it('leave without any key and come back with this device’s own', () => {
    const sent = withoutKeys('connections', connections);
    expect(sent).not.toContain('sk-laptop');
    expect(sent).not.toContain('lab-key');
    const keys = { ...keysIn('config', config), ...keysIn('connections', connections) };
    expect(keys).toEqual({
      openai: { key: 'sk-laptop', address: '' },
      'custom:lab': { key: 'lab-key', address: '' },
    });
    const phoneKeys = { openai: { key: 'sk-phone', address: '' } };
    expect(JSON.parse(withKeys('connections', sent, phoneKeys))).toEqual({
      openai: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-phone' },
      'custom:lab': { provider: 'custom', endpointId: 'lab', model: 'llama', apiKey: '' },
    });
    // A connection whose address another copy changed gets no key: it would go to that address.
    const moved = JSON.stringify({ provider: 'openai', baseUrl: 'https://evil.example/v1', apiKey: '' });
    expect(JSON.parse(withKeys('config', moved, phoneKeys))).toMatchObject({ apiKey: '' });
    // A connection only this device has stays, with its key.
    const lab = JSON.stringify({
      'custom:lab': { provider: 'custom', endpointId: 'lab', apiKey: 'lab-key' },
    });
    expect(JSON.parse(withOwnConnections(withoutKeys('connections', JSON.stringify({})), lab))).toEqual(
      JSON.parse(lab),
    );
    // Not a configuration: as it is.
    expect(withoutKeys('theme', 'dark')).toBe('dark');
    expect(withoutKeys('config', 'not json')).toBe('not json');
  });

  it('a server’s copy is read with the keys taken out, only the known settings, bounded', () => {
    const read = settingsKind.decode(
      {
        id: 'preferences',
        updatedAt: '2026-11-27T10:00:00.000Z',
        stored: {
          config,
          theme: 'dark',
          keyVault: '{"salt":"x"}',
          voice: 'x'.repeat(256_001),
          tools: '{"alwaysAllowed":["mcp:x"]}',
        },
      },
      'preferences',
    );
    expect(read?.stored).toEqual({
      config: JSON.stringify({ provider: 'openai', model: 'gpt-4o-mini', apiKey: '' }),
      theme: 'dark',
    });
    expect(settingsKind.decode({ updatedAt: 'yesterday', stored: {} }, 'preferences')).toBeNull();
    expect(settingsKind.decode({ updatedAt: '2026-11-27T10:00:00.000Z', stored: {} }, 'other')).toBeNull();
  });

  it('the later change wins; on a tie, the server’s copy', () => {
    const copy = (updatedAt: string, theme: string): SyncedSettings => ({
      id: 'preferences',
      updatedAt,
      stored: { theme: theme },
    });
    const epoch = copy(new Date(0).toISOString(), 'light');
    const synced = copy(new Date(0).toISOString(), 'dark');
    const later = copy('2026-11-27T10:00:00.000Z', 'light');
    expect(settingsKind.merge(epoch, synced)).toBe(synced);
    expect(settingsKind.merge(later, synced)).toBe(later);
    expect(settingsKind.merge(synced, later)).toBe(later);
  });
});

describe('document ids', () => {
  it('name a kind and a record; others are not records', () => {
    expect(recordOf('conversation:abc:def')).toMatchObject({ id: 'abc:def', kind: { type: 'conversation' } });
    expect(recordOf('settings:preferences')?.kind.type).toBe('settings');
    expect(recordOf('file:abc')).toBeNull();
    expect(recordOf('sync:encryption')).toBeNull();
    expect(recordOf('_design/x')).toBeNull();
  });
});
