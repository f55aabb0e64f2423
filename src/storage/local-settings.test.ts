import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, type Config } from '../domain/config.ts';
import {
  loadActiveId,
  loadConfig,
  loadDraft,
  loadPrompts,
  loadTheme,
  saveActiveId,
  saveConfig,
  saveDraft,
  savePrompts,
  saveTheme,
  type StorageLike,
} from './local-settings.ts';
import { createMemoryStorage } from './test-storage.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const throwingStorage: StorageLike = {
  getItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  removeItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
};

describe('configuration', () => {
  it('round-trips through ai-chat-config as JSON', () => {
    const storage = createMemoryStorage();
    const config: Config = { ...defaultConfig, provider: 'groq', apiKey: 'gsk', model: 'x', stop: ['END'] };
    expect(saveConfig(config, storage)).toEqual({ ok: true });
    expect(JSON.parse(storage.values.get('ai-chat-config') ?? '')).toEqual(config);
    expect(loadConfig(storage)).toEqual(config);
  });

  it('is null when nothing is saved', () => {
    expect(loadConfig(createMemoryStorage())).toBeNull();
  });

  it('logs a corrupted configuration and yields null', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(loadConfig(createMemoryStorage({ 'ai-chat-config': '{not json' }))).toBeNull();
    expect(error).toHaveBeenCalledWith('Failed to parse saved configuration', expect.any(SyntaxError));
  });

  it('restores a legacy azure configuration', () => {
    const storage = createMemoryStorage({
      'ai-chat-config': JSON.stringify({ apiKey: 'k', endpoint: 'https://e', deploymentName: 'd' }),
    });
    expect(loadConfig(storage)).toMatchObject({ provider: 'azure', apiVersion: '2023-05-15', apiKey: 'k' });
  });

  it('maps a full storage to reason quota', () => {
    const storage = createMemoryStorage();
    storage.failWith = new DOMException('full', 'QuotaExceededError');
    expect(saveConfig(defaultConfig, storage)).toEqual({
      ok: false,
      reason: 'quota',
      message: 'Browser storage for this site is full',
    });
  });

  it('never throws when localStorage is unavailable', () => {
    expect(loadConfig(throwingStorage)).toBeNull();
    expect(saveConfig(defaultConfig, throwingStorage)).toMatchObject({ ok: false, reason: 'unavailable' });
  });

  it('uses the global localStorage by default, and copes with its absence in node', () => {
    expect(loadConfig()).toBeNull();
    expect(saveConfig(defaultConfig)).toMatchObject({ ok: false, reason: 'unavailable' });
  });
});

describe('active conversation id', () => {
  it('stores the bare id and reads it back', () => {
    const storage = createMemoryStorage();
    saveActiveId('abc-123', storage);
    expect(storage.values.get('ai-chat-active-conversation')).toBe('abc-123');
    expect(loadActiveId(storage)).toBe('abc-123');
  });

  it('accepts a JSON-quoted id', () => {
    expect(loadActiveId(createMemoryStorage({ 'ai-chat-active-conversation': '"abc-123"' }))).toBe('abc-123');
  });

  it('removes the key for null', () => {
    const storage = createMemoryStorage({ 'ai-chat-active-conversation': 'x' });
    saveActiveId(null, storage);
    expect(storage.values.has('ai-chat-active-conversation')).toBe(false);
    expect(loadActiveId(storage)).toBeNull();
  });

  it('is null when unavailable', () => {
    expect(loadActiveId(throwingStorage)).toBeNull();
  });
});

describe('theme', () => {
  it('defaults to system', () => {
    expect(loadTheme(createMemoryStorage())).toBe('system');
    expect(loadTheme(createMemoryStorage({ theme: 'purple' }))).toBe('system');
    expect(loadTheme(throwingStorage)).toBe('system');
  });

  it('stores the bare value', () => {
    const storage = createMemoryStorage();
    saveTheme('dark', storage);
    expect(storage.values.get('theme')).toBe('dark');
    expect(loadTheme(storage)).toBe('dark');
    expect(loadTheme(createMemoryStorage({ theme: '"light"' }))).toBe('light');
  });
});

describe('drafts', () => {
  it('stores per conversation and removes on empty text', () => {
    const storage = createMemoryStorage();
    expect(loadDraft('c1', storage)).toBe('');
    saveDraft('c1', 'half a thought', storage);
    expect(storage.values.get('ai-chat-draft:c1')).toBe('half a thought');
    expect(loadDraft('c1', storage)).toBe('half a thought');
    expect(loadDraft('c2', storage)).toBe('');
    saveDraft('c1', '', storage);
    expect(storage.values.has('ai-chat-draft:c1')).toBe(false);
  });
});

describe('prompts', () => {
  it('are read as stored, unchecked (null when none or not JSON), and removed when none are left', () => {
    const storage = createMemoryStorage();
    expect(loadPrompts(storage)).toBeNull();
    const prompt = {
      id: 'p',
      title: 'Hello',
      body: 'Hi {{name}}',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(savePrompts([prompt], storage)).toEqual({ ok: true });
    expect(JSON.parse(storage.values.get('ai-chat-prompts') ?? '')).toEqual([prompt]);
    expect(loadPrompts(storage)).toEqual([prompt]);
    savePrompts([], storage);
    expect(storage.values.has('ai-chat-prompts')).toBe(false);
    storage.values.set('ai-chat-prompts', '{ broken');
    expect(loadPrompts(storage)).toBeNull();
    expect(loadPrompts(throwingStorage)).toBeNull();
  });
});
