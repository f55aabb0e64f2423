import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { testConfigs } from './__fixtures__/configs.ts';
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
import type { ChatFile, ChatMessage } from './types.ts';

/** How each API carries a user's images and PDFs (docs/providers.md#attachments). */

const photo: ChatFile = { kind: 'image', name: 'cat.jpg', mimeType: 'image/jpeg', data: '/9j/4AAQ' };
const report: ChatFile = { kind: 'pdf', name: 'report.pdf', mimeType: 'application/pdf', data: 'JVBERi0x' };

const history: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What is this?', files: [photo, report] },
  { role: 'assistant', content: 'A cat and a report.' },
  { role: 'user', content: '', files: [photo] },
];

async function bodyOf(config: Config, stream: string) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  await drain(createChatProvider(config, { fetch }).chat({ messages: history }));
  return requests[0]?.body as { messages?: unknown; input?: unknown; contents?: unknown };
}

const chatCompletionsMessages = [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
      { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' } },
      { type: 'text', text: 'What is this?' },
    ],
  },
  { role: 'assistant', content: 'A cat and a report.' },
  // A turn of files alone has no empty text part.
  { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
];

describe('files in requests', () => {
  it.each([
    ['openai', openaiStream],
    ['azure', azureStream],
    ['groq', groqStream],
  ] as const)('%s: Chat Completions content parts (image_url objects, PDFs as file)', async (id, stream) => {
    expect((await bodyOf(testConfigs[id], stream)).messages).toEqual(chatCompletionsMessages);
  });

  it('an OpenAI reasoning model: Responses input_image (a string URL) and input_file items', async () => {
    const body = await bodyOf({ ...testConfigs.openai, model: 'gpt-5.4' }, openaiResponsesStream);
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' },
          { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' },
          { type: 'input_text', text: 'What is this?' },
        ],
      },
      { role: 'assistant', content: 'A cat and a report.' },
      { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' }] },
    ]);
  });

  it('Claude: base64 image and document blocks before the text', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } };
    expect((await bodyOf(testConfigs.claude, anthropicStream)).messages).toEqual([
      {
        role: 'user',
        content: [
          image,
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
            title: 'report.pdf',
          },
          { type: 'text', text: 'What is this?' },
        ],
      },
      { role: 'assistant', content: 'A cat and a report.' },
      { role: 'user', content: [image] },
    ]);
  });

  it('Gemini: inlineData parts with bare base64, then the text', async () => {
    const image = { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } };
    expect((await bodyOf(testConfigs.gemini, geminiStream)).contents).toEqual([
      {
        role: 'user',
        parts: [
          image,
          { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0x' } },
          { text: 'What is this?' },
        ],
      },
      { role: 'model', parts: [{ text: 'A cat and a report.' }] },
      { role: 'user', parts: [image] },
    ]);
  });

  it('a conversation without files keeps plain string content everywhere', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(openaiStream));
    await drain(
      createChatProvider(testConfigs.openai, { fetch }).chat({ messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect((requests[0]?.body as { messages: unknown }).messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });
});
