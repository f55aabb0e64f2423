import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messageText, reasoningParts } from '../conversation.ts';
import { validateConversation } from '../conversation-validation.ts';
import { conversationRecord } from '../conversation-record.ts';
import { activePath, siblingsOf } from '../message-tree.ts';
import type { AttachmentPart } from '../attachments.ts';
import { importedImageId, toConversation } from './imported-chat.ts';
import { readOtherAppExport } from './read-other-app.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
const now = new Date('2026-11-25T12:00:00.000Z');

function read(name: string) {
  const result = readOtherAppExport(fixture(name), now);
  if (!result) throw new Error(`${name} not recognised`);
  const conversations = result.chats.map((chat, index) => toConversation(chat, index));
  // What the app stores and reads back must be a valid conversation.
  for (const conversation of conversations) {
    const back = validateConversation(conversationRecord(conversation), 'record', {
      now,
      fallbackProvider: 'openai',
    });
    expect(back.ok, JSON.stringify(back)).toBe(true);
  }
  return { ...result, conversations };
}

/** The value, or a failed test when it is missing. */
function must<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('missing');
  return value;
}

const shown = (conversation: ReturnType<typeof toConversation> | undefined) =>
  activePath(must(conversation)).map((message) => `${message.role}: ${messageText(message)}`);

describe('imports from other apps', () => {
  it('ChatGPT: the mapping becomes the tree, current_node the shown branch; hidden, system and tool messages left out', () => {
    const { app, conversations, skipped } = read('chatgpt-conversations.json');
    expect(app).toBe('ChatGPT export');
    expect(skipped).toBe(1);
    const [helm, cat] = conversations;
    expect(helm).toMatchObject({
      id: 'chatgpt-6b0f3c1e-0000-4000-8000-000000000001',
      name: 'Helm rollback',
      createdAt: new Date(1756000000120).toISOString(),
      updatedAt: new Date(1756000400650).toISOString(),
      provider: 'openai',
      activeLeafId: 'a1b',
    });
    expect(shown(must(helm))).toEqual([
      'system: You are a helpful assistant.',
      'user: How do I roll back a Helm release?',
      'assistant: ```bash\nhelm rollback my-app 3\n```',
    ]);
    const reply = must(must(helm).messages.find((message) => message.id === 'a1b'));
    expect(siblingsOf(must(helm), reply.id)).toMatchObject({ index: 1 });
    expect(siblingsOf(must(helm), reply.id).siblings.map((message) => message.id)).toEqual(['a1', 'a1b']);
    expect(must(helm).messages.map((message) => message.id)).toEqual([
      'chatgpt-6b0f3c1e-0000-4000-8000-000000000001:root',
      'u1',
      'a1',
      'a1b',
      'u2',
      'a2',
    ]);
    expect(must(helm).messages.find((message) => message.id === 'a2')?.model).toBe('gpt-4o');
    expect(shown(must(cat))[1]).toBe('user: [image]\n\nWhat breed is this <script>alert(1)</script> cat?');
  });

  it('ChatGPT: an image whose file came with the export becomes the message’s attachment, before its text', () => {
    const parsed = readOtherAppExport(fixture('chatgpt-conversations.json'), now);
    const chat = must(parsed?.chats.find((entry) => entry.name === 'Photo of a cat'));
    const question = must(chat.messages.find((message) => message.images));
    expect(question.images).toEqual(['file-abc']);
    const image: AttachmentPart = {
      type: 'attachment',
      id: importedImageId(chat, 'file-abc'),
      kind: 'image',
      name: 'file-abc-cat.png',
      mimeType: 'image/png',
      size: 68,
      width: 1,
      height: 1,
    };
    const conversation = toConversation(chat, 0, new Map([['file-abc', image]]));
    const shownQuestion = must(conversation.messages.find((message) => message.id === question.id));
    expect(shownQuestion.parts).toEqual([
      image,
      { type: 'text', text: 'What breed is this <script>alert(1)</script> cat?' },
    ]);
    expect(image.id).toBe(`${chat.id}:file-abc`);
  });

  it("Claude.ai: branches by parent uuid, the newest leaf shown, thinking kept apart, files' text kept", () => {
    const { app, conversations, skipped } = read('claude-conversations.json');
    expect(app).toBe('Claude.ai export');
    expect(skipped).toBe(1);
    const [trip, untitled] = conversations;
    expect(trip).toMatchObject({
      id: 'claude-c1a2b3c4-0000-4000-8000-000000000001',
      name: 'Trip plan',
      provider: 'claude',
    });
    expect(shown(must(trip))).toEqual([
      'system: You are a helpful assistant.',
      'user: <file name="notes.txt">\nMust see: the Pantheon.\n</file>\n\nPlan 3 days in Rome',
      'assistant: Day 1: the Vatican.',
      'user: And day 2?',
      'assistant: Day 2: Trastevere.',
    ]);
    const colosseum = must(must(trip).messages.find((message) => message.id === 'm2'));
    expect(reasoningParts(colosseum).map((part) => part.text)).toEqual([
      'Three days; start with the ancient sites.',
    ]);
    expect(messageText(colosseum)).toBe('Day 1: the Colosseum.');
    expect(must(untitled).name).toBe('Imported conversation');
    expect(shown(must(untitled))).toEqual([
      'system: You are a helpful assistant.',
      'user: Hello',
      'assistant: Hi! How can I help?',
    ]);
  });

  it('BetterChatGPT: linear chats, a leading system message as the prompt, the current and the older form', () => {
    const { app, conversations, skipped } = read('betterchatgpt-export.json');
    expect(app).toBe('BetterChatGPT export');
    expect(skipped).toBe(1);
    expect(conversations.map((conversation) => conversation.name)).toEqual(['Regex help', 'Haiku']);
    expect(shown(must(conversations[0]))).toEqual([
      'system: You are a regex expert.',
      'user: Match an email address?',
      'assistant: Try `^[^@\\s]+@[^@\\s]+$`.',
    ]);
    expect(activePath(must(conversations[0])).at(-1)?.model).toBe('gpt-4o');
    const legacy = readOtherAppExport(
      [{ title: 'Old', folder: 'Work', messages: [{ role: 'user', content: 'hi' }] }],
      now,
    );
    expect(legacy?.app).toBe('BetterChatGPT export');
    expect(legacy?.chats[0]?.id).toBe('bettergpt-0');
  });

  it('NextChat: sessions with their mask context, content parts, lenient dates; the API keys are never read', () => {
    const { app, conversations, skipped } = read('nextchat-backup.json');
    expect(app).toBe('NextChat backup');
    expect(skipped).toBe(1);
    const [regex, empty] = conversations;
    expect(regex).toMatchObject({ id: 'nextchat-s1', name: 'Regex help', provider: 'claude' });
    expect(shown(must(regex))).toEqual([
      'system: You write regular expressions.',
      'user: Match digits',
      'assistant: Use `\\d+`.',
      'user: And in this screenshot?\n\n[image]',
      'assistant: The same pattern works.',
    ]);
    expect(activePath(must(regex))[1]?.createdAt).toBe(new Date(2026, 6, 6, 10, 0, 0).toISOString());
    expect(must(empty).messages).toHaveLength(1);
    expect(JSON.stringify(conversations)).not.toContain('sk-');
  });

  it('recognises none of them in our own format or in anything else', () => {
    expect(readOtherAppExport({ version: '2.0', conversations: [] }, now)).toBeNull();
    expect(readOtherAppExport([], now)).toBeNull();
    expect(readOtherAppExport('text', now)).toBeNull();
    expect(readOtherAppExport([{ title: 'x' }], now)).toBeNull();
  });

  it('counts a conversation whose parents loop, or one with an absurd date, as unreadable; the others read', () => {
    const result = readOtherAppExport(
      [
        {
          id: 'cyc',
          create_time: 1756000000,
          mapping: {
            x: {
              parent: 'y',
              message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['x'] } },
            },
            y: {
              parent: 'x',
              message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: ['y'] } },
            },
          },
        },
        {
          id: 'self',
          create_time: 1756000000,
          mapping: {
            z: {
              parent: 'z',
              message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['z'] } },
            },
          },
        },
        {
          id: 'proto',
          create_time: 1756000000,
          mapping: { ['__proto__']: { parent: null, message: null }, a: chatGptNode('a', null, 'user') },
        },
        { id: 'late', create_time: 1e15, mapping: {} },
      ],
      now,
    );
    expect(result?.skipped).toBe(3);
    const conversation = toConversation(must(must(result).chats[0]), 0);
    expect(shown(conversation)).toEqual(['system: You are a helpful assistant.', 'user: a']);
  });

  it('ChatGPT: a 1,000-node parent cycle and a 200,000-node parent chain are two unreadable entries; the good one imports', () => {
    const cycle: Record<string, unknown> = {};
    for (let index = 0; index < 1000; index++)
      cycle[`c${index}`] = { parent: `c${(index + 1) % 1000}`, message: null };
    cycle.leaf = chatGptNode('leaf', 'c0', 'user');
    // Empty nodes down to one message: the walk to its nearest kept ancestor is the whole chain.
    const chain: Record<string, unknown> = { n0: { parent: null, message: null } };
    for (let index = 1; index < 200_000; index++)
      chain[`n${index}`] = { parent: `n${index - 1}`, message: null };
    chain.leaf = chatGptNode('leaf', 'n199999', 'user');
    const good = {
      q: chatGptNode('q', null, 'user'),
      a: chatGptNode('a', 'q', 'assistant'),
    };
    const entry = (id: string, mapping: unknown) => ({ id, create_time: 1756000000, mapping });
    const result = must(
      readOtherAppExport([entry('cycle', cycle), entry('chain', chain), entry('good', good)], now),
    );
    expect(result.skipped).toBe(2);
    expect(result.chats.map((chat) => chat.id)).toEqual(['chatgpt-good']);
    expect(shown(toConversation(must(result.chats[0]), 0))).toEqual([
      'system: You are a helpful assistant.',
      'user: q',
      'assistant: a',
    ]);
  });

  it('ChatGPT: a chain of 20,000 messages, and 150,000 answers to one question, still read', () => {
    const long: Record<string, unknown> = {};
    for (let index = 0; index < 20_000; index++)
      long[`m${index}`] = chatGptNode(`m${index}`, index === 0 ? null : `m${index - 1}`, 'user');
    const wide: Record<string, unknown> = { q: chatGptNode('q', null, 'user') };
    for (let index = 0; index < 150_000; index++)
      wide[`a${index}`] = chatGptNode(`a${index}`, 'q', 'assistant');
    const entry = (id: string, mapping: unknown) => ({ id, create_time: 1756000000, mapping });
    const result = must(readOtherAppExport([entry('long', long), entry('wide', wide)], now));
    expect(result.skipped).toBe(0);
    const [chain, fan] = result.chats.map((chat, index) => toConversation(chat, index));
    expect(activePath(must(chain))).toHaveLength(20_001);
    expect(must(fan).messages).toHaveLength(150_002);
  });
});

/** A ChatGPT mapping node holding a message whose text is its id. */
function chatGptNode(id: string, parent: string | null, role: 'user' | 'assistant') {
  return { id, parent, message: { author: { role }, content: { content_type: 'text', parts: [id] } } };
}
