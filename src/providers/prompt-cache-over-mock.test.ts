import { describe, expect, it } from 'vitest';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import { mockConfigs } from './__fixtures__/configs.ts';
import { pictureBase64 } from './__fixtures__/code-image-streams.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { createChatProvider } from './registry.ts';
import type { ChatFile, ChatMessage, ChatRequest } from './types.ts';
import type { Config } from '../domain/config.ts';

/**
 * A project's shared prefix and cache key over real HTTP against the loopback mock: what each
 * client sends, the mock (and each API) accepts; Claude's cache is written once and then read by
 * another conversation of the project (docs/providers.md#prompt-caching-projects).
 */

const mock = mockProvidersForThisFile();
const configFor = mockConfigs(() => mock().url);

const instructions = 'Project rules: answer in French, cite the files, keep it short.';
const picture: ChatFile = { kind: 'image', name: 'plan.png', mimeType: 'image/png', data: pictureBase64 };
const pdf: ChatFile = {
  kind: 'pdf',
  name: 'brief.pdf',
  mimeType: 'application/pdf',
  data: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF').toString('base64'),
};

/** A conversation of the project: its instructions, then this conversation's own prompt and question. */
function projectConversation(prompt: string, question: string): ChatMessage[] {
  return [
    { role: 'system', content: `${instructions}\n\n${prompt}`, sharedPrefix: { text: instructions.length } },
    { role: 'user', content: question, files: [picture, pdf], sharedPrefix: { files: 2 } },
  ];
}

/** This call's request (one: a field refused and sent again without it would show as two) and its usage. */
async function chat(config: Config, request: ChatRequest) {
  const sent = () => mock().requests.filter((logged) => logged.key === config.apiKey);
  const before = sent().length;
  const result = await drain(createChatProvider(config).chat(request));
  const bodies = sent()
    .slice(before)
    .map((logged) => logged.body as Record<string, unknown>);
  expect(bodies).toHaveLength(1);
  const finish = result.parts.find((part) => part.type === 'finish');
  return { ...result, body: bodies[0], usage: finish?.type === 'finish' ? finish.usage : undefined };
}

describe('prompt caching over HTTP', () => {
  it('OpenAI Chat Completions and Responses take prompt_cache_key', async () => {
    for (const model of ['gpt-4o', 'gpt-5.4']) {
      const config = configFor('openai', 'ok', { model });
      const result = await chat(config, { messages: projectConversation('Be brief.', 'Hi'), cacheKey: 'p1' });
      expect(result.error).toBeUndefined();
      expect(result.body).toMatchObject({ prompt_cache_key: 'p1' });
    }
  });

  it.each(['azure', 'groq', 'gemini'] as const)('%s is sent nothing of it and answers', async (id) => {
    const config = configFor(id, 'ok');
    const [system] = projectConversation('Be brief.', 'Hi');
    const messages = [system as ChatMessage, { role: 'user', content: 'Hi' } as const];
    const result = await chat(config, { messages, cacheKey: 'p1' });
    expect(result.error).toBeUndefined();
    expect(JSON.stringify(result.body)).not.toMatch(/prompt_cache_key|cache_control|sharedPrefix/);
  });

  it('Claude: the marked prefix is accepted, written by one conversation and read by the next', async () => {
    // One key: the same account asks for both conversations.
    const config = configFor('claude', 'ok');
    const messages = projectConversation('Be brief.', 'Hi');
    const first = await chat(config, {
      messages: messages.slice(0, 1).concat({ role: 'user', content: 'Hi' }),
    });
    expect(first.error).toBeUndefined();
    expect(first.body?.system).toEqual([
      { type: 'text', text: instructions, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '\n\nBe brief.' },
    ]);
    const written = first.usage?.cacheWriteTokens ?? 0;
    expect(written).toBeGreaterThan(0);
    expect(first.usage).toMatchObject({ cachedInputTokens: 0 });
    const second = await chat(config, {
      messages: [
        projectConversation('Be thorough.', '')[0] as ChatMessage,
        { role: 'user', content: 'Other' },
      ],
      stream: false,
    });
    expect(second.error).toBeUndefined();
    expect(second.usage).toMatchObject({ cachedInputTokens: written, cacheWriteTokens: 0 });
  });

  it("Claude: the marker on the user turn's second file is accepted and read back", async () => {
    const config = configFor('claude', 'ok');
    const first = await chat(config, { messages: projectConversation('Be brief.', 'Compare them') });
    expect(first.error).toBeUndefined();
    expect(first.body?.messages).toMatchObject([
      {
        content: [
          { type: 'image' },
          { type: 'document', title: 'brief.pdf', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Compare them' },
        ],
      },
    ]);
    const written = first.usage?.cacheWriteTokens ?? 0;
    expect(written).toBeGreaterThan(0);
    // The same system prompt and files, another question: everything up to the files is read.
    const second = await chat(config, { messages: projectConversation('Be brief.', 'Which is older?') });
    expect(second.usage).toMatchObject({ cachedInputTokens: written, cacheWriteTokens: 0 });
  });

  it('Claude: a long project conversation carries both markers, and the mock accepts them', async () => {
    const config = configFor('claude', 'ok');
    const result = await chat(config, {
      messages: projectConversation('Be brief.', 'x '.repeat(2500)),
    });
    expect(result.error).toBeUndefined();
    expect(result.body).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(JSON.stringify(result.body).split('"cache_control"')).toHaveLength(3);
  });
});
