import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  attachmentParts,
  messageText,
  reasoningParts,
  toolCallParts,
  toolResultParts,
  type Conversation,
  type MessagePart,
} from '../conversation.ts';
import { toolPartLimits, validateConversation } from '../conversation-validation.ts';
import { conversationRecord } from '../conversation-record.ts';
import { activePath, siblingsOf } from '../message-tree.ts';
import type { AttachmentPart } from '../attachments.ts';
import { importedImageId, toConversation, type ImportedChat } from './imported-chat.ts';
import { readOtherAppExport } from './read-other-app.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
const now = new Date('2026-11-25T12:00:00.000Z');

/** What the app stores and reads back must be a valid conversation, every message's parts as they were. */
function expectStored(conversation: Conversation) {
  const back = validateConversation(conversationRecord(conversation), 'record', {
    now,
    fallbackProvider: 'openai',
  });
  expect(back.ok, JSON.stringify(back)).toBe(true);
  if (!back.ok) return;
  const stored = new Map(back.value.messages.map((message) => [message.id, message.parts]));
  for (const message of conversation.messages) expect(stored.get(message.id)).toEqual(message.parts);
}

function read(name: string) {
  const result = readOtherAppExport(fixture(name), now);
  if (!result) throw new Error(`${name} not recognised`);
  const conversations = result.chats.map((chat, index) => toConversation(chat, index));
  for (const conversation of conversations) expectStored(conversation);
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
  it('ChatGPT: the mapping becomes the tree, current_node the shown branch; hidden and system messages, and a tool output answering no call, left out', () => {
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

/** A message of a conversation by id, or a failed test. */
const messageOf = (conversation: Conversation | undefined, id: string) =>
  must(must(conversation).messages.find((message) => message.id === id));

/** A tool's image as the import stores it (import-work.ts), for a chat whose export came with its file. */
function storedImage(chat: ImportedChat, image: string): AttachmentPart {
  return {
    type: 'attachment',
    id: importedImageId(chat, image),
    kind: 'image',
    name: `${image}-picture.png`,
    mimeType: 'image/png',
    size: 68,
    width: 1,
    height: 1,
  };
}

describe('tool calls imported from other apps', () => {
  it('exports without tools read exactly as before; the one reply that used a tool now keeps it', () => {
    // What these fixtures imported as before tools were read (toConversation's output, by fixture).
    const before = fixture('imported-before-tools.json') as Record<string, Conversation[]>;
    for (const name of [
      'chatgpt-conversations.json',
      'claude-conversations.json',
      'betterchatgpt-export.json',
      'nextchat-backup.json',
    ]) {
      const expected = must(before[name]);
      if (name === 'claude-conversations.json') {
        // Claude's m5 held a `tool_use` and a `tool_result` (an older export: no ids, an empty
        // result), which were left out; they are its parts now, in order, before its text.
        const m5 = messageOf(expected[0], 'm5');
        expect(m5.parts).toEqual([{ type: 'text', text: 'Day 2: Trastevere.' }]);
        m5.parts = [
          { type: 'tool-call', callId: 'call-1', name: 'web_search', arguments: '{"query":"Rome day 2"}' },
          { type: 'tool-result', callId: 'call-1', name: 'web_search', content: [] },
          { type: 'text', text: 'Day 2: Trastevere.' },
        ];
      }
      expect(read(name).conversations, name).toEqual(expected);
    }
  });

  it('ChatGPT: a python call and its output, chart included, fold into the reply around them', () => {
    const { conversations, skipped } = read('chatgpt-tools.json');
    expect(skipped).toBe(0);
    const plot = must(conversations[0]);
    expect(plot.messages.map((message) => message.id)).toEqual([
      'chatgpt-7c3e9a10-0000-4000-8000-000000000001:root',
      'u1',
      'r1',
      'a1',
    ]);
    // current_node (a3) is in the reply a1 begins; the earlier answer stays its sibling.
    expect(plot.activeLeafId).toBe('a1');
    expect(siblingsOf(plot, 'a1').siblings.map((message) => message.id)).toEqual(['r1', 'a1']);
    const reply = messageOf(plot, 'a1');
    expect(reply).toMatchObject({ role: 'assistant', model: 'gpt-4o', parentId: 'u1' });
    expect(reply.parts).toEqual([
      { type: 'text', text: 'Let me plot it.' },
      {
        type: 'tool-call',
        callId: 'a2',
        name: 'python',
        // The code as the model sent it, not wrapped in JSON (see chatgpt.ts, callArguments).
        arguments:
          'import matplotlib.pyplot as plt\nxs = range(4)\nplt.plot(xs, [x**2 for x in xs])\nplt.show()\n3**2',
      },
      // The chart's file is not in conversations.json alone: it is named.
      {
        type: 'tool-result',
        callId: 'a2',
        name: 'python',
        content: [
          { type: 'text', text: '9' },
          { type: 'text', text: '[image]' },
        ],
      },
      { type: 'text', text: 'At x = 3, y = 9; the chart is above.' },
    ]);
    expect(messageText(reply)).toBe('Let me plot it.\n\nAt x = 3, y = 9; the chart is above.');
    expect(reply.parts.some((part) => 'server' in part || 'providerData' in part)).toBe(false);
    expect(shown(plot)).toEqual([
      'system: You are a helpful assistant.',
      'user: Plot y = x² for x from 0 to 3 and tell me y at 3.',
      'assistant: Let me plot it.\n\nAt x = 3, y = 9; the chart is above.',
    ]);
  });

  it('ChatGPT: a web.run search keeps its sources; thoughts, the spinner and a hidden tool message stay hidden', () => {
    const weather = must(read('chatgpt-tools.json').conversations[1]);
    expect(weather.messages.map((message) => message.id)).toEqual([
      'chatgpt-690bc613-0000-4000-8000-000000000002:root',
      'u1',
      'c1',
    ]);
    expect(weather.activeLeafId).toBe('c1');
    const reply = messageOf(weather, 'c1');
    expect(reply).toMatchObject({
      model: 'gpt-5-thinking',
      createdAt: new Date(1762379319000).toISOString(),
    });
    expect(reply.parts).toEqual([
      {
        type: 'tool-call',
        callId: 'c1',
        name: 'web.run',
        arguments: '{"search_query": [{"q": "Lisbon weather today"}], "response_length": "short"}',
      },
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'web.run',
        content: [
          {
            type: 'text',
            text:
              'Lisbon forecast - IPMA\nhttps://www.ipma.pt/en/otempo/prev.localidade.hora/\n' +
              'Today: sunny, max 18 °C, min 11 °C.\n\n' +
              'Lisbon Weather Today\nhttps://weather.com/weather/today/l/Lisbon\nSunny. High 18C.',
          },
        ],
      },
      { type: 'text', text: 'It is sunny in Lisbon today, up to 18 °C.' },
    ]);
    const everything = JSON.stringify(weather);
    for (const hidden of [
      'Cite each source', // a tool message marked hidden
      'Answer in one sentence', // the custom instructions
      'I should search', // the thoughts
      'Thought for 8s', // their recap
    ])
      expect(everything).not.toContain(hidden);
  });

  it("ChatGPT: DALL·E's image is the result's image when its file came with the export, its note after it", () => {
    const parsed = must(readOtherAppExport(fixture('chatgpt-tools.json'), now));
    const chat = must(parsed.chats.find((entry) => entry.name === 'A lighthouse at dusk'));
    const imported = must(chat.messages.find((message) => message.id === 'a1'));
    // The import stores the files a message's images name, its tools' included.
    expect(imported.images).toEqual(['file-Dalle1']);
    const image = storedImage(chat, 'file-Dalle1');
    const conversation = toConversation(chat, 0, new Map([['file-Dalle1', image]]));
    expectStored(conversation);
    const reply = messageOf(conversation, 'a1');
    expect(attachmentParts(reply)).toEqual([]);
    expect(toolCallParts(reply)).toEqual([
      {
        type: 'tool-call',
        callId: 'a1',
        name: 'dalle.text2im',
        arguments: '{\n  "size": "1024x1024",\n  "prompt": "A lighthouse at dusk, oil painting"\n}',
      },
    ]);
    const [result] = toolResultParts(reply);
    expect(must(result).content[0]).toEqual({ type: 'image', attachmentId: image.id, mimeType: 'image/png' });
    expect(must(result).content[1]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^DALL·E displayed 1 images/),
    });
    expect(reply.parts.at(-1)).toEqual({ type: 'text', text: 'Here is your lighthouse at dusk.' });
  });

  it('ChatGPT: a failed run is an error result, a call the user stopped keeps no result, a file read in without a call is left out', () => {
    const log = must(read('chatgpt-tools.json').conversations[3]);
    // The file_search quote (a tool message answering no call) is not a message: the reply hangs on the question.
    expect(log.messages.map((message) => `${message.id}<${message.parentId}`)).toEqual([
      'chatgpt-9a8b7c60-0000-4000-8000-000000000004:root<null',
      'u1<chatgpt-9a8b7c60-0000-4000-8000-000000000004:root',
      'c1<u1',
    ]);
    expect(JSON.stringify(log)).not.toContain('GET /a 404');
    const reply = messageOf(log, 'c1');
    expect(reply.parts.map((part) => part.type)).toEqual(['tool-call', 'tool-result', 'text', 'tool-call']);
    expect(toolResultParts(reply)).toEqual([
      {
        type: 'tool-result',
        callId: 'c1',
        name: 'python',
        content: [{ type: 'text', text: expect.stringContaining('FileNotFoundError: [Errno 2]') }],
        isError: true,
      },
    ]);
    expect(toolCallParts(reply).map((call) => call.callId)).toEqual(['c1', 'c2']);
    expect(log.activeLeafId).toBe('c1');
  });

  it('ChatGPT: names and outputs are kept as written within what a stored reply holds; replies without tools stay a message per node', () => {
    const longName = `plugin_${'x'.repeat(300)}.run`;
    const node = (id: string, parent: string | null, message: Record<string, unknown>) => ({
      id,
      parent,
      message,
    });
    const mapping = (output: string) => ({
      u: node('u', null, { author: { role: 'user' }, content: { content_type: 'text', parts: ['Go'] } }),
      t1: node('t1', 'u', {
        author: { role: 'assistant' },
        content: { content_type: 'text', parts: ['First.'] },
      }),
      t2: node('t2', 't1', {
        author: { role: 'assistant' },
        content: { content_type: 'text', parts: ['Second.'] },
      }),
      c: node('c', 't2', {
        author: { role: 'assistant' },
        recipient: longName,
        content: { content_type: 'text', parts: ['y'.repeat(toolPartLimits.argumentsLength + 10)] },
      }),
      o: node('o', 'c', {
        author: { role: 'tool', name: longName },
        content: {
          content_type: 'multimodal_text',
          parts: [
            output,
            'more',
            'and more',
            ...Array.from({ length: toolPartLimits.resultPieces }, (_, index) => ({
              content_type: 'image_asset_pointer',
              asset_pointer: `sediment://file_${index}`,
            })),
          ],
        },
      }),
    });
    const imported = (output: string) => {
      const entry = { id: 'big', create_time: 1756000000, mapping: mapping(output) };
      const conversation = toConversation(must(must(readOtherAppExport([entry], now)).chats[0]), 0);
      expectStored(conversation);
      return conversation;
    };
    const conversation = imported('z'.repeat(toolPartLimits.resultLength - 2));
    expect(conversation.messages.map((message) => message.id)).toEqual(['chatgpt-big:root', 'u', 't1', 't2']);
    expect(messageOf(conversation, 't1').parts).toEqual([{ type: 'text', text: 'First.' }]);
    const reply = messageOf(conversation, 't2');
    const [call] = toolCallParts(reply);
    const [output] = toolResultParts(reply);
    expect(must(call).name).toBe(longName.slice(0, toolPartLimits.nameLength));
    expect(must(output).name).toBe(must(call).name);
    expect(must(call).arguments).toHaveLength(toolPartLimits.argumentsLength);
    const texts = must(output).content.map((piece) => (piece.type === 'text' ? piece.text.length : 0));
    expect(texts.reduce((sum, length) => sum + length, 0)).toBe(toolPartLimits.resultLength);
    expect(texts).toEqual([toolPartLimits.resultLength - 2, 2]);
    // With room for their notes, images are kept up to the pieces a result holds.
    const [pieces] = toolResultParts(messageOf(imported('short'), 't2'));
    expect(must(pieces).content).toHaveLength(toolPartLimits.resultPieces);
    expect(must(pieces).content.at(-1)).toEqual({ type: 'text', text: '[image]' });
  });

  it('Claude.ai: tool_use and tool_result blocks are parts in their order, an error result flagged, a hidden call hidden, a call without result kept', () => {
    const { conversations, skipped } = read('claude-tools.json');
    expect(skipped).toBe(0);
    const louvre = must(conversations[0]);
    expect(messageOf(louvre, 'm2').parts).toEqual([
      { type: 'reasoning', text: "Opening hours change by season: check the museum's own page." },
      { type: 'text', text: "I'll look that up." },
      {
        type: 'tool-call',
        callId: 'toolu_01A',
        name: 'web_fetch',
        arguments: '{"url":"https://www.louvre.fr/en/visit/hours"}',
      },
      {
        type: 'tool-result',
        callId: 'toolu_01A',
        name: 'web_fetch',
        content: [{ type: 'text', text: expect.stringContaining('PERMISSIONS_ERROR') }],
        isError: true,
      },
      {
        type: 'tool-call',
        callId: 'toolu_01B',
        name: 'web_search',
        arguments: '{"query":"Louvre opening hours"}',
      },
      {
        type: 'tool-result',
        callId: 'toolu_01B',
        name: 'web_search',
        content: [
          {
            type: 'text',
            text:
              'Opening hours | Louvre Museum\nhttps://www.louvre.fr/en/visit/hours\n\n' +
              'The museum is open from 9 a.m. to 6 p.m., and until 9 p.m. on Wednesdays and Fridays. Closed on Tuesdays.',
          },
        ],
      },
      {
        type: 'text',
        text: 'The Louvre opens at 9 a.m. and closes at 6 p.m. (9 p.m. on Wednesdays and Fridays); it is closed on Tuesdays.',
      },
    ]);
    expect(messageOf(louvre, 'm4').parts).toEqual([
      { type: 'text', text: 'Let me chart them.' },
      {
        type: 'tool-call',
        callId: 'toolu_01C',
        name: 'repl',
        arguments: JSON.stringify({
          code: 'const visits = {2022: 7.8, 2023: 8.9};\nconsole.log(Object.entries(visits));',
        }),
      },
    ]);
    expect(JSON.stringify(louvre)).not.toContain('conversation_search');
    expect(shown(louvre).at(-1)).toBe('assistant: Let me chart them.');
  });

  it('Claude.ai: a reply of tools alone is kept; blocks without ids pair in order; made-up ids never repeat', () => {
    const block = (fields: Record<string, unknown>) => fields;
    const result = must(
      readOtherAppExport(
        [
          {
            uuid: 'c',
            name: 'Tools only',
            created_at: '2026-01-01T00:00:00Z',
            chat_messages: [
              { uuid: 'h', sender: 'human', text: 'Go', content: [{ type: 'text', text: 'Go' }] },
              {
                uuid: 'a',
                sender: 'assistant',
                text: '',
                content: [
                  block({ type: 'tool_use', id: 'call-1', name: 'first', input: {} }),
                  block({ type: 'tool_use', name: '', input: { n: 2 } }),
                  block({ type: 'tool_use', id: 'call-1', name: 'third' }),
                  block({ type: 'tool_result', content: [{ type: 'text', text: 'one' }] }),
                  block({ type: 'tool_result', name: 'third', content: 'three' }),
                  block({
                    type: 'tool_result',
                    tool_use_id: 'nowhere',
                    content: [{ type: 'text', text: 'lost' }],
                  }),
                ],
              },
            ],
          },
        ],
        now,
      ),
    );
    const conversation = toConversation(must(result.chats[0]), 0);
    expectStored(conversation);
    const reply = messageOf(conversation, 'a');
    expect(toolCallParts(reply).map((call) => [call.callId, call.name, call.arguments])).toEqual([
      ['call-1', 'first', '{}'],
      ['call-2', 'tool', '{"n":2}'],
      ['call-3', 'third', '{}'],
    ]);
    expect(toolResultParts(reply).map((part) => [part.callId, part.content])).toEqual([
      ['call-1', [{ type: 'text', text: 'one' }]],
      ['call-3', [{ type: 'text', text: 'three' }]],
    ]);
    expect(messageText(reply)).toBe('');
  });

  it('NextChat: a reply’s plugin calls come first with their results (an error, one still pending), then its text', () => {
    const { conversations } = read('nextchat-tools.json');
    const reply = messageOf(conversations[0], 'r1');
    expect(reply.parts).toEqual([
      { type: 'tool-call', callId: 'call_Wx1', name: 'getCurrentWeather', arguments: '{"city":"Lisbon"}' },
      {
        type: 'tool-result',
        callId: 'call_Wx1',
        name: 'getCurrentWeather',
        content: [{ type: 'text', text: '{"temperature":18,"condition":"sunny"}' }],
      },
      { type: 'tool-call', callId: 'call_Dl2', name: 'dalle3', arguments: '{"prompt":"Lisbon in the sun"}' },
      {
        type: 'tool-result',
        callId: 'call_Dl2',
        name: 'dalle3',
        content: [{ type: 'text', text: 'Error: 401 Incorrect API key provided' }],
        isError: true,
      },
      { type: 'tool-call', callId: 'call_Pn3', name: 'getCurrentWeather', arguments: '{"city":"Porto"}' },
      {
        type: 'text',
        text: 'It is 18 °C and sunny in Lisbon. The drawing failed: the image service refused the key.',
      },
    ] satisfies MessagePart[]);
    expect(JSON.stringify(conversations)).not.toContain('sk-');
  });
});
