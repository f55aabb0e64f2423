import { describe, expect, it, vi } from 'vitest';
import { type Config } from '../domain/config.ts';
import { messageText, type Message } from '../domain/conversation.ts';
import { activePath, siblingsOf } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import { modelListKey, targetConfig } from './chat-store.ts';
import { continuePrompt } from './reply-runner.ts';
import {
  config,
  active,
  shown,
  idle,
  sendAndWait,
  stored,
  tab,
  localStorage,
  setUpTabs,
} from './controller-harness.ts';

setUpTabs();

describe('every provider at once', () => {
  const claude: Config = {
    provider: 'claude',
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    temperature: 0.5,
    maxTokens: 2048,
  };

  it("remembers each saved provider, and a release-1 configuration counts as its provider's from the start", async () => {
    expect(tab.chat.store.getState().connections).toEqual({ openai: config });
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    expect(tab.chat.store.getState().connections).toEqual({ openai: config, claude });
    expect(JSON.parse(localStorage.getItem('ai-chat-connections') ?? '{}')).toEqual({
      openai: config,
      claude,
    });
  });

  it("a pinned conversation asks the pinned provider's connection with the pinned model; unpinned it follows the saved one", async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    const id = active(tab).id;
    await tab.chat.pinModel(id, { provider: 'claude', model: 'claude-opus-4-8' });
    expect(targetConfig(tab.chat.store.getState(), id)).toEqual({ ...claude, model: 'claude-opus-4-8' });

    await sendAndWait(tab, 'Hello Claude', 'Hi');
    expect(tab.provider.settings.at(-1)).toMatchObject({
      model: 'claude-opus-4-8',
      temperature: 0.5,
      maxTokens: 2048,
    });
    // The service was built for Claude's connection, which holds no model: another model reuses it.
    const claudeServices = tab.provider.built.filter((connection) => connection.provider === 'claude');
    expect(claudeServices).toHaveLength(1);
    expect(claudeServices[0]).not.toHaveProperty('model');
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'claude', model: 'claude-opus-4-8' });
    expect((await stored(tab)).pin).toEqual({ provider: 'claude', model: 'claude-opus-4-8' });

    await tab.chat.pinModel(id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await sendAndWait(tab, 'Again', 'Sure');
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-haiku-4-5' });
    expect(tab.provider.built.filter((connection) => connection.provider === 'claude')).toHaveLength(1);

    await tab.chat.pinModel(id, null);
    await sendAndWait(tab, 'And you?', 'OpenAI here');
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'gpt-4o-mini' });
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
  });

  it('a pin to a provider never configured asks to configure that provider', async () => {
    await tab.chat.pinModel(active(tab).id, { provider: 'gemini', model: 'gemini-2.5-pro' });
    expect(await tab.chat.send('Hello?')).toBe(false);
    expect(tab.calls.at(-1)).toMatchObject({
      kind: 'error',
      message: 'Please configure Gemini settings first',
    });
  });

  it('an import without a key: the key of the same address, never one for another host; Undo restores the connections', async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    const before = tab.chat.store.getState().connections;
    const importOf = (imported: Record<string, unknown>) =>
      new Blob([JSON.stringify({ version: '2.0', config: imported })]);
    const replaced = { replaced: true };

    // The same connection as the current one keeps the current key (docs/decisions.md#key-left-out-of-exports).
    const withoutKey = (value: Config) =>
      Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'apiKey'));
    const openaiWithoutKey = withoutKey(config);
    expect(await tab.chat.importFile(importOf({ ...openaiWithoutKey, model: 'gpt-4.1' }))).toEqual(replaced);
    expect(tab.chat.store.getState().config).toMatchObject({
      provider: 'openai',
      apiKey: 'sk-test',
      model: 'gpt-4.1',
    });

    // Claude's remembered key for Claude.
    const claudeWithoutKey = withoutKey(claude);
    expect(await tab.chat.importFile(importOf(claudeWithoutKey))).toEqual(replaced);
    expect(tab.chat.store.getState().config.apiKey).toBe('sk-ant-test');

    // A file naming another host gets no key at all.
    expect(
      await tab.chat.importFile(importOf({ ...openaiWithoutKey, baseUrl: 'https://collector.example' })),
    ).toEqual(replaced);
    expect(tab.chat.store.getState().config).toMatchObject({
      baseUrl: 'https://collector.example',
      apiKey: '',
    });
    expect(tab.chat.store.getState().connections.openai?.apiKey).toBe('');

    const imported = tab.calls.filter((call) => call.message === 'Data imported successfully').at(-1);
    expect(imported?.untilDismissed).toBe(false);
    imported?.action?.onClick();
    await vi.waitFor(() => expect(tab.chat.store.getState().connections.openai?.apiKey).toBe('sk-test'));
    expect(Object.keys(tab.chat.store.getState().connections).sort()).toEqual(Object.keys(before).sort());
  });

  it("the toast's Retry after Regenerate with… asks the same model again", async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    await sendAndWait(tab, 'Compare', 'From OpenAI');
    const reply = activePath(active(tab)).at(-1);
    if (!reply) throw new Error('no reply');
    tab.provider.next().push(new ProviderError({ provider: 'claude', kind: 'server', message: 'boom' }));
    await tab.chat.regenerate(active(tab).id, reply.id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await idle(tab);
    const retry = tab.calls.filter((call) => call.message === 'Error calling Claude API').at(-1)?.action;
    expect(retry).toBeDefined();
    tab.provider.next('From Claude');
    retry?.onClick();
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: From Claude'));
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'claude', model: 'claude-haiku-4-5' });
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it('Regenerate with another model asks it for this reply only', async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    await sendAndWait(tab, 'Compare', 'From OpenAI');
    const reply = activePath(active(tab)).at(-1);
    if (!reply) throw new Error('no reply');
    tab.provider.next('From Claude');
    await tab.chat.regenerate(active(tab).id, reply.id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await idle(tab);
    const latest = activePath(active(tab)).at(-1);
    expect(latest).toMatchObject({ provider: 'claude', model: 'claude-haiku-4-5' });
    expect(siblingsOf(active(tab), latest?.id ?? '').siblings).toHaveLength(2);
    expect(active(tab).pin).toBeUndefined();
  });
});

describe('a key of another provider', () => {
  const claudeWithOpenAiKey: Config = {
    provider: 'claude',
    apiKey: 'sk-proj-openai-key',
    model: 'claude-sonnet-4-5',
    temperature: 0.7,
    maxTokens: 1024,
  };

  it('is neither tested nor saved with the other provider until the user confirms it', async () => {
    const builtBefore = tab.provider.built.length;
    expect(tab.chat.keyWarning(claudeWithOpenAiKey)).toBe('This looks like an OpenAI key');
    const check = await tab.chat.checkConnection(claudeWithOpenAiKey);
    expect(check).toEqual({
      ok: false,
      message:
        'This looks like an OpenAI key: it was not sent to Claude. Replace it, or choose Use it anyway.',
    });
    expect(tab.chat.saveConfiguration(claudeWithOpenAiKey)).toMatch(/^This looks like an OpenAI key/);
    expect(tab.chat.store.getState().config.provider).toBe('openai');
    expect(tab.provider.built).toHaveLength(builtBefore);

    tab.chat.confirmKey(claudeWithOpenAiKey);
    expect(tab.chat.keyWarning(claudeWithOpenAiKey)).toBeNull();
    // Confirmed for this key and provider only.
    expect(tab.chat.keyWarning({ ...claudeWithOpenAiKey, provider: 'groq' })).toBe(
      'This looks like an OpenAI key',
    );
    expect((await tab.chat.checkConnection(claudeWithOpenAiKey)).ok).toBe(true);
    expect(tab.chat.saveConfiguration(claudeWithOpenAiKey)).toBeNull();
    expect(tab.chat.store.getState().config).toEqual(claudeWithOpenAiKey);
  });

  it("passes a key of the provider's own shape, and a connection's saved key", async () => {
    expect(tab.chat.keyWarning({ ...claudeWithOpenAiKey, apiKey: 'sk-ant-key' })).toBeNull();
    expect(tab.chat.keyWarning({ ...config, apiKey: 'plain-key' })).toBeNull();
  });
});

describe('an OpenAI-compatible endpoint', () => {
  it('is tested with its base URL alone, its models listed, and not saved without a model', async () => {
    tab.provider.provider.listModels = () =>
      Promise.resolve([
        { id: 'llama3.2:latest', capabilities: {} },
        { id: 'qwen3:8b', capabilities: {} },
      ]);
    const endpoint = { ...tab.chat.newEndpointDraft(config), baseUrl: 'http://localhost:11434/v1' };
    expect(await tab.chat.checkConnection(endpoint)).toMatchObject({
      ok: true,
      message: 'Connected: 2 models available.',
    });
    expect(tab.chat.store.getState().modelLists[modelListKey(endpoint)]?.map(({ id }) => id)).toEqual([
      'llama3.2:latest',
      'qwen3:8b',
    ]);
    expect(tab.chat.saveConfiguration(endpoint)).toMatch(/^Not saved: choose a model\./);
    expect(tab.chat.store.getState().config).toEqual(config);
    expect(tab.chat.saveConfiguration({ ...endpoint, model: 'qwen3:8b' })).toBeNull();
    expect(tab.chat.store.getState().config).toMatchObject({ provider: 'custom', model: 'qwen3:8b' });
  });
});

describe('reasoning and the figures of a reply', () => {
  const thinkingReply = () => {
    const reply = tab.provider.next();
    reply.push({ type: 'reasoning-delta', text: 'Adding ' });
    reply.push({ type: 'reasoning-delta', text: 'two and two.' });
    reply.push({ type: 'reasoning-end', signature: 'sig-1' });
    reply.push({ type: 'reasoning-redacted', data: 'hidden-1' });
    reply.push('4');
    reply.finish = {
      type: 'finish',
      reason: 'length',
      usage: { inputTokens: 120, outputTokens: 30, reasoningTokens: 20, totalTokens: 150 },
    };
    reply.end();
  };

  it('keeps the reasoning apart from the answer, with its signature, figures and how it ended', async () => {
    thinkingReply();
    expect(await tab.chat.send('2+2?')).toBe(true);
    await idle(tab);
    const reply = activePath(active(tab)).at(-1);
    expect(reply?.parts).toEqual([
      { type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' },
      { type: 'reasoning', text: '', signature: 'hidden-1', redacted: true },
      { type: 'text', text: '4' },
    ]);
    expect(messageText(reply as Message)).toBe('4');
    expect(reply?.stats).toMatchObject({
      usage: { inputTokens: 120, outputTokens: 30, reasoningTokens: 20, totalTokens: 150 },
      finishReason: 'length',
    });
    // The fake clock moves one millisecond per reading: thinking took the readings between.
    expect(reply?.stats?.firstTokenMs).toBeGreaterThan(0);
    expect(reply?.stats?.thinkingMs).toBeGreaterThan(0);
    expect(reply?.stats?.totalMs).toBeGreaterThan(reply?.stats?.firstTokenMs ?? 0);
    // Stored as it was shown, and read back the same.
    await vi.waitFor(async () => expect(activePath(await stored(tab)).at(-1)).toEqual(reply));
  });

  it('sends reasoning back only to the model that wrote it', async () => {
    thinkingReply();
    await tab.chat.send('2+2?');
    await idle(tab);
    await sendAndWait(tab, 'Sure?', 'Yes');
    expect(tab.provider.sent[1]?.[2]).toEqual({
      role: 'assistant',
      content: '4',
      reasoning: [
        { type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' },
        { type: 'reasoning', text: '', signature: 'hidden-1', redacted: true },
      ],
    });
    await tab.chat.pinModel(active(tab).id, { provider: 'openai', model: 'gpt-4.1' });
    await sendAndWait(tab, 'Another model?', 'Still 4');
    expect(tab.provider.sent[2]?.[2]).toEqual({ role: 'assistant', content: '4' });
  });

  it("asks with the conversation's reasoning effort, and without one after going back to the default", async () => {
    const id = active(tab).id;
    await tab.chat.setReasoningEffort(id, 'high');
    await sendAndWait(tab, 'Think hard', 'Done');
    expect((await stored(tab)).effort).toBe('high');
    await tab.chat.setReasoningEffort(id, null);
    await sendAndWait(tab, 'Now quickly', 'Done again');
    expect(tab.provider.efforts).toEqual(['high', undefined]);
  });

  it('Continue extends a reply cut off at the token limit, with no turn of its own', async () => {
    thinkingReply();
    await tab.chat.send('Write a lot');
    await idle(tab);
    const cut = activePath(active(tab)).at(-1);
    tab.provider.next(' and the rest.');
    await tab.chat.continueReply(active(tab).id, cut?.id ?? '');
    await idle(tab);
    expect(shown(tab)).toEqual(['user: Write a lot', 'assistant: 4 and the rest.']);
    const reply = activePath(active(tab)).at(-1);
    expect(reply?.id).toBe(cut?.id);
    // Its thinking stays; its figures are now those of the part that ended it.
    expect(reply?.parts[0]).toEqual({ type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' });
    expect(reply?.stats?.finishReason).toBeUndefined();
    // The model was asked with the reply so far, then to go on.
    expect(tab.provider.sent[1]?.slice(-2).map(({ role, content }) => `${role}: ${content}`)).toEqual([
      'assistant: 4',
      `user: ${continuePrompt}`,
    ]);
    await vi.waitFor(async () =>
      expect(activePath(await stored(tab)).map(messageText)).toEqual([
        'You are a helpful assistant.',
        'Write a lot',
        '4 and the rest.',
      ]),
    );
  });

  it('a Continue that fails before any text keeps the reply as it was', async () => {
    thinkingReply();
    await tab.chat.send('Write a lot');
    await idle(tab);
    const cut = activePath(active(tab)).at(-1);
    tab.provider
      .next()
      .push(new ProviderError({ provider: 'openai', kind: 'network', message: 'Connection lost' }));
    await tab.chat.continueReply(active(tab).id, cut?.id ?? '');
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toEqual(cut);
  });

  it('keeps a reply that ended normally with nothing in it, with its figures (filtered, or all hidden reasoning)', async () => {
    const reply = tab.provider.next();
    reply.finish = { type: 'finish', reason: 'length', usage: { outputTokens: 800, reasoningTokens: 800 } };
    reply.end();
    await tab.chat.send('Think forever');
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'text', text: '' }],
      stats: { usage: { outputTokens: 800, reasoningTokens: 800 }, finishReason: 'length' },
    });
  });

  it('keeps reasoning that arrived before a Stop, with no answer yet', async () => {
    const reply = tab.provider.next();
    reply.push({ type: 'reasoning-delta', text: 'Still thinking' });
    await tab.chat.send('Hard question');
    await vi.waitFor(() =>
      expect(activePath(active(tab)).at(-1)?.parts[0]).toEqual({ type: 'reasoning', text: 'Still thinking' }),
    );
    tab.chat.stop();
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({
      status: 'stopped',
      parts: [
        { type: 'reasoning', text: 'Still thinking' },
        { type: 'text', text: '' },
      ],
    });
  });
});
