import { describe, expect, it } from 'vitest';
import {
  attachment,
  legacyRecord,
  linearConversation,
  message,
  withFiles,
  normalized,
  texts,
  toolCall,
  toolReply,
  toolResult,
  treeConversation,
} from './__fixtures__/conversations.ts';
import { defaultConfig } from './config.ts';
import { messageText, type Conversation, type Message } from './conversation.ts';
import { conversationRecord } from './conversation-record.ts';
import {
  conversationFormatVersion,
  toolPartLimits,
  validateConversation,
} from './conversation-validation.ts';
import { buildExport, parseImport } from './export-format.ts';
import { activePath } from './message-tree.ts';

const now = new Date('2024-06-01T00:00:00.000Z');
const options = { now, fallbackProvider: 'openai' as const };

/**
 * root
 * └ u1 "Hi"
 *   ├ a1 "Hello"             (shown)
 *   └ a2 "Hey"
 *     └ u2 "More"
 *       ├ a3 "Partial"       (interrupted)
 *       └ a4 "Whole"
 */
const branched = treeConversation(
  'c',
  [
    ['root', null, 'system', 'Be brief.', { editedAt: '2024-01-01T01:00:00.000Z' }],
    ['u1', 'root', 'user', 'Hi'],
    ['a1', 'u1', 'assistant', 'Hello', { provider: 'openai', model: 'gpt-4o' }],
    ['a2', 'u1', 'assistant', 'Hey', { provider: 'claude', model: 'claude-sonnet-4-5', status: 'stopped' }],
    ['u2', 'a2', 'user', 'More'],
    ['a3', 'u2', 'assistant', 'Partial', { status: 'interrupted', error: 'Network error' }],
    ['a4', 'u2', 'assistant', 'Whole'],
  ],
  {
    name: 'Branches',
    updatedAt: '2024-01-02T00:00:00.000Z',
    renamedAt: '2024-01-01T12:00:00.000Z',
    deletedIds: ['gone-1', 'gone-2'],
    order: 3,
    provider: 'claude',
    activeLeafId: 'a1',
  },
);

/** The record as JSON text and back: what storage (structured clone) and a file both keep. */
function written(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function read(value: unknown) {
  const result = validateConversation(value, 'record', options);
  if (!result.ok) throw new Error(result.problem);
  return result.value;
}

function problemOf(value: unknown): string {
  const result = validateConversation(value, 'conversations[4]', options);
  if (result.ok) throw new Error('expected a problem');
  return result.problem;
}

/** A written form with ids: the path root -> u1 -> a1 and `otherMessages`. */
function withOthers(others: Record<string, unknown>[], path?: Record<string, unknown>[]) {
  return {
    id: 'c',
    name: 'n',
    messages: path ?? [
      { id: 'root', role: 'system', content: '' },
      { id: 'u1', role: 'user', content: 'Hi' },
      { id: 'a1', role: 'assistant', content: 'Hello' },
    ],
    otherMessages: others,
  };
}

describe('a reply that searched the web', () => {
  const web = {
    searches: [{ query: 'tallest mountain' }, { query: 'k2', failed: 'max_uses_exceeded' }],
    sources: [{ url: 'https://a.example/everest', title: 'Everest' }, { url: 'https://b.example/k2' }],
    citations: [
      { at: 8, source: 0, citedText: 'Everest, 8,849 m' },
      { at: 13, source: 1 },
    ],
    suggestions: '<div class="container">chips</div>',
  };
  const searched = (research: unknown): Conversation => {
    const conversation = linearConversation('w', [
      { role: 'user', text: 'Tallest?' },
      { role: 'assistant', text: 'Everest. K2 next.' },
    ]);
    const reply = conversation.messages.at(-1) as Message;
    return {
      ...conversation,
      messages: [...conversation.messages.slice(0, -1), { ...reply, web: research as never }],
    };
  };

  it('keeps its searches, sources, citations and suggestions through a record', () => {
    const back = read(written(conversationRecord(searched(web))));
    expect(back.messages.at(-1)?.web).toEqual(web);
  });

  it('reads hostile research within bounds: what does not read is dropped, one entry at a time', () => {
    const hostile = {
      searches: [{ query: 7 }, { query: 'ok', searching: true }],
      sources: [{ url: 'javascript:alert(1)' }, { url: 'https://a.example/', title: 'x'.repeat(9000) }],
      citations: [
        { at: 99_999, source: 1 },
        { at: 3, source: 5 },
        { at: 3, source: 0 },
        { at: 3, source: 1 },
      ],
      suggestions: 'y'.repeat(200_000),
    };
    expect(read(written(conversationRecord(searched(hostile)))).messages.at(-1)?.web).toEqual({
      searches: [{ query: 'ok' }],
      sources: [{ url: 'https://a.example/', title: 'x'.repeat(500) }],
      // The citation of the unreadable source goes with it; the others follow theirs.
      citations: [{ at: 3, source: 0 }],
    });
  });
});

describe('conversationRecord and validateConversation', () => {
  it('round-trip a tree with branches: every message, the active leaf, order, rename and deletions', () => {
    const back = read(written(conversationRecord(branched)));
    expect(normalized(back)).toEqual(normalized(branched));
    expect(back.activeLeafId).toBe('a1');
    expect(back.order).toBe(3);
    expect(back.renamedAt).toBe('2024-01-01T12:00:00.000Z');
    expect(back.deletedIds).toEqual(['gone-1', 'gone-2']);
    expect(back.messages[0]?.id).toBe('root');
  });

  it('write a readable record even when the active leaf names no message: the newest leaf is shown', () => {
    const back = read(written(conversationRecord({ ...branched, activeLeafId: 'missing' })));
    expect(normalized({ ...back, activeLeafId: '' })).toEqual(normalized({ ...branched, activeLeafId: '' }));
    expect(back.activeLeafId).toBe('a4');
  });

  it('drop a deleted id that names a message of the conversation: it would delete it at the next save', () => {
    const record = { ...conversationRecord(branched), deletedIds: ['a2', 'root', 'gone-1'] };
    expect(read(written(record)).deletedIds).toEqual(['gone-1']);
  });

  it('round-trip whichever branch is shown', () => {
    for (const leaf of ['root', 'u1', 'a1', 'a2', 'u2', 'a3', 'a4']) {
      const shown = { ...branched, activeLeafId: leaf };
      const back = read(written(conversationRecord(shown)));
      expect(normalized(back)).toEqual(normalized(shown));
      expect(read(written(conversationRecord(back)))).toEqual(back);
    }
  });

  it('write the active path as `messages`, the rest with their parent in `otherMessages`', () => {
    const record = conversationRecord(branched);
    expect(record.formatVersion).toBe(conversationFormatVersion);
    expect(record.messages.map((item) => [item.id, item.role, item.content])).toEqual([
      ['root', 'system', 'Be brief.'],
      ['u1', 'user', 'Hi'],
      ['a1', 'assistant', 'Hello'],
    ]);
    expect(record.messages.some((item) => 'parentId' in item)).toBe(false);
    expect(record.otherMessages?.map((item) => [item.id, item.parentId])).toEqual([
      ['a2', 'u1'],
      ['u2', 'a2'],
      ['a3', 'u2'],
      ['a4', 'u2'],
    ]);
  });

  it('write no otherMessages, renamedAt or deletedIds for a plain chain', () => {
    const record = conversationRecord(linearConversation('p', ['Hi', 'Hello']));
    expect(Object.keys(record)).toEqual([
      'formatVersion',
      'id',
      'name',
      'createdAt',
      'updatedAt',
      'provider',
      'order',
      'messages',
    ]);
  });
});

describe('validateConversation of older forms', () => {
  it('reads a form without ids as a chain with ids from the conversation id and positions', () => {
    const chain = linearConversation(
      'old',
      ['Hi', { text: 'Hel', status: 'interrupted', error: 'Timeout' }],
      {
        system: 'Answer in French.',
        createdAt: '2024-02-01T00:00:00.000Z',
      },
    );
    const legacy = legacyRecord(chain);
    const first = read(legacy);
    expect(first).toEqual({ ...chain, order: Date.parse('2024-02-01T00:00:00.000Z') });
    expect(first.messages.map((item) => [item.id, item.parentId])).toEqual([
      ['old:0', null],
      ['old:1', 'old:0'],
      ['old:2', 'old:1'],
    ]);
    expect(first.activeLeafId).toBe('old:2');
    expect(read(structuredClone(legacy))).toEqual(first);
  });

  it('puts an empty system root before a path that does not start with a system message', () => {
    const back = read({
      id: 'q',
      name: 'n',
      createdAt: '2024-02-01T00:00:00.000Z',
      updatedAt: '2024-02-01T00:00:00.000Z',
      messages: [{ role: 'user', content: 'Question' }],
    });
    const at = '2024-02-01T00:00:00.000Z';
    expect(back.messages).toEqual([
      message('q:root', null, 'system', '', { createdAt: at }),
      message('q:0', 'q:root', 'user', 'Question', { createdAt: at }),
    ]);
    expect(back.activeLeafId).toBe('q:0');
    expect(back).toEqual(
      linearConversation('q', ['Question'], {
        system: null,
        name: 'n',
        createdAt: at,
        order: Date.parse(at),
      }),
    );
  });

  it('gives an empty conversation just the empty root', () => {
    const back = read({ id: 'e', name: 'n', messages: [] });
    expect(back.messages).toEqual([message('e:root', null, 'system', '', { createdAt: now.toISOString() })]);
    expect(back.activeLeafId).toBe('e:root');
  });

  it('picks a root id no message has', () => {
    const back = read({
      id: 'q',
      name: 'n',
      messages: [
        { id: 'q:root', role: 'user', content: 'Hi' },
        { id: 'q:root-2', role: 'assistant', content: 'Hello' },
      ],
    });
    expect(back.messages.map((item) => [item.id, item.parentId])).toEqual([
      ['q:root-3', null],
      ['q:root', 'q:root-3'],
      ['q:root-2', 'q:root'],
    ]);
  });

  it('keeps the ids of a path written with ids, and reads order, rename and deletions', () => {
    const back = read({
      ...withOthers([]),
      order: 7,
      renamedAt: '2024-01-01T00:00:00.000Z',
      deletedIds: ['x', 5, 'y'],
    });
    expect(back.messages.map((item) => [item.id, item.parentId])).toEqual([
      ['root', null],
      ['u1', 'root'],
      ['a1', 'u1'],
    ]);
    expect(back).toMatchObject({ order: 7, renamedAt: '2024-01-01T00:00:00.000Z', deletedIds: ['x', 'y'] });
  });
});

describe('validateConversation problems', () => {
  it.each([
    [
      'a dangling parentId',
      withOthers([{ id: 'a2', parentId: 'nope', role: 'assistant', content: 'x' }]),
      'conversations[4].otherMessages[0].parentId "nope" names no message of this conversation',
    ],
    [
      'a cycle among otherMessages',
      withOthers([
        { id: 'a2', parentId: 'u1', role: 'assistant', content: 'fine' },
        { id: 'x', parentId: 'y', role: 'user', content: 'x' },
        { id: 'y', parentId: 'x', role: 'assistant', content: 'y' },
      ]),
      'conversations[4].otherMessages[1]: its parents form a cycle',
    ],
    [
      'a message that is its own parent',
      withOthers([{ id: 'x', parentId: 'x', role: 'user', content: 'x' }]),
      'conversations[4].otherMessages[0]: its parents form a cycle',
    ],
    [
      'a duplicate id in the path',
      withOthers(
        [],
        [
          { id: 'root', role: 'system', content: '' },
          { id: 'u1', role: 'user', content: 'Hi' },
          { id: 'u1', role: 'assistant', content: 'Hello' },
        ],
      ),
      'conversations[4].messages[2].id "u1" is already used by conversations[4].messages[1]',
    ],
    [
      'a duplicate id between the path and otherMessages',
      withOthers([{ id: 'a1', parentId: 'u1', role: 'assistant', content: 'Again' }]),
      'conversations[4].otherMessages[0].id "a1" is already used by conversations[4].messages[2]',
    ],
    [
      'a duplicate id within otherMessages',
      withOthers([
        { id: 'a2', parentId: 'u1', role: 'assistant', content: 'x' },
        { id: 'a2', parentId: 'u1', role: 'assistant', content: 'y' },
      ]),
      'conversations[4].otherMessages[1].id "a2" is already used by conversations[4].otherMessages[0]',
    ],
    [
      'a path message without id when the others have ids',
      withOthers(
        [],
        [
          { id: 'root', role: 'system', content: '' },
          { role: 'user', content: 'Hi' },
        ],
      ),
      'conversations[4].messages[1].id must be a non-empty string',
    ],
    [
      'a path without ids beside otherMessages',
      withOthers(
        [{ id: 'a2', parentId: 'c:1', role: 'assistant', content: 'x' }],
        [
          { role: 'system', content: '' },
          { role: 'user', content: 'Hi' },
        ],
      ),
      'conversations[4].messages[0].id must be a non-empty string',
    ],
    [
      'another message without id',
      withOthers([{ parentId: 'u1', role: 'assistant', content: 'x' }]),
      'conversations[4].otherMessages[0].id must be a non-empty string',
    ],
    [
      'another message without parent',
      withOthers([{ id: 'a2', role: 'assistant', content: 'x' }]),
      'conversations[4].otherMessages[0].parentId must be a non-empty string',
    ],
    [
      'a second root among otherMessages',
      withOthers([{ id: 'r2', parentId: null, role: 'system', content: 'x' }]),
      'conversations[4].otherMessages[0].parentId must be a non-empty string',
    ],
    [
      'a path message naming another parent than the one before it',
      withOthers(
        [],
        [
          { id: 'root', role: 'system', content: '' },
          { id: 'u1', parentId: 'elsewhere', role: 'user', content: 'Hi' },
        ],
      ),
      'conversations[4].messages[1].parentId must be the id of the message before it',
    ],
    [
      'an empty id',
      withOthers([{ id: '', parentId: 'u1', role: 'user', content: 'x' }]),
      'conversations[4].otherMessages[0].id must be a non-empty string',
    ],
    [
      'a bad otherMessages',
      { ...withOthers([]), otherMessages: 'x' },
      'conversations[4].otherMessages must be a list (found a string)',
    ],
    [
      'a later format version',
      { ...withOthers([]), formatVersion: 3 },
      'conversations[4].formatVersion 3 is newer than this app reads',
    ],
  ])('names the exact place of %s', (_what, value, problem) => {
    expect(problemOf(value)).toBe(problem);
  });

  it('reads the current format version and forms without one', () => {
    expect(read({ ...withOthers([]), formatVersion: 2 }).id).toBe('c');
    expect(read({ ...withOthers([]), formatVersion: 1 }).id).toBe('c');
  });
});

describe('export and import', () => {
  const plain = linearConversation('p', ['Hi', 'Hello'], { order: 8 });

  it('keeps a pinned and an archived conversation so through a file; an unknown place is dropped', () => {
    const pinned = { ...plain, place: 'pinned' as const, placedAt: '2024-05-01T00:00:00.000Z' };
    const archived = {
      ...linearConversation('q', ['Old']),
      place: 'archived' as const,
      placedAt: now.toISOString(),
    };
    const text = buildExport({
      config: defaultConfig,
      conversations: [pinned, archived],
      activeConversationId: 'p',
      includeApiKey: false,
      now,
    });
    const result = parseImport(text, { now });
    if (!result.ok) throw new Error(result.problem);
    expect(result.data.conversations?.map((conversation) => conversation.place)).toEqual([
      'pinned',
      'archived',
    ]);
    expect(result.data.conversations?.[0]?.placedAt).toBe('2024-05-01T00:00:00.000Z');
    const odd = read({ ...(written(conversationRecord(plain)) as object), place: 'starred' });
    expect(odd.place).toBeUndefined();
  });

  it('round-trips every branch through a file', () => {
    const text = buildExport({
      config: defaultConfig,
      conversations: [plain, branched],
      activeConversationId: 'c',
      includeApiKey: false,
      now,
    });
    const result = parseImport(text, { now });
    if (!result.ok) throw new Error(result.problem);
    const [first, second] = result.data.conversations ?? [];
    expect(first).toEqual({ ...plain, order: 0 });
    expect(second && normalized(second)).toEqual(normalized({ ...branched, order: 1 }));
    expect(result.data.activeConversationId).toBe('c');
  });

  it('gives a 2.0 reader the active path, as role and content, in `messages`', () => {
    const text = buildExport({
      config: defaultConfig,
      conversations: [{ ...branched, activeLeafId: 'a4' }],
      activeConversationId: 'c',
      includeApiKey: false,
      now,
    });
    const file = JSON.parse(text) as { conversations: { messages: { role: string; content: string }[] }[] };
    const messages = file.conversations[0]?.messages ?? [];
    expect(messages.map(({ role, content }) => `${role}: ${content}`)).toEqual([
      'system: Be brief.',
      'user: Hi',
      'assistant: Hey',
      'user: More',
      'assistant: Whole',
    ]);
    expect(messages.map((item) => item.content)).toEqual(
      texts(activePath({ ...branched, activeLeafId: 'a4' })),
    );
  });

  it('refuses a file holding a conversation of a later format, naming it', () => {
    const text = JSON.stringify({
      version: '2.0',
      conversations: [conversationRecord(plain), { ...conversationRecord(branched), formatVersion: 3 }],
    });
    expect(parseImport(text, { now })).toEqual({
      ok: false,
      problem: 'conversations[1].formatVersion 3 is newer than this app reads',
    });
  });

  it('names the exact place of a dangling parent in a file', () => {
    const record = conversationRecord(branched);
    const broken = {
      ...record,
      otherMessages: (record.otherMessages ?? []).map((item) =>
        item.id === 'u2' ? { ...item, parentId: 'zz' } : item,
      ),
    };
    const result = parseImport(JSON.stringify({ conversations: [conversationRecord(plain), broken] }), {
      now,
    });
    expect(result).toEqual({
      ok: false,
      problem: 'conversations[1].otherMessages[1].parentId "zz" names no message of this conversation',
    });
  });
});

describe('pins and notices in the written form', () => {
  it('keeps a pinned model and a reply notice through a record, and drops a pin this release cannot use', () => {
    const notice = 'Sent again without temperature, which this model does not accept.';
    const withExtras = {
      ...linearConversation('p', ['Q', { text: 'A', notices: [notice] }]),
      pin: { provider: 'claude' as const, model: 'claude-opus-4-8' },
      pinnedAt: '2024-05-01T00:00:00.000Z',
    };
    const back = read(written(conversationRecord(withExtras)));
    expect([back.pin, back.pinnedAt]).toEqual([
      { provider: 'claude', model: 'claude-opus-4-8' },
      '2024-05-01T00:00:00.000Z',
    ]);
    expect(activePath(back).at(-1)?.notices).toEqual([
      'Sent again without temperature, which this model does not accept.',
    ]);

    const record = written(conversationRecord(withExtras)) as Record<string, unknown>;
    expect(read({ ...record, pin: { provider: 'mistral', model: 'large' } }).pin).toBeUndefined();
    expect(read({ ...record, pin: { provider: 'claude', model: '  ' } }).pin).toBeUndefined();
    expect(read({ ...record, pin: 'claude' }).pin).toBeUndefined();
  });
});

describe('reasoning, figures and effort in the written form', () => {
  const thought = treeConversation(
    'r',
    [
      ['root', null, 'system', 'Be brief.'],
      ['u1', 'root', 'user', 'Why is the sky blue?'],
      [
        'a1',
        'u1',
        'assistant',
        'Rayleigh scattering.',
        {
          provider: 'claude',
          model: 'claude-sonnet-4-5',
          stats: {
            usage: {
              inputTokens: 40,
              cachedInputTokens: 8,
              outputTokens: 53,
              reasoningTokens: 41,
              totalTokens: 93,
            },
            firstTokenMs: 420,
            thinkingMs: 3100,
            totalMs: 5200,
            finishReason: 'length',
          },
        },
      ],
    ],
    { provider: 'claude' },
  );
  const reply = thought.messages[2] as Message;
  reply.parts = [
    { type: 'reasoning', text: '**Light** scatters.', signature: 'sig-1' },
    { type: 'reasoning', text: '', signature: 'data-1', redacted: true },
    ...reply.parts,
  ];
  const withEffort: Conversation = { ...thought, effort: 'high', effortAt: '2024-05-01T00:00:00.000Z' };

  it('keeps reasoning blocks, their signatures, the figures and the effort through a record', () => {
    const record = written(conversationRecord(withEffort)) as { messages: Record<string, unknown>[] };
    // A 2.0 reader still finds the answer alone in `content`.
    expect(record.messages[2]).toMatchObject({
      content: 'Rayleigh scattering.',
      reasoning: [
        { text: '**Light** scatters.', signature: 'sig-1' },
        { text: '', signature: 'data-1', redacted: true },
      ],
    });
    expect(normalized(read(record))).toEqual(normalized(withEffort));
  });

  it('writes the figures in one order however they were gathered, so a record reads back as written', () => {
    const streamedOrder = structuredClone(withEffort);
    const last = streamedOrder.messages[2] as Message;
    // As a streaming reply gathers them: the first token's time, then the usage at the end.
    last.stats = { totalMs: 5200, firstTokenMs: 420, usage: { totalTokens: 93, inputTokens: 40 } };
    const text = JSON.stringify(conversationRecord(streamedOrder));
    expect(JSON.stringify(conversationRecord(read(JSON.parse(text))))).toBe(text);
    expect(text).toContain(
      '"stats":{"usage":{"inputTokens":40,"totalTokens":93},"firstTokenMs":420,"totalMs":5200}',
    );
  });

  it('drops malformed reasoning and figures instead of refusing the file', () => {
    const record = written(conversationRecord(withEffort)) as { messages: Record<string, unknown>[] };
    const broken = {
      ...record,
      effort: 'ludicrous',
      messages: record.messages.map((entry, index) =>
        index === 2
          ? {
              ...entry,
              reasoning: [{ text: 7 }, 'x', { text: '', redacted: true }, { text: 'kept' }],
              stats: {
                usage: { inputTokens: -1, outputTokens: 'many', totalTokens: 9 },
                finishReason: 'bored',
              },
            }
          : entry,
      ),
    };
    const back = read(broken);
    expect(back.effort).toBeUndefined();
    expect(activePath(back).at(-1)).toMatchObject({
      parts: [
        { type: 'reasoning', text: 'kept' },
        { type: 'text', text: 'Rayleigh scattering.' },
      ],
      stats: { usage: { totalTokens: 9 } },
    });
  });

  it("keeps a user message's files (not their bytes) through a record; drops malformed ones", () => {
    const base = linearConversation('files', ['look at these', 'seen']);
    const user = withFiles(
      base.messages[1] as Message,
      attachment('f1', { width: 640, height: 480 }),
      attachment('f2', { kind: 'pdf', name: 'report.pdf', mimeType: 'application/pdf', size: 9000 }),
    );
    // A PDF has no pixel size.
    const pdf = user.parts[1] as { width?: number; height?: number };
    delete pdf.width;
    delete pdf.height;
    const withFilesConversation = {
      ...base,
      messages: [base.messages[0], user, base.messages[2]] as Message[],
    };
    const record = written(conversationRecord(withFilesConversation)) as {
      messages: Record<string, unknown>[];
    };
    expect(record.messages[1]).toMatchObject({
      content: 'look at these',
      attachments: [
        { id: 'f1', kind: 'image', name: 'f1.png', mimeType: 'image/png', size: 68, width: 640, height: 480 },
        { id: 'f2', kind: 'pdf', name: 'report.pdf', mimeType: 'application/pdf', size: 9000 },
      ],
    });
    expect(normalized(read(record))).toEqual(normalized(withFilesConversation));

    const broken = {
      ...record,
      messages: record.messages.map((entry, index) =>
        index === 1
          ? {
              ...entry,
              attachments: [
                { id: 'x', kind: 'video', name: 'a', mimeType: 'v', size: 1 },
                'junk',
                { id: 'f3' },
                { id: 'f4', kind: 'image', name: 'x.png', mimeType: 'text/html', size: 1 },
              ],
            }
          : index === 2
            ? {
                ...entry,
                attachments: [{ id: 'r', kind: 'text', name: 'r.txt', mimeType: 'text/plain', size: 1 }],
              }
            : entry,
      ),
    };
    const back = read(broken);
    expect(activePath(back)[1]?.parts).toEqual([{ type: 'text', text: 'look at these' }]);
    // Only user messages carry files.
    expect(activePath(back)[2]?.parts).toEqual([{ type: 'text', text: 'seen' }]);
  });

  it('reads no reasoning on a user message', () => {
    const record = written(conversationRecord(thought)) as { messages: Record<string, unknown>[] };
    const messages = record.messages.map((entry, index) =>
      index === 1 ? { ...entry, reasoning: [{ text: 'not mine' }] } : entry,
    );
    expect(activePath(read({ ...record, messages }))[1]?.parts).toEqual([
      { type: 'text', text: 'Why is the sky blue?' },
    ]);
  });
});

describe('tool calls and results in the written form', () => {
  const base = linearConversation('t', ['Weather in Lisbon?'], { provider: 'gemini' });
  const withTools: Conversation = {
    ...base,
    messages: [...base.messages, toolReply('t:2', 't:1')],
    activeLeafId: 't:2',
  };
  type Written = { messages: Record<string, unknown>[] };
  const record = written(conversationRecord(withTools)) as Written;
  /** The record with the reply's `parts` replaced. */
  const withParts = (parts: unknown, extra: Record<string, unknown> = {}) => ({
    ...record,
    messages: record.messages.map((entry, index) => (index === 2 ? { ...entry, parts, ...extra } : entry)),
  });
  const replyOf = (value: unknown) => activePath(read(value)).at(-1) as Message;

  it('writes a reply that used tools as its parts in order, the answer text still in content', () => {
    expect(record.messages[2]).toEqual({
      id: 't:2',
      role: 'assistant',
      // All a 2.0 reader takes: the answer, its texts a paragraph apart.
      content: 'Let me look that up.\n\nIt is 18 °C and sunny in Lisbon.',
      createdAt: base.createdAt,
      provider: 'gemini',
      model: 'gemini-2.5-pro',
      parts: [
        { type: 'reasoning', text: 'I need the weather.', signature: 'sig-1' },
        { type: 'text', text: 'Let me look that up.' },
        {
          type: 'tool-call',
          callId: 'call-1',
          name: 'get_weather',
          server: 'builtin',
          arguments: '{"city":"Lisbon"}',
          providerData: { provider: 'gemini', model: 'gemini-2.5-pro', data: { thoughtSignature: 'abc' } },
        },
        { type: 'tool-call', callId: 'call-2', name: 'get_map', arguments: '{"city":"Lisbon", oops' },
        {
          type: 'tool-result',
          callId: 'call-1',
          name: 'get_weather',
          content: [{ type: 'text', text: '18 °C and sunny' }],
        },
        {
          type: 'tool-result',
          callId: 'call-2',
          name: 'get_map',
          content: [
            { type: 'text', text: 'Arguments were not JSON' },
            { type: 'image', attachmentId: 'tool-img-1', mimeType: 'image/png' },
          ],
          isError: true,
        },
        { type: 'reasoning', text: 'Now answer.' },
        { type: 'text', text: 'It is 18 °C and sunny in Lisbon.' },
      ],
    });
  });

  it('reads it back as it was, and writes what it read byte for byte', () => {
    const back = read(record);
    expect(normalized(back)).toEqual(normalized(withTools));
    expect(JSON.stringify(conversationRecord(back))).toBe(JSON.stringify(conversationRecord(withTools)));
  });

  it('writes a reply without tools as before: reasoning and content, no parts', () => {
    const plain = written(conversationRecord(linearConversation('p', ['q', 'a']))) as Written;
    expect(plain.messages[2]).not.toHaveProperty('parts');
    const thinking: Conversation = {
      ...withTools,
      messages: [
        ...base.messages,
        {
          ...(withTools.messages[2] as Message),
          parts: [
            { type: 'reasoning', text: 'Hm.' },
            { type: 'text', text: 'A' },
          ],
        },
      ],
    };
    const entry = (written(conversationRecord(thinking)) as Written).messages[2];
    expect(entry).toMatchObject({ content: 'A', reasoning: [{ text: 'Hm.' }] });
    expect(entry).not.toHaveProperty('parts');
  });

  it('reads reasoning and content when parts is absent, unreadable or empty', () => {
    const legacy = { content: 'Answer', reasoning: [{ text: 'Thought' }] };
    const expected = [
      { type: 'reasoning', text: 'Thought' },
      { type: 'text', text: 'Answer' },
    ];
    for (const parts of [undefined, 'parts', {}, [], [null, 7, { type: 'tool-result' }]])
      expect(replyOf(withParts(parts, legacy)).parts).toEqual(expected);
  });

  it('drops malformed entries, never the file', () => {
    const parts = [
      null,
      'text',
      [],
      { type: 'picture', text: 'x' },
      { type: 'text', text: 7 },
      { type: 'text', text: 'Kept.' },
      { type: 'reasoning', text: 3 },
      { type: 'tool-call', callId: 'a', name: 'f' },
      { type: 'tool-call', callId: 7, name: 'f', arguments: '{}' },
      { type: 'tool-call', callId: 'b', name: '', arguments: '{}' },
      { type: 'tool-call', callId: 'c', name: 'f', arguments: { city: 'x' } },
      { type: 'tool-call', callId: 'd', name: 'x'.repeat(toolPartLimits.nameLength + 1), arguments: '{}' },
      {
        type: 'tool-call',
        callId: 'e',
        name: 'f',
        arguments: '{}',
        server: 5,
        providerData: { provider: 'nope', data: { a: 'b' } },
      },
      { type: 'tool-result', callId: 'e', name: 'f', content: 'not a list' },
      {
        type: 'tool-result',
        callId: 'e',
        name: 'f',
        content: [
          null,
          { type: 'text', text: 5 },
          { type: 'image', attachmentId: 'i1', mimeType: 'text/html' },
          { type: 'image', attachmentId: '', mimeType: 'image/png' },
          { type: 'video', text: 'x' },
          { type: 'text', text: 'ok' },
        ],
        isError: 'yes',
      },
    ];
    expect(replyOf(withParts(parts)).parts).toEqual([
      { type: 'text', text: 'Kept.' },
      toolCall('e', 'f'),
      toolResult('e', 'f', 'ok'),
    ]);
  });

  it('keeps each result after its own call: a repeated call id, a result for no call and a second result are dropped', () => {
    const parts = [
      { type: 'tool-result', callId: 'a', name: 'f', content: [] },
      { type: 'tool-call', callId: 'a', name: 'f', arguments: '{"n":1}' },
      { type: 'tool-call', callId: 'a', name: 'g', arguments: '{"n":2}' },
      { type: 'tool-result', callId: 'a', name: 'f', content: [{ type: 'text', text: 'first' }] },
      { type: 'tool-result', callId: 'a', name: 'f', content: [{ type: 'text', text: 'second' }] },
      { type: 'tool-result', callId: 'z', name: 'f', content: [] },
    ];
    expect(replyOf(withParts(parts)).parts).toEqual([
      toolCall('a', 'f', '{"n":1}'),
      toolResult('a', 'f', 'first'),
    ]);
  });

  it('ignores inherited fields and own "__proto__" keys (a stored record is not checked for them)', () => {
    const text = JSON.stringify(
      withParts([
        {
          type: 'tool-call',
          callId: 'a',
          name: 'f',
          arguments: '{}',
          providerData: { provider: 'gemini', data: { __proto__x: 'y' } },
        },
      ]),
    ).replace('"__proto__x"', '"__proto__"');
    const hostile = JSON.parse(text) as unknown;
    const call = replyOf(hostile).parts[0];
    // Its only entry was the "__proto__" one: no provider data is left.
    expect(call).toEqual(toolCall('a', 'f'));
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);

    const inherited = Object.create({ callId: 'a', name: 'f', arguments: '{}' }) as object;
    Object.assign(inherited, { type: 'tool-call' });
    expect(replyOf(withParts([inherited], { content: 'x' })).parts).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('bounds what it reads: huge arguments and results are cut, further parts and pieces left out', () => {
    // The limit falls inside an emoji: its first half is not kept alone.
    const huge = `x${'😀'.repeat(toolPartLimits.argumentsLength)}`;
    const parts = [
      { type: 'tool-call', callId: 'a', name: 'f', arguments: huge },
      {
        type: 'tool-result',
        callId: 'a',
        name: 'f',
        content: Array.from({ length: toolPartLimits.resultPieces + 5 }, (_, index) => ({
          type: 'text',
          text: index === 0 ? 'x'.repeat(toolPartLimits.resultLength - 3) : 'abcdef',
        })),
      },
      ...Array.from({ length: toolPartLimits.parts }, () => ({ type: 'text', text: 'more' })),
    ];
    const reply = replyOf(withParts(parts));
    expect(reply.parts).toHaveLength(toolPartLimits.parts);
    const [call, result] = reply.parts;
    const args = call?.type === 'tool-call' ? call.arguments : '';
    expect(args.length).toBe(toolPartLimits.argumentsLength - 1);
    expect(args.endsWith('😀')).toBe(true);
    expect(
      result?.type === 'tool-result' &&
        result.content.map((item) => (item.type === 'text' ? item.text.length : 0)),
    ).toEqual([toolPartLimits.resultLength - 3, 3]);
  });

  it('reads tool parts on replies only', () => {
    const user = { ...record.messages[1], parts: [toolCall('a', 'f')] };
    const back = read({ ...record, messages: [record.messages[0], user, record.messages[2]] });
    expect(activePath(back)[1]?.parts).toEqual([{ type: 'text', text: 'Weather in Lisbon?' }]);
    expect(messageText(activePath(back)[2] as Message)).toBe(
      'Let me look that up.\n\nIt is 18 °C and sunny in Lisbon.',
    );
  });

  it('drops null reasoning blocks and files instead of failing', () => {
    const nulls = {
      ...record,
      messages: [
        record.messages[0],
        { ...record.messages[1], attachments: [null] },
        { ...record.messages[2], parts: undefined, reasoning: [null], content: 'A' },
      ],
    };
    const back = read(nulls);
    expect(activePath(back)[1]?.parts).toEqual([{ type: 'text', text: 'Weather in Lisbon?' }]);
    expect(activePath(back)[2]?.parts).toEqual([{ type: 'text', text: 'A' }]);
  });
});
