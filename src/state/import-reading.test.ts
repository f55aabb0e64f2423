import { describe, expect, it } from 'vitest';
import { deflatedZeros, zipOf } from '../../tools/fixtures/zip-bomb.mjs';
import { messageText } from '../domain/conversation.ts';
import { maxJsonDepth } from '../domain/json-guards.ts';
import { activePath } from '../domain/message-tree.ts';
import { toConversation } from '../domain/other-apps/imported-chat.ts';
import { readImportFile } from './import-reading.ts';

const MiB = 1024 * 1024;
const now = new Date('2026-11-25T12:00:00.000Z');
const read = (file: Blob, as: 'any' | 'export' = 'any') => readImportFile(file, as, { now });
const json = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)]);

const chatGptMessage = (id: string, parent: string | null, parts: unknown[]) => ({
  id,
  parent,
  message: {
    author: { role: 'user' },
    create_time: 1756000001,
    content: { content_type: 'multimodal_text', parts },
  },
});
const imagePointer = (id: string) => ({
  content_type: 'image_asset_pointer',
  asset_pointer: `sediment://${id}`,
});
/** conversations.json of one chat whose question shows two images. */
const withImages = JSON.stringify([
  {
    id: 'pics',
    title: 'Pictures',
    create_time: 1756000000,
    mapping: { q: chatGptMessage('q', null, [imagePointer('file-one'), imagePointer('file-two'), 'Look']) },
  },
]);

describe('readImportFile', () => {
  it('gives our own export checked, its files as Blobs, the unreadable ones counted', async () => {
    const entry = (id: string, data: string) => ({
      id,
      kind: 'image',
      name: 'a.png',
      mimeType: 'image/png',
      size: 3,
      data,
    });
    const file = json({
      version: '2.0',
      conversations: [
        {
          id: 'c1',
          name: 'One',
          messages: [{ role: 'user', content: 'hi', attachments: [entry('f1', 'AQID'), entry('f2', '%%%')] }],
        },
      ],
    });
    const reading = await read(file);
    if (reading.type !== 'export' || !reading.read.ok) throw new Error(JSON.stringify(reading));
    expect(reading.read.data.conversations?.map((conversation) => conversation.name)).toEqual(['One']);
    expect(reading.read.data).not.toHaveProperty('files');
    expect([...reading.read.files.keys()]).toEqual(['f1']);
    expect(new Uint8Array(await (reading.read.files.get('f1') as Blob).arrayBuffer())).toEqual(
      new Uint8Array([1, 2, 3]),
    );
    expect(reading.read.unreadableFiles).toBe(1);
  });

  it('says why our own export is refused: cut short, or nested a million levels deep', async () => {
    const cut = JSON.stringify({ version: '2.0', conversations: [] }).slice(0, -3);
    expect(await read(json(cut))).toEqual({
      type: 'export',
      read: { ok: false, problem: expect.stringMatching(/^The file is not valid JSON: /) },
    });
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(await read(json(deep))).toEqual({
      type: 'export',
      read: {
        ok: false,
        problem: `The file is nested too deeply at ${'[0]'.repeat(20)}…: more than ${maxJsonDepth} levels, which no export has; nothing was imported`,
      },
    });
  });

  it('refuses a file larger than can be read, before reading it', async () => {
    const huge = Object.defineProperty(json('[]'), 'size', { value: 600 * MiB });
    expect(await read(huge)).toEqual({
      type: 'problem',
      message: 'The file is 600 MB, more than the 500 MB that can be read.',
    });
  });

  it('reads a backup as our own export only, never as another app’s', async () => {
    const reading = await read(json(withImages), 'export');
    expect(reading).toMatchObject({ type: 'export', read: { ok: false } });
  });

  it('refuses a ZIP whose conversations.json unpacks past its limit, naming both', async () => {
    const zip = zipOf([{ name: 'conversations.json', data: deflatedZeros(1200), unpacked: 1200 * MiB }]);
    expect(await read(new Blob([zip]))).toEqual({
      type: 'problem',
      message: "The ZIP file's conversations.json is larger than 500 MB unpacked, more than can be read.",
    });
  });

  it('reads a ChatGPT ZIP whose images unpack past their limit: left out and counted, their messages read [image]', async () => {
    const zip = zipOf([
      { name: 'conversations.json', data: new TextEncoder().encode(withImages) },
      { name: 'file-one-a.png', data: deflatedZeros(800), unpacked: 800 * MiB },
      { name: 'file-two-b.png', data: deflatedZeros(800), unpacked: 800 * MiB, streamed: true },
    ]);
    const reading = await read(new Blob([zip]));
    if (reading.type !== 'found') throw new Error(JSON.stringify(reading));
    expect(reading.found).toMatchObject({ app: 'ChatGPT export', skipped: 0 });
    expect(reading.images.size).toBe(0);
    expect(reading.imagesLeftOut).toEqual({ tooLarge: 2, overTotal: 0 });
    const [chat] = reading.found.chats;
    if (!chat) throw new Error('no chat');
    const [question] = activePath(toConversation(chat, 0)).slice(1);
    expect(question && messageText(question)).toBe('[image]\n\n[image]\n\nLook');
  });

  it('refuses a ZIP whose conversations.json carries a __proto__ key', async () => {
    const zip = zipOf([{ name: 'conversations.json', data: new TextEncoder().encode('[{"__proto__":{}}]') }]);
    expect(await read(new Blob([zip]))).toEqual({
      type: 'problem',
      message: 'The file contains a "__proto__" key at [0], which no export has; nothing was imported',
    });
  });

  it('reads a Claude.ai ZIP with its projects file; a projects file that does not read is left out, never the conversations', async () => {
    const encode = (value: unknown) =>
      new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
    const chats = [
      {
        uuid: 'c1',
        name: 'In a project',
        created_at: '2026-01-15T10:30:00Z',
        project_uuid: 'p1',
        chat_messages: [{ uuid: 'm1', sender: 'human', text: 'Hi' }],
      },
    ];
    const project = { uuid: 'p1', name: 'Thesis', prompt_template: 'Cite.', docs: [] };
    const zip = zipOf([
      { name: 'conversations.json', data: encode(chats) },
      { name: 'projects.json', data: encode([project]) },
      { name: 'projects/broken.json', data: encode('{"cut') },
      { name: 'projects/hostile.json', data: encode('{"__proto__":{"uuid":"x"}}') },
    ]);
    const reading = await read(new Blob([zip]));
    if (reading.type !== 'found') throw new Error(JSON.stringify(reading));
    expect(reading.projectsLeftOut).toBe(false);
    expect(reading.found.projects).toEqual([
      { id: 'claude-project-p1', name: 'Thesis', instructions: 'Cite.' },
    ]);
    expect(reading.found.chats.map((chat) => chat.project)).toEqual(['claude-project-p1']);
  });
});
