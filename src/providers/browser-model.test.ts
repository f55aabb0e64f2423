import { afterEach, describe, expect, it, vi } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { domError, fakeLanguageModel, type LanguageModelScript } from './__fixtures__/fake-language-model.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { browserPrompts } from './browser-model.ts';
import { isProviderError, type ProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage } from './types.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The browser's model with `script`, through the registry as the app makes it. */
function withModel(script: LanguageModelScript = {}) {
  const fake = fakeLanguageModel(script);
  vi.stubGlobal('LanguageModel', fake.api);
  return { fake, provider: createChatProvider(testConfigs.device) };
}

function providerError(error: unknown): ProviderError {
  if (!isProviderError(error)) throw new Error(`Expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('browserPrompts', () => {
  it('puts the system prompt first, the history next, and the last user turn as the prompt', () => {
    const { initialPrompts, prompt, images } = browserPrompts(conversation);
    expect(initialPrompts).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
    ]);
    expect(prompt).toBe('Tell me a joke');
    expect(images).toBe(false);
  });

  it('joins every system message into the one first system prompt; no system, none', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'Why?' },
    ];
    expect(browserPrompts(messages).initialPrompts).toEqual([
      { role: 'system', content: 'Be brief.\n\nAnswer in French.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(browserPrompts([{ role: 'user', content: 'Hi' }]).initialPrompts).toEqual([]);
  });

  it('leaves out a reply being continued: the web API has no prefill', () => {
    const { initialPrompts, prompt } = browserPrompts([
      ...conversation,
      { role: 'assistant', content: 'Why did' },
    ]);
    expect(initialPrompts).toHaveLength(3);
    expect(prompt).toBe('Tell me a joke');
  });

  it('sends images as Blobs before the text, and says the session must expect them', () => {
    const image = { kind: 'image' as const, name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const { prompt, images } = browserPrompts([{ role: 'user', content: 'What is this?', files: [image] }]);
    expect(images).toBe(true);
    expect(Array.isArray(prompt)).toBe(true);
    const [message] = prompt as { role: string; content: { type: string; value: unknown }[] }[];
    expect(message?.role).toBe('user');
    expect(message?.content.map(({ type }) => type)).toEqual(['image', 'text']);
    const blob = message?.content[0]?.value as Blob;
    expect(blob).toBeInstanceOf(Blob);
    expect([blob.type, blob.size]).toEqual(['image/png', 8]);
  });
});

describe('the browser-model client', () => {
  it('streams the deltas as they come, then finishes with the session’s own figures', async () => {
    const { fake, provider } = withModel({ chunks: ['Why ', 'did the ', 'chicken…'] });
    const result = await drain(provider.chat({ messages: conversation }));
    expect(result.error).toBeUndefined();
    expect(result.parts.filter((part) => part.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Why ' },
      { type: 'text-delta', text: 'did the ' },
      { type: 'text-delta', text: 'chicken…' },
    ]);
    // Initial prompts 5 + 1 + 5 words, the question 4, the reply 4.
    expect(result.finish).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { inputTokens: 15, outputTokens: 4, totalTokens: 19 },
    });
    // One session, made from the history, asked the question, then destroyed.
    expect(fake.creates).toHaveLength(1);
    expect(fake.creates[0]).toMatchObject({
      initialPrompts: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ],
      expectedInputs: [{ type: 'text' }],
      expectedOutputs: [{ type: 'text' }],
    });
    expect(fake.prompts).toEqual(['Tell me a joke']);
    expect(fake.destroyed()).toBe(1);
  });

  it('without measureContextUsage reports only the total it knows', async () => {
    const { provider } = withModel({ chunks: ['Hi there'], noMeasure: true });
    const { finish } = await drain(provider.chat({ messages: conversation }));
    expect(finish).toEqual({ type: 'finish', reason: 'stop', usage: { totalTokens: 17 } });
  });

  it('not streamed: the whole reply as one delta', async () => {
    const { provider } = withModel({ chunks: ['A', 'B'] });
    const { parts } = await drain(provider.chat({ messages: conversation, stream: false }));
    expect(parts.filter((part) => part.type === 'text-delta')).toEqual([{ type: 'text-delta', text: 'AB' }]);
  });

  it('stops at once when aborted mid-stream, keeps the text, throws kind aborted, destroys the session', async () => {
    const { fake, provider } = withModel({ chunks: ['Part', 'never'], holdAfter: 1 });
    const controller = new AbortController();
    let text = '';
    let caught: unknown;
    try {
      for await (const part of provider.chat({ messages: conversation, signal: controller.signal })) {
        if (part.type === 'text-delta') text += part.text;
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(text).toBe('Part');
    expect(providerError(caught).kind).toBe('aborted');
    expect(fake.destroyed()).toBe(1);
  });

  it('makes no session when the signal was aborted before', async () => {
    const { fake, provider } = withModel();
    const { error } = await drain(provider.chat({ messages: conversation, signal: AbortSignal.abort() }));
    expect(providerError(error).kind).toBe('aborted');
    expect(fake.creates).toHaveLength(0);
  });

  it('explains a conversation longer than the context window, with its size', async () => {
    const quota = domError('QuotaExceededError', 'The input is too large.', { requested: 5210, quota: 4096 });
    const { fake, provider } = withModel({ createError: quota });
    const error = providerError((await drain(provider.chat({ messages: conversation }))).error);
    expect(error.kind).toBe('invalid-request');
    expect(error.message).toBe(
      "The conversation is longer than the model's context window of 4,096 tokens (it needs 5,210): start a new conversation, or shorten this one.",
    );
    expect(error.retryable).toBe(false);
    expect(fake.destroyed()).toBe(0);
  });

  it('a quota error in the stream keeps the text before it and names the session’s window', async () => {
    const { fake, provider } = withModel({
      chunks: ['Some'],
      contextWindow: 6144,
      streamError: domError('QuotaExceededError', 'Too large.'),
    });
    const result = await drain(provider.chat({ messages: conversation }));
    expect(result.text).toBe('Some');
    expect(providerError(result.error).message).toMatch(/context window of 6,144 tokens: start a new/);
    expect(fake.destroyed()).toBe(1);
  });

  it.each([
    [
      'InvalidStateError',
      'server',
      "The browser's model session was lost before the reply finished: try again.",
    ],
    ['NotAllowedError', 'permission', /turned off by a policy or in its settings/],
    ['NotSupportedError', 'invalid-request', "The browser's model cannot take this request: Nope"],
    ['UnknownError', 'server', "The browser's model failed: Nope"],
  ])('maps %s to kind %s with a sentence', async (name, kind, message) => {
    const { provider } = withModel({ streamError: domError(name, 'Nope') });
    const error = providerError((await drain(provider.chat({ messages: conversation }))).error);
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });

  it('adds a notice when the conversation overflowed the window during the reply', async () => {
    const { provider } = withModel({ chunks: ['Ok'], overflow: true });
    const { parts } = await drain(provider.chat({ messages: conversation }));
    expect(parts.find((part) => part.type === 'notice')).toMatchObject({
      text: expect.stringMatching(/no longer saw its oldest messages/) as unknown,
    });
  });

  it('never starts the download itself: a model not yet downloaded is reported, no session made', async () => {
    for (const availability of ['downloadable', 'downloading'] as const) {
      const { fake, provider } = withModel({ availability: { text: availability } });
      const error = providerError((await drain(provider.chat({ messages: conversation }))).error);
      expect(error.message).toMatch(
        /not downloaded yet: in Settings, choose On this device and press Download/,
      );
      expect(fake.creates).toHaveLength(0);
    }
  });

  it('says when the model is unavailable, and when only images are', async () => {
    const unavailable = withModel({ availability: { text: 'unavailable' } });
    expect(
      providerError((await drain(unavailable.provider.chat({ messages: conversation }))).error).message,
    ).toBe(
      "The browser's model is not available on this device: the hardware does not meet the model's needs, or the browser has turned it off.",
    );
    const image = { kind: 'image' as const, name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const textOnly = withModel({ availability: { text: 'available', image: 'unavailable' } });
    const messages: ChatMessage[] = [{ role: 'user', content: 'What is it?', files: [image] }];
    const error = providerError((await drain(textOnly.provider.chat({ messages }))).error);
    expect(error.message).toMatch(/does not take images here/);
  });

  it('passes images where the model takes them', async () => {
    const { fake, provider } = withModel({ availability: { image: 'available' }, chunks: ['A cat'] });
    const image = { kind: 'image' as const, name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const { error } = await drain(
      provider.chat({ messages: [{ role: 'user', content: 'What?', files: [image] }] }),
    );
    expect(error).toBeUndefined();
    expect(fake.creates[0]?.expectedInputs).toEqual([{ type: 'text' }, { type: 'image' }]);
  });

  it('lists its one model with its context window and whether it takes images', async () => {
    const { fake, provider } = withModel({ contextWindow: 9216, availability: { image: 'available' } });
    expect(await provider.listModels()).toEqual([
      { id: 'built-in', capabilities: { images: true, contextWindow: 9216 } },
    ]);
    expect(fake.destroyed()).toBe(1);
    // Not downloaded: the model without figures, and no session (that would start the download).
    const later = withModel({ availability: { text: 'downloadable' } });
    expect(await later.provider.listModels()).toEqual([{ id: 'built-in', capabilities: {} }]);
    expect(later.fake.creates).toHaveLength(0);
  });

  it('does not crash where the browser has no LanguageModel: it says so', async () => {
    const provider = createChatProvider(testConfigs.device);
    const error = providerError((await drain(provider.chat({ messages: conversation }))).error);
    expect([error.provider, error.kind]).toEqual(['device', 'not-found']);
    expect(error.message).toMatch(/^On this device is not available in this browser/);
    expect(providerError(await provider.listModels().catch((caught: unknown) => caught)).kind).toBe(
      'not-found',
    );
  });
});
