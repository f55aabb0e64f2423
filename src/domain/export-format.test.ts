import { describe, expect, it } from 'vitest';
import {
  attachment,
  codeAndPictureReply,
  legacyRecord,
  linearConversation,
  message,
  normalized,
  texts,
  toolReply,
  treeConversation,
  withFiles,
} from './__fixtures__/conversations.ts';
import { defaultConfig, type Config } from './config.ts';
import { messageText, type Conversation, type Message } from './conversation.ts';
import { conversationRecord } from './conversation-record.ts';
import {
  buildExport,
  exportEntry,
  exportFileName,
  exportHead,
  exportPreview,
  exportProjectEntry,
  exportProjectsEnd,
  exportTail,
  parseImport,
} from './export-format.ts';
import { projectLimits, type Project } from './projects.ts';
import { maxJsonDepth } from './json-guards.ts';
import { activePath, mergeConversations } from './message-tree.ts';

/** A copy without the given keys, to build files that lack fields. */
function without(value: object, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

const now = new Date('2024-05-06T07:08:09.000Z');
const config: Config = { ...defaultConfig, apiKey: 'sk-secret' };
const conversation = linearConversation('c1', ['hi'], {
  name: 'Greeting',
  createdAt: '2024-05-01T00:00:00.000Z',
  updatedAt: '2024-05-02T00:00:00.000Z',
});
/** The same conversation as the first release exported it: role and content, no ids. */
const legacy = legacyRecord(conversation);
/** root -> u1 -> {a1, a2 -> u2 -> a3}: the second reply regenerated and continued. */
const branched = treeConversation(
  'c2',
  [
    ['root', null, 'system', 'Be brief.'],
    ['u1', 'root', 'user', 'hi'],
    ['a1', 'u1', 'assistant', 'hello', { provider: 'openai', model: 'gpt-4o' }],
    ['a2', 'u1', 'assistant', 'hey', { provider: 'claude', model: 'claude-sonnet-4-5' }],
    ['u2', 'a2', 'user', 'more'],
    ['a3', 'u2', 'assistant', 'partial', { status: 'interrupted', error: 'network' }],
  ],
  {
    name: 'Branches',
    updatedAt: '2024-05-03T00:00:00.000Z',
    renamedAt: '2024-05-02T00:00:00.000Z',
    deletedIds: ['gone'],
    order: 5,
    activeLeafId: 'a1',
  },
);

function problemOf(text: string): string {
  const result = parseImport(text, { now });
  if (result.ok) throw new Error('expected a problem');
  return result.problem;
}

function dataOf(text: string) {
  const result = parseImport(text, { now });
  if (!result.ok) throw new Error(result.problem);
  return result.data;
}

describe('buildExport', () => {
  const input = { config, conversations: [conversation], activeConversationId: 'c1', now };

  it('writes the envelope as 2-space JSON without the key', () => {
    const text = buildExport({ ...input, includeApiKey: false });
    const configWithoutKey = without(config, 'apiKey');
    expect(text).toBe(
      JSON.stringify(
        {
          version: '2.0',
          exportedAt: '2024-05-06T07:08:09.000Z',
          config: configWithoutKey,
          conversations: [conversationRecord(conversation)],
          activeConversationId: 'c1',
        },
        null,
        2,
      ),
    );
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('apiKey');
    expect(text.startsWith('{\n  "version": "2.0",\n  "exportedAt"')).toBe(true);
  });

  it('writes each conversation as its record: the active path as role and content, the rest apart', () => {
    const parsed = JSON.parse(
      buildExport({ ...input, conversations: [conversation, branched], includeApiKey: false }),
    ) as { conversations: unknown[] };
    expect(parsed.conversations).toEqual([conversationRecord(conversation), conversationRecord(branched)]);
  });

  it('includes the key when asked', () => {
    const parsed = JSON.parse(buildExport({ ...input, includeApiKey: true })) as { config: Config };
    expect(parsed.config.apiKey).toBe('sk-secret');
  });

  it('writes a null active id', () => {
    const text = buildExport({ ...input, activeConversationId: null, includeApiKey: false });
    expect(text).toContain('"activeConversationId": null');
  });

  it('does not change the config it was given', () => {
    buildExport({ ...input, includeApiKey: false });
    expect(config.apiKey).toBe('sk-secret');
  });
});

describe('exportFileName', () => {
  it('uses the first 10 characters of the ISO date', () => {
    expect(exportFileName(now)).toBe('azure-openai-chat-2024-05-06.json');
  });
});

describe('parseImport', () => {
  it('round-trips an export', () => {
    const text = buildExport({
      config,
      conversations: [conversation],
      activeConversationId: 'c1',
      includeApiKey: true,
      now,
    });
    expect(dataOf(text)).toEqual({
      config,
      configHasKey: true,
      conversations: [conversation],
      activeConversationId: 'c1',
    });
  });

  it('round-trips every branch, and places the conversations in the file order', () => {
    const text = buildExport({
      config,
      conversations: [branched, { ...conversation, order: 99 }],
      activeConversationId: 'c2',
      includeApiKey: false,
      now,
    });
    const imported = dataOf(text).conversations ?? [];
    expect(imported.map((item) => [item.id, item.order])).toEqual([
      ['c2', 0],
      ['c1', 1],
    ]);
    expect(normalized(imported[0] ?? conversation)).toEqual(normalized({ ...branched, order: 0 }));
    expect(imported[1]).toEqual({ ...conversation, order: 1 });
  });

  it('gives a 2.0 reader the active path as role and content in messages', () => {
    const text = buildExport({
      config,
      conversations: [branched],
      activeConversationId: 'c2',
      includeApiKey: false,
      now,
    });
    const file = JSON.parse(text) as {
      version: string;
      conversations: { id: string; name: string; messages: Record<string, unknown>[] }[];
    };
    expect(file.version).toBe('2.0');
    const [written] = file.conversations;
    expect(written?.messages.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(written?.messages.map(({ role, content }) => ({ role, content }))).toEqual(
      activePath(branched).map((item) => ({ role: item.role, content: messageText(item) })),
    );
    // The path is linked by its order alone: an old reader sees no tree there.
    expect(written?.messages.some((item) => 'parentId' in item)).toBe(false);
  });

  it('flags a config without a key', () => {
    const text = buildExport({
      config,
      conversations: [],
      activeConversationId: null,
      includeApiKey: false,
      now,
    });
    const data = dataOf(text);
    expect(data.configHasKey).toBe(false);
    expect(data.config?.apiKey).toBe('');
    expect(data.conversations).toEqual([]);
    expect(data.activeConversationId).toBeNull();
  });

  it('accepts a legacy file without version, reading its conversations as chains', () => {
    const data = dataOf(JSON.stringify({ config: { ...config }, conversations: [legacy] }));
    expect(data.conversations).toEqual([conversation]);
    expect(data.config).toEqual(config);
    expect(data).not.toHaveProperty('activeConversationId');
  });

  it('accepts a bare list of conversations', () => {
    expect(dataOf(JSON.stringify([legacy]))).toEqual({ conversations: [conversation] });
    expect(dataOf(JSON.stringify([conversationRecord(conversation)]))).toEqual({
      conversations: [conversation],
    });
  });

  it('turns a legacy config without provider into azure, and gives its conversations that provider', () => {
    const legacyConversation = without(legacy, 'provider');
    const data = dataOf(
      JSON.stringify({
        config: {
          apiKey: 'k',
          endpoint: 'https://r.openai.azure.com',
          deploymentName: 'gpt4',
          temperature: 1,
        },
        conversations: [legacyConversation],
      }),
    );
    expect(data.config).toMatchObject({ provider: 'azure', deploymentName: 'gpt4', temperature: 1 });
    expect(data.conversations?.[0]?.provider).toBe('azure');
  });

  it('gives conversations without provider the caller provider, else openai', () => {
    const bare = without(legacy, 'provider');
    const text = JSON.stringify({ conversations: [bare] });
    const withCaller = parseImport(text, { now, provider: 'groq' });
    expect(withCaller.ok && withCaller.data.conversations?.[0]?.provider).toBe('groq');
    expect(dataOf(text).conversations?.[0]?.provider).toBe('openai');
  });

  it('turns missing timestamps into now', () => {
    const bare = without(legacy, 'createdAt', 'updatedAt');
    const imported = dataOf(JSON.stringify({ conversations: [bare] })).conversations?.[0];
    expect(imported?.createdAt).toBe(now.toISOString());
    expect(imported?.updatedAt).toBe(now.toISOString());
    expect(imported?.messages.map((item) => item.createdAt)).toEqual([now.toISOString(), now.toISOString()]);
  });

  it('keeps valid message status and error, and drops invalid or unknown ones', () => {
    const messages = [
      { role: 'assistant', content: 'partial', status: 'interrupted', error: 'network' },
      { role: 'assistant', content: 'x', status: 'exploded', error: 7, extra: true },
    ];
    const imported = dataOf(JSON.stringify([{ ...legacy, messages }])).conversations?.[0];
    const at = conversation.createdAt;
    expect(imported?.messages).toEqual([
      message('c1:root', null, 'system', '', { createdAt: at }),
      message('c1:0', 'c1:root', 'assistant', 'partial', {
        createdAt: at,
        status: 'interrupted',
        error: 'network',
      }),
      message('c1:1', 'c1:0', 'assistant', 'x', { createdAt: at }),
    ]);
  });

  it.each([
    ['{"config": ', /^The file is not valid JSON: /],
    ['', /^The file is not valid JSON: /],
    ['"text"', /^The file must hold an object \(found a string\)$/],
    ['null', /^The file must hold an object \(found null\)$/],
    ['{}', /^The file holds neither a config nor conversations$/],
  ])('rejects %j', (text, problem) => {
    expect(problemOf(text)).toMatch(problem);
  });

  it('rejects another version', () => {
    expect(problemOf(JSON.stringify({ version: '3.0', conversations: [] }))).toBe(
      'version must be "2.0" (found "3.0")',
    );
    expect(problemOf(JSON.stringify({ version: 2, conversations: [] }))).toBe(
      'version must be "2.0" (found a number)',
    );
  });

  it('names the exact place of a wrong role', () => {
    const conversations: Record<string, unknown>[] = [0, 1, 2, 3].map((index) => ({
      ...legacy,
      id: `c${index}`,
    }));
    const fourth = conversations[3];
    if (!fourth) throw new Error('fixture');
    fourth.messages = [
      { role: 'user', content: 'hi' },
      { role: 'robot', content: 'beep' },
    ];
    expect(problemOf(JSON.stringify({ version: '2.0', conversations }))).toBe(
      'conversations[3].messages[1].role must be system, user or assistant',
    );
  });

  it.each([
    [{ conversations: {} }, 'conversations must be a list (found an object)'],
    [{ conversations: [{ ...legacy, id: '' }] }, 'conversations[0].id must be a non-empty string'],
    [{ conversations: [{ ...legacy, name: 3 }] }, 'conversations[0].name must be a string (found a number)'],
    [
      { conversations: [{ ...legacy, messages: 'hi' }] },
      'conversations[0].messages must be a list (found a string)',
    ],
    [
      { conversations: [{ ...legacy, messages: [{ role: 'user', content: null }] }] },
      'conversations[0].messages[0].content must be a string (found null)',
    ],
    [
      { conversations: [{ ...legacy, createdAt: 'yesterday' }] },
      'conversations[0].createdAt must be an ISO timestamp',
    ],
    [{ conversations: [{ ...legacy, updatedAt: 5 }] }, 'conversations[0].updatedAt must be an ISO timestamp'],
    [
      { conversations: [{ ...legacy, provider: 'mistral' }] },
      'conversations[0].provider must be one of azure, openai, claude, gemini, groq, device, custom',
    ],
    [
      { config: { provider: 'openai', maxTokens: '800' } },
      'config.maxTokens must be a number (found a string)',
    ],
    [{ config: 'openai' }, 'config must be an object (found a string)'],
    [
      { conversations: [], activeConversationId: 4 },
      'activeConversationId must be a string or null (found a number)',
    ],
  ])('rejects wrong types: %j', (file, problem) => {
    expect(problemOf(JSON.stringify(file))).toBe(problem);
  });

  it('rejects duplicate ids', () => {
    const file = { conversations: [legacy, { ...legacy, id: 'c2' }, { ...legacy }] };
    expect(problemOf(JSON.stringify(file))).toBe(
      'conversations[2].id "c1" is already used by conversations[0]',
    );
  });

  it('refuses a __proto__ key anywhere, naming where, without polluting prototypes', () => {
    const valid = '"id": "c1", "name": "n", "messages": [{ "role": "user", "content": "x" }]';
    const cases: [string, string][] = [
      [`{ "__proto__": { "polluted": "root", "conversations": [{ ${valid} }] } }`, 'the top level'],
      [
        `{ "config": { "provider": "openai", "__proto__": { "polluted": "config", "apiKey": "evil" } } }`,
        'config',
      ],
      [
        `{ "conversations": [{ ${valid} }, { "__proto__": { "provider": "claude" }, ${valid.replace('c1', 'c2')} }] }`,
        'conversations[1]',
      ],
      [
        `{ "conversations": [{ "id": "c1", "name": "n", "messages": [{ "role": "user", "content": "x", "__proto__": { "status": "stopped" } }] }] }`,
        'conversations[0].messages[0]',
      ],
      [
        `{ "conversations": [{ ${valid}, "extra": [[{ "a": { "__proto__": 1 } }]] }] }`,
        'conversations[0].extra[0][0].a',
      ],
    ];
    for (const [text, where] of cases) {
      expect(problemOf(text)).toBe(
        `The file contains a "__proto__" key at ${where}, which no export has; nothing was imported`,
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    // "__proto__" as text in a message is fine.
    const quoted = dataOf(
      '{ "conversations": [{ "id": "c1", "name": "n", "messages": [{ "role": "user", "content": "\\"__proto__\\": 1" }] }] }',
    );
    const [quotedConversation] = quoted.conversations ?? [];
    expect(quotedConversation && texts(activePath(quotedConversation))).toEqual(['', '"__proto__": 1']);
  });

  it('ignores constructor and other unknown keys, copying known fields into fresh objects', () => {
    const text = `{
      "constructor": { "prototype": { "polluted": "ctor" } },
      "config": { "provider": "openai", "constructor": { "prototype": { "apiKey": "evil" } } },
      "conversations": [{
        "id": "c1", "name": "n", "messages": [{ "role": "user", "content": "x", "extra": true }], "extra": 1
      }]
    }`;
    const data = dataOf(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(data.configHasKey).toBe(false);
    expect(data.config?.apiKey).toBe('');
    const imported = data.conversations?.[0];
    expect(Object.getPrototypeOf(imported)).toBe(Object.prototype);
    expect(Object.keys(imported ?? {})).toEqual([
      'id',
      'name',
      'messages',
      'activeLeafId',
      'createdAt',
      'updatedAt',
      'provider',
      'order',
    ]);
    expect(imported?.messages[1]).toEqual(
      message('c1:0', 'c1:root', 'user', 'x', { createdAt: now.toISOString() }),
    );
    for (const item of imported?.messages ?? []) {
      expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      expect(Object.keys(item)).toEqual(['id', 'parentId', 'role', 'parts', 'createdAt']);
    }
  });

  it('does not fill missing fields from a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.version = '9';
    proto.conversations = 'not a list';
    try {
      const data = dataOf('{"config": {"provider": "openai"}}');
      expect(Object.keys(data)).toEqual(['config', 'configHasKey']);
    } finally {
      delete proto.version;
      delete proto.conversations;
    }
  });

  it('refuses JSON nested deeper than any export, however deep (a million levels), saying where', () => {
    const tooDeep = (at: string) =>
      `The file is nested too deeply at ${at}: more than ${maxJsonDepth} levels, which no export has; nothing was imported`;
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(problemOf(nested(1_000_000))).toBe(tooDeep(`${'[0]'.repeat(20)}…`));
    const inContent = `{"conversations":[{"id":"a","name":"n","messages":[{"role":"user","content":${nested(100_000)}}]}]}`;
    expect(problemOf(inContent)).toBe(tooDeep(`conversations[0].messages[0].content${'[0]'.repeat(8)}…`));
    expect(problemOf('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000))).toBe(
      tooDeep(`${'a.'.repeat(30)}…`),
    );
    // Up to the limit, the file is read (and refused for what it holds).
    expect(problemOf(nested(maxJsonDepth))).toBe('conversations[0] must be an object (found a list)');
  });

  it('validates a large file whole (its speed is measured by `npm run bench`, case 9)', () => {
    const messages = Array.from({ length: 20 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    const conversations = Array.from({ length: 20_000 }, (_, index) => ({
      ...legacy,
      id: `id${index}`,
      messages,
    }));
    expect(dataOf(JSON.stringify({ conversations })).conversations).toHaveLength(20_000);
  });
});

describe('files in an export', () => {
  const base = linearConversation('f', ['look', 'seen']);
  const withPhoto = {
    ...base,
    messages: base.messages.map((entry, index) => (index === 1 ? withFiles(entry, attachment('p1')) : entry)),
  };
  const input = { config, conversations: [withPhoto], activeConversationId: 'f', now, includeApiKey: false };

  it('carries each file as base64 beside its entry, and reads it back; the preview shows the size', () => {
    const text = buildExport({ ...input, files: new Map([['p1', 'iVBORw0KGgo=']]) });
    expect(text).toContain('"data": "iVBORw0KGgo="');
    expect(exportPreview(text)).toContain('"data": "(8 bytes of file data, in the download)"');
    expect(exportPreview(text)).not.toContain('iVBORw0KGgo=');
    const data = dataOf(text);
    expect(data.files).toEqual(new Map([['p1', { data: 'iVBORw0KGgo=', mimeType: 'image/png' }]]));
    expect(normalized(data.conversations?.[0] as Conversation)).toEqual(
      normalized({ ...withPhoto, order: 0 }),
    );
  });

  it("carries a tool's images like files, in the reply's parts, and reads them back", () => {
    const asked = { ...withPhoto, messages: [...withPhoto.messages.slice(0, 2), toolReply('r', 'f:1')] };
    const files = new Map([
      ['p1', 'iVBORw0KGgo='],
      ['tool-img-1', 'R0lGODlh'],
    ]);
    const text = buildExport({ ...input, conversations: [{ ...asked, activeLeafId: 'r' }], files });
    const written = JSON.parse(text) as { conversations: { messages: Record<string, unknown>[] }[] };
    const reply = written.conversations[0]?.messages[2];
    expect(reply?.parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-result',
        content: [
          { type: 'text', text: 'Arguments were not JSON' },
          { type: 'image', attachmentId: 'tool-img-1', mimeType: 'image/png', data: 'R0lGODlh' },
        ],
      }),
    );
    expect(exportPreview(text)).not.toContain('R0lGODlh');
    const data = dataOf(text);
    expect(data.files).toEqual(
      new Map([
        ['p1', { data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
        ['tool-img-1', { data: 'R0lGODlh', mimeType: 'image/png' }],
      ]),
    );
    expect(normalized(data.conversations?.[0] as Conversation)).toEqual(
      normalized({ ...asked, activeLeafId: 'r', order: 0 }),
    );
    // What an earlier release reads of the reply: its role and its answer.
    expect(reply).toMatchObject({
      role: 'assistant',
      content: 'Let me look that up.\n\nIt is 18 °C and sunny in Lisbon.',
    });
  });

  it("carries a reply's code runs and drawn pictures with their files, and reads them back", () => {
    const asked = {
      ...withPhoto,
      messages: [...withPhoto.messages.slice(0, 2), codeAndPictureReply('r', 'f:1')],
    };
    const files = new Map([
      ['p1', 'iVBORw0KGgo='],
      ['run-plot', 'iVBORw0KGgo='],
      ['run-csv', 'YSxiCjEsMQ=='],
      ['drawn-1', 'iVBORw0KGgo='],
    ]);
    const text = buildExport({ ...input, conversations: [{ ...asked, activeLeafId: 'r' }], files });
    const reply = (JSON.parse(text) as { conversations: { messages: Record<string, unknown>[] }[] })
      .conversations[0]?.messages[2];
    expect(reply?.parts).toContainEqual(
      expect.objectContaining({ type: 'attachment', id: 'drawn-1', data: 'iVBORw0KGgo=' }),
    );
    expect(reply).toMatchObject({ content: 'Let me compute.\n\nThe sum is 55.' });
    const data = dataOf(text);
    expect(data.files).toEqual(
      new Map([
        ['p1', { data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
        ['run-plot', { data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
        ['run-csv', { data: 'YSxiCjEsMQ==', mimeType: 'text/csv' }],
        ['drawn-1', { data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      ]),
    );
    expect(normalized(data.conversations?.[0] as Conversation)).toEqual(
      normalized({ ...asked, activeLeafId: 'r', order: 0 }),
    );
  });

  it('reads a hostile code run bounded, and no SVG as a drawn picture', () => {
    const hostile = {
      ...codeAndPictureReply('r', 'f:1'),
      parts: [
        {
          type: 'code-run',
          id: 'x',
          language: 'python'.repeat(20),
          code: 'a'.repeat(300_000),
          output: '',
          files: [{ id: 'f', name: '../../etc/passwd', mimeType: 'text/plain', size: 1 }],
        },
        { type: 'attachment', id: 'svg', kind: 'image', name: 'x.svg', mimeType: 'image/svg+xml', size: 1 },
        { type: 'text', text: 'ok' },
      ],
    } as unknown as Message;
    const text = buildExport({
      ...input,
      conversations: [
        { ...withPhoto, messages: [...withPhoto.messages.slice(0, 2), hostile], activeLeafId: 'r' },
      ],
    });
    const read = dataOf(text).conversations?.[0]?.messages.find((entry) => entry.id === 'r');
    expect(read?.parts).toEqual([
      {
        type: 'code-run',
        id: 'x',
        language: 'python'.repeat(20).slice(0, 32),
        code: 'a'.repeat(200_000),
        output: '',
        files: [{ id: 'f', name: 'passwd', mimeType: 'text/plain', size: 1 }],
      },
      { type: 'text', text: 'ok' },
    ]);
  });

  it('without the files, names them only', () => {
    const text = buildExport(input);
    expect(text).toContain('"name": "p1.png"');
    expect(text).not.toContain('"data"');
    expect(dataOf(text).files).toBeUndefined();
  });
});

describe('the export in parts', () => {
  it.each([0, 1, 3])('joins into exactly the envelope as 2-space JSON (%i conversations)', (count) => {
    const conversations = [
      branched,
      ...Array.from({ length: count - 1 }, (_, index) => ({
        ...conversation,
        id: `c-${index}`,
        name: `Line one\nline "two" ${index}`,
      })),
    ].slice(0, count);
    const text = buildExport({
      config,
      conversations,
      activeConversationId: 'c2',
      includeApiKey: false,
      now,
    });
    const withoutKey: Partial<Config> = { ...config };
    delete withoutKey.apiKey;
    expect(text).toBe(
      JSON.stringify(
        {
          version: '2.0',
          exportedAt: now.toISOString(),
          config: withoutKey,
          conversations: conversations.map(conversationRecord),
          activeConversationId: 'c2',
        },
        null,
        2,
      ),
    );
  });
});

describe("the user's saved artifact versions", () => {
  it('travel with the conversation, and two copies keep both sides', () => {
    const saved = (id: string) => ({
      id,
      key: 'page',
      language: 'html',
      code: `<h1>${id}</h1>`,
      afterMessageId: 'c1:a1',
      savedAt: '2024-05-03T00:00:00.000Z',
    });
    const edited = { ...conversation, artifactEdits: [saved('e1')] };
    const text = buildExport({
      config,
      conversations: [edited],
      activeConversationId: 'c1',
      now,
      includeApiKey: false,
    });
    expect(dataOf(text).conversations?.[0]?.artifactEdits).toEqual([saved('e1')]);
    const hostile = JSON.parse(text) as { conversations: Record<string, unknown>[] };
    hostile.conversations[0] = {
      ...hostile.conversations[0],
      artifactEdits: [saved('e1'), saved('e1'), { id: 'x' }, 'no'],
    };
    expect(dataOf(JSON.stringify(hostile)).conversations?.[0]?.artifactEdits).toEqual([saved('e1')]);
    const merged = mergeConversations(edited, { ...conversation, artifactEdits: [saved('e2')] });
    expect(merged.artifactEdits?.map((edit) => edit.id)).toEqual(['e1', 'e2']);
    expect(mergeConversations(edited, edited)).toBe(edited);
  });
});

describe('projects in an export', () => {
  const notes = attachment('pf1', { kind: 'text', name: 'notes.md', mimeType: 'text/markdown', size: 5 });
  delete notes.width;
  delete notes.height;
  const project: Project = {
    id: 'p1',
    name: 'Research',
    instructions: 'Answer in French.',
    files: [notes],
    pin: { provider: 'claude', model: 'claude-sonnet-4-5' },
    effort: 'high',
    toolSwitches: { web: true },
    emoji: '🔬',
    color: 'teal',
    folded: true,
    createdAt: '2024-05-01T00:00:00.000Z',
    updatedAt: '2024-05-02T00:00:00.000Z',
  };
  const plain: Project = {
    id: 'p2',
    name: 'Plain',
    instructions: '',
    files: [],
    createdAt: '2024-05-01T00:00:00.000Z',
    updatedAt: '2024-05-01T00:00:00.000Z',
  };
  const inProject: Conversation = {
    ...conversation,
    projectId: 'p1',
    projectAt: '2024-05-02T00:00:00.000Z',
  };
  const input = {
    config,
    conversations: [inProject, branched],
    activeConversationId: 'c1',
    now,
    includeApiKey: false,
    projects: [project, plain],
  };
  const files = new Map([['pf1', 'IyBIaSE=']]);

  it('writes `projects` between the config and the conversations, each as its record', () => {
    const text = buildExport(input);
    expect(text).toBe(
      JSON.stringify(
        {
          version: '2.0',
          exportedAt: '2024-05-06T07:08:09.000Z',
          config: without(config, 'apiKey'),
          projects: [project, plain],
          conversations: [conversationRecord(inProject), conversationRecord(branched)],
          activeConversationId: 'c1',
        },
        null,
        2,
      ),
    );
    // Written in parts (a backup), the same text.
    const parts =
      exportHead(config, false, now, 'projects') +
      exportProjectEntry(project, 0) +
      exportProjectEntry(plain, 1) +
      exportProjectsEnd(2) +
      exportEntry(conversationRecord(inProject), 0) +
      exportEntry(conversationRecord(branched), 1) +
      exportTail(2, 'c1');
    expect(parts).toBe(text);
  });

  it('writes no `projects` at all when there are none: the text earlier releases wrote', () => {
    const text = buildExport({ ...input, projects: [] });
    expect(text).not.toContain('"projects"');
    expect(text).toBe(buildExport({ ...input, projects: undefined }));
  });

  it('leaves out what a project object carries beyond its fields', () => {
    const extra = { ...project, secret: 'x' } as Project;
    const parsed = JSON.parse(buildExport({ ...input, projects: [extra] })) as { projects: unknown[] };
    expect(parsed.projects).toEqual([project]);
  });

  it('round trip: the projects, their files’ bytes, and the conversations in them', () => {
    const text = buildExport({ ...input, files });
    expect(text).toContain('"data": "IyBIaSE="');
    expect(exportPreview(text)).not.toContain('IyBIaSE=');
    const data = dataOf(text);
    expect(data.projects).toEqual([project, plain]);
    expect(data.files).toEqual(new Map([['pf1', { data: 'IyBIaSE=', mimeType: 'text/markdown' }]]));
    expect(data.conversations?.[0]).toMatchObject({ projectId: 'p1', projectAt: '2024-05-02T00:00:00.000Z' });
    expect(data.conversations?.[1]?.projectId).toBeUndefined();
  });

  it('a file without `projects` (an earlier release’s) imports as before: no projects, no project ids', () => {
    const old = buildExport({ ...input, conversations: [conversation, branched], projects: [] });
    const data = dataOf(old);
    expect(data).not.toHaveProperty('projects');
    expect(data.conversations?.map((entry) => normalized(entry))).toEqual([
      normalized({ ...conversation, order: 0 }),
      normalized({ ...branched, order: 1 }),
    ]);
  });

  it('a conversation whose project is not in the file belongs to none', () => {
    const text = buildExport({ ...input, projects: [plain] });
    const data = dataOf(text);
    expect(data.conversations?.[0]).not.toHaveProperty('projectId');
    expect(data.conversations?.[0]?.name).toBe('Greeting');
    const withoutProjects = JSON.parse(text) as Record<string, unknown>;
    delete withoutProjects.projects;
    expect(dataOf(JSON.stringify(withoutProjects)).conversations?.[0]).not.toHaveProperty('projectId');
  });

  it('reads hostile projects bounded: wrong types left out, never the file', () => {
    const envelope = JSON.parse(buildExport(input)) as Record<string, unknown>;
    const hostile = {
      ...envelope,
      projects: [
        'text',
        null,
        7,
        { id: 3, name: 'n', createdAt: project.createdAt, updatedAt: project.updatedAt },
        { id: 'no-name', createdAt: project.createdAt, updatedAt: project.updatedAt },
        { id: 'no-times', name: 'n' },
        {
          ...project,
          instructions: 'x'.repeat(5_000_000),
          files: Array.from({ length: 10_000 }, (_, index) => ({ ...notes, id: `f${index}` })),
          pin: { provider: 'nowhere', model: 'm' },
          effort: 'extreme',
          color: 'plaid',
          emoji: '🙂'.repeat(100),
          folded: 'yes',
        },
      ],
    };
    const data = dataOf(JSON.stringify(hostile));
    expect(data.projects).toHaveLength(1);
    const [read] = data.projects ?? [];
    expect(read?.instructions).toHaveLength(projectLimits.instructionsLength);
    expect(read?.files).toHaveLength(projectLimits.files);
    expect(read).not.toHaveProperty('pin');
    expect(read).not.toHaveProperty('effort');
    expect(read).not.toHaveProperty('color');
    expect(read).not.toHaveProperty('emoji');
    expect(read).not.toHaveProperty('folded');
    expect(data.conversations?.[0]?.projectId).toBe('p1');
  });

  it('leaves out a project’s file whose id a conversation’s file or an earlier project’s has', () => {
    const photo = attachment('shared');
    const withPhoto: Conversation = {
      ...inProject,
      messages: inProject.messages.map((entry, index) => (index === 1 ? withFiles(entry, photo) : entry)),
    };
    const claims = (id: string, ...fileIds: string[]): Project => ({
      ...plain,
      id,
      files: fileIds.map((fileId) => ({ ...notes, id: fileId })),
    });
    const data = dataOf(
      buildExport({
        ...input,
        conversations: [withPhoto],
        projects: [claims('p1', 'shared', 'own', 'own'), claims('p2', 'own', 'other')],
      }),
    );
    expect(data.projects?.map((project) => project.files.map((file) => file.id))).toEqual([
      ['own'],
      ['other'],
    ]);
  });

  it('reads at most the limit of 10,000 projects, quickly', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({ ...plain, id: `p${index}` }));
    const started = performance.now();
    const data = dataOf(JSON.stringify({ version: '2.0', projects: many, conversations: [] }));
    expect(data.projects).toHaveLength(projectLimits.projects);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses `projects` that is not a list, and reads none without conversations', () => {
    expect(problemOf(JSON.stringify({ version: '2.0', projects: {}, conversations: [] }))).toBe(
      'projects must be a list (found an object)',
    );
    const configOnly = dataOf(JSON.stringify({ version: '2.0', config, projects: [plain] }));
    expect(configOnly).not.toHaveProperty('projects');
  });
});
