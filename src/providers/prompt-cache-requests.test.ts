import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { conversation, testConfigs, type HttpProviderId } from './__fixtures__/configs.ts';
import { drain, fakeFetch, streamResponse } from './__fixtures__/fake-fetch.ts';
import { openaiResponsesStream } from './__fixtures__/reasoning-streams.ts';
import {
  anthropicStream,
  azureStream,
  geminiStream,
  groqStream,
  openaiStream,
} from './__fixtures__/streams.ts';
import { createChatProvider } from './registry.ts';
import type { ChatFile, ChatMessage, ChatRequest } from './types.ts';

/** A project's shared prefix and cache key in request bodies (docs/providers.md#prompt-caching-projects). */

const photo: ChatFile = { kind: 'image', name: 'cat.jpg', mimeType: 'image/jpeg', data: '/9j/4AAQ' };
const report: ChatFile = { kind: 'pdf', name: 'report.pdf', mimeType: 'application/pdf', data: 'JVBERi0x' };
const notes: ChatFile = { kind: 'image', name: 'notes.png', mimeType: 'image/png', data: 'iVBORw0K' };

const instructions = 'Project: answer in French.';
const prompt = `${instructions}\n\nYou are a helpful assistant.`;

/** A project conversation: instructions ahead of the system prompt, two project files ahead of the user's own. */
const project: ChatMessage[] = [
  { role: 'system', content: prompt, sharedPrefix: { text: instructions.length } },
  { role: 'user', content: 'Compare them', files: [photo, report, notes], sharedPrefix: { files: 2 } },
];

/** The same messages without their sharedPrefix. */
function unmarked(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    const copy = { ...message };
    delete copy.sharedPrefix;
    return copy;
  });
}

// The browser's own model sends no body: nothing to cache.
const streams: Record<HttpProviderId, string> = {
  openai: openaiStream,
  azure: azureStream,
  claude: anthropicStream,
  gemini: geminiStream,
  groq: groqStream,
  custom: openaiStream,
};

async function bodyOf(
  config: Config,
  request: ChatRequest,
  stream = streams[config.provider as HttpProviderId],
) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  await drain(createChatProvider(config, { fetch }).chat(request));
  expect(requests).toHaveLength(1);
  return requests[0]?.body as Record<string, unknown>;
}

const reasoningModel = { ...testConfigs.openai, model: 'gpt-5.4' };

describe('prompt caching: a request without a shared prefix or a key is unchanged', () => {
  const plain = conversation.map(({ role, content }) => ({ role, content }));
  it.each(Object.keys(streams) as HttpProviderId[])('%s', async (id) => {
    const withFields = await bodyOf(testConfigs[id], {
      messages: conversation.map((message, index) =>
        // sharedPrefix on a message the provider ignores, and no key: as if neither were there.
        index === 0 && id !== 'claude' ? { ...message, sharedPrefix: { text: 4 } } : message,
      ),
    });
    expect(JSON.stringify(withFields)).toBe(
      JSON.stringify(await bodyOf(testConfigs[id], { messages: plain })),
    );
    expect(JSON.stringify(withFields)).not.toMatch(/cache_control|prompt_cache_key|sharedPrefix/);
  });

  it('the Responses API too', async () => {
    const body = await bodyOf(reasoningModel, { messages: conversation }, openaiResponsesStream);
    expect(body).not.toHaveProperty('prompt_cache_key');
  });

  it('Claude keeps a plain string system prompt and unmarked file blocks', async () => {
    const body = await bodyOf(testConfigs.claude, {
      messages: unmarked(project),
    });
    expect(body.system).toBe(prompt);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });
});

describe('prompt caching: OpenAI gets prompt_cache_key', () => {
  it('Chat Completions: the key at the end of the body, nothing else changed', async () => {
    const plain = await bodyOf(testConfigs.openai, { messages: conversation });
    const keyed = await bodyOf(testConfigs.openai, { messages: conversation, cacheKey: 'project-1' });
    expect(keyed).toEqual({ ...plain, prompt_cache_key: 'project-1' });
    expect(Object.keys(keyed).at(-1)).toBe('prompt_cache_key');
  });

  it('the Responses API (a reasoning model, and web search on a chat model)', async () => {
    const plain = await bodyOf(reasoningModel, { messages: conversation }, openaiResponsesStream);
    const keyed = await bodyOf(
      reasoningModel,
      { messages: conversation, cacheKey: 'project-1' },
      openaiResponsesStream,
    );
    expect(keyed).toEqual({ ...plain, prompt_cache_key: 'project-1' });
    const searching = await bodyOf(
      testConfigs.openai,
      { messages: conversation, webSearch: true, cacheKey: 'project-1' },
      openaiResponsesStream,
    );
    expect(searching).toMatchObject({ tools: [{ type: 'web_search' }], prompt_cache_key: 'project-1' });
  });

  it('an empty key is not sent', async () => {
    const body = await bodyOf(testConfigs.openai, { messages: conversation, cacheKey: '' });
    expect(body).not.toHaveProperty('prompt_cache_key');
  });

  it('the project messages go as they would without their sharedPrefix', async () => {
    const keyed = await bodyOf(testConfigs.openai, { messages: project, cacheKey: 'project-1' });
    const plain = await bodyOf(testConfigs.openai, {
      messages: unmarked(project),
    });
    expect(keyed).toEqual({ ...plain, prompt_cache_key: 'project-1' });
  });
});

describe('prompt caching: Azure, Groq, compatible servers and Gemini get nothing', () => {
  it.each(['azure', 'groq', 'custom', 'gemini'] as const)('%s', async (id) => {
    const plain = await bodyOf(testConfigs[id], {
      messages: unmarked(project),
    });
    const keyed = await bodyOf(testConfigs[id], { messages: project, cacheKey: 'project-1' });
    expect(JSON.stringify(keyed)).toBe(JSON.stringify(plain));
  });

  it('an Azure reasoning deployment (Chat Completions, never Responses) neither', async () => {
    const config = { ...testConfigs.azure, deploymentName: 'o3' };
    const body = await bodyOf(config, { messages: conversation, cacheKey: 'project-1' });
    expect(body).not.toHaveProperty('prompt_cache_key');
  });
});

describe('prompt caching: Claude marks where the shared prefix ends', () => {
  const claude = testConfigs.claude;
  const ephemeral = { type: 'ephemeral' };
  const imageBlock = (file: ChatFile) => ({
    type: 'image',
    source: { type: 'base64', media_type: file.mimeType, data: file.data },
  });
  const reportBlock = {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
    title: 'report.pdf',
  };
  const count = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;

  it('in the system prompt: two text blocks split there, the marker on the first; no key is sent', async () => {
    const body = await bodyOf(claude, { messages: project.slice(0, 1).concat(conversation.slice(1)) });
    expect(body.system).toEqual([
      { type: 'text', text: instructions, cache_control: ephemeral },
      { type: 'text', text: '\n\nYou are a helpful assistant.' },
    ]);
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(count(body)).toBe(1);
  });

  it('a prefix that is the whole system prompt (or more) sends one block, never an empty one', async () => {
    for (const text of [prompt.length, prompt.length + 10]) {
      const body = await bodyOf(claude, {
        messages: [{ role: 'system', content: prompt, sharedPrefix: { text } }, ...conversation.slice(1)],
      });
      expect(body.system).toEqual([{ type: 'text', text: prompt, cache_control: ephemeral }]);
    }
  });

  it('a blank rest is left out; a blank or empty prefix marks nothing', async () => {
    const trailing = await bodyOf(claude, {
      messages: [
        { role: 'system', content: `${instructions}\n\n`, sharedPrefix: { text: instructions.length } },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(trailing.system).toEqual([{ type: 'text', text: instructions, cache_control: ephemeral }]);
    for (const [content, text] of [
      [`  \n${instructions}`, 2],
      [prompt, 0],
    ] as const) {
      const body = await bodyOf(claude, {
        messages: [
          { role: 'system', content, sharedPrefix: { text } },
          { role: 'user', content: 'Hi' },
        ],
      });
      expect(body.system).toBe(content);
      expect(count(body)).toBe(0);
    }
  });

  it("in a user turn: the marker on the block of its k-th file; only the last message's prefix counts", async () => {
    const body = await bodyOf(claude, { messages: project });
    // The user turn's mark is the last: the system prompt stays a string.
    expect(body.system).toBe(prompt);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          imageBlock(photo),
          { ...reportBlock, cache_control: ephemeral },
          imageBlock(notes),
          { type: 'text', text: 'Compare them' },
        ],
      },
    ]);
    expect(count(body)).toBe(1);
  });

  it('the first file, then later turns: the first user turn keeps its marker', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt },
      { role: 'user', content: 'What is this?', files: [photo], sharedPrefix: { files: 1 } },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'And now?', files: [photo] },
    ];
    const body = await bodyOf(claude, { messages });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { ...imageBlock(photo), cache_control: ephemeral },
          { type: 'text', text: 'What is this?' },
        ],
      },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: [imageBlock(photo), { type: 'text', text: 'And now?' }] },
    ]);
  });

  it('marks nothing when the marked file is not sent as a block, or the prefix does not fit its message', async () => {
    const cases: ChatMessage[][] = [
      // More files than the turn carries (the rest became text).
      [{ role: 'user', content: 'Hi', files: [photo], sharedPrefix: { files: 2 } }],
      [{ role: 'user', content: 'Hi', sharedPrefix: { files: 1 } }],
      [{ role: 'user', content: 'Hi', files: [photo], sharedPrefix: { files: 0 } }],
      // A kind that does not belong to the role.
      [{ role: 'user', content: 'Hi', files: [photo], sharedPrefix: { text: 2 } }],
      [
        { role: 'system', content: prompt, sharedPrefix: { files: 1 } },
        { role: 'user', content: 'Hi' },
      ],
      // A second system message is not the one sent.
      [
        { role: 'system', content: prompt },
        { role: 'system', content: prompt, sharedPrefix: { text: 5 } },
        { role: 'user', content: 'Hi' },
      ],
      // The last mark is on a turn that is not sent (an empty one); the earlier one does not count.
      [
        { role: 'system', content: prompt, sharedPrefix: { text: 5 } },
        { role: 'user', content: '', files: [], sharedPrefix: { files: 1 } },
        { role: 'user', content: 'Hi' },
      ],
    ];
    for (const messages of cases) expect(count(await bodyOf(claude, { messages }))).toBe(0);
  });

  it('with a long conversation: the shared prefix marker and the top-level one, two in all', async () => {
    const long = 'x'.repeat(5000);
    const body = await bodyOf(claude, {
      messages: [project[0] as ChatMessage, { role: 'user', content: long }],
    });
    expect(body).toMatchObject({
      system: [{ type: 'text', text: instructions, cache_control: ephemeral }, { type: 'text' }],
      cache_control: ephemeral,
    });
    expect(count(body)).toBe(2);
  });

  it('with thinking on and tools, the marker stays on the file block', async () => {
    const body = await bodyOf(
      { ...claude, model: 'claude-opus-4-8' },
      {
        messages: project,
        effort: 'high',
        tools: [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } }],
      },
    );
    expect(body.thinking).toMatchObject({ type: 'adaptive' });
    expect((body.messages as { content: unknown[] }[])[0]?.content[1]).toEqual({
      ...reportBlock,
      cache_control: ephemeral,
    });
    expect(count(body)).toBe(1);
  });
});
