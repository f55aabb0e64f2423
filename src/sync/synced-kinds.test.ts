import { describe, expect, it } from 'vitest';
import {
  keysIn,
  recordOf,
  settingsKind,
  withKeys,
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
    expect(keys).toEqual({ openai: 'sk-laptop', 'custom:lab': 'lab-key' });
    const phoneKeys = { openai: 'sk-phone' };
    expect(JSON.parse(withKeys('connections', sent, phoneKeys))).toEqual({
      openai: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-phone' },
      'custom:lab': { provider: 'custom', endpointId: 'lab', model: 'llama', apiKey: '' },
    });
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
          tools: 'x'.repeat(1_000_001),
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
