import { describe, expect, it } from 'vitest';
import { hostileJsonProblem, parseJson, readImport } from './export-format.ts';
import { readOtherAppExport } from './other-apps/read-other-app.ts';

/**
 * Files a user might paste or choose in the Import tab that are not exports, each refused whole
 * with the problem named: the matrix the e2e suite once ran through the browser, case by case
 * (tests/e2e/import-refusals.spec.ts keeps one per kind, to show the message and that nothing
 * changes). Read as the import worker reads pasted text (src/state/import-reading.ts): JSON, then
 * hazards, then another app's export, then ours.
 */
function refusal(text: string): string {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed.problem;
  const hostile = hostileJsonProblem(parsed.value);
  if (hostile !== null) return hostile;
  expect(readOtherAppExport(parsed.value, now), 'taken for another app’s export').toBeNull();
  const result = readImport(parsed.value, { now });
  if (result.ok) throw new Error('the file was accepted');
  return result.problem;
}

function sampleConversation(id: string, name: string): Record<string, unknown> {
  return {
    id,
    name,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ],
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    provider: 'openai',
  };
}

const conversation = (fields: Record<string, unknown>) => ({
  ...sampleConversation('c1', 'Fine'),
  ...fields,
});

const badFiles: [string, unknown, RegExp][] = [
  ['not an object', 'just a string', /^The file must hold an object \(found a string\)$/],
  ['neither config nor conversations', { version: '2.0' }, /neither a config nor conversations/],
  ['unknown version', { version: '3.1', conversations: [] }, /^version must be "2\.0" \(found "3\.1"\)$/],
  [
    'conversations not a list',
    { conversations: 'all of them' },
    /^conversations must be a list \(found a string\)$/,
  ],
  [
    'name of the wrong type',
    { conversations: [conversation({ name: 5 })] },
    /^conversations\[0\]\.name must be a string \(found a number\)$/,
  ],
  [
    'missing id',
    { conversations: [conversation({ id: undefined })] },
    /^conversations\[0\]\.id must be a non-empty string/,
  ],
  [
    'missing messages',
    { conversations: [conversation({ messages: undefined })] },
    /^conversations\[0\]\.messages must be a list \(found nothing\)$/,
  ],
  [
    'message without content',
    { conversations: [conversation({ messages: [{ role: 'user' }] })] },
    /^conversations\[0\]\.messages\[0\]\.content must be a string \(found nothing\)$/,
  ],
  [
    'content of the wrong type',
    { conversations: [conversation({ messages: [{ role: 'user', content: { text: 'hi' } }] })] },
    /^conversations\[0\]\.messages\[0\]\.content must be a string \(found an object\)$/,
  ],
  [
    'bad timestamp',
    { conversations: [conversation({ createdAt: 'yesterday' })] },
    /^conversations\[0\]\.createdAt must be an ISO timestamp/,
  ],
  [
    'unknown provider in a conversation',
    { conversations: [conversation({ provider: 'skynet' })] },
    /^conversations\[0\]\.provider must be one of/,
  ],
  [
    'duplicate ids',
    { conversations: [conversation({ id: 'dup' }), conversation({ id: 'dup', name: 'Again' })] },
    /^conversations\[1\]\.id "dup" is already used by conversations\[0\]$/,
  ],
  [
    'a branch whose parent is not in the conversation',
    {
      conversations: [
        conversation({
          messages: [
            { id: 'm0', role: 'system', content: 'You are a helpful assistant.' },
            { id: 'm1', role: 'user', content: 'q' },
          ],
          otherMessages: [{ id: 'm2', parentId: 'nowhere', role: 'assistant', content: 'a' }],
        }),
      ],
    },
    /^conversations\[0\]\.otherMessages\[0\]\.parentId "nowhere" names no message of this conversation/,
  ],
  [
    'branches whose parents form a cycle',
    {
      conversations: [
        conversation({
          messages: [{ id: 'm0', role: 'system', content: 'You are a helpful assistant.' }],
          otherMessages: [
            { id: 'x', parentId: 'y', role: 'user', content: 'q' },
            { id: 'y', parentId: 'x', role: 'assistant', content: 'a' },
          ],
        }),
      ],
    },
    /^conversations\[0\]\.otherMessages\[0\]: its parents form a cycle/,
  ],
  [
    'a message id used twice',
    {
      conversations: [
        conversation({
          messages: [
            { id: 'm0', role: 'system', content: 'You are a helpful assistant.' },
            { id: 'm1', role: 'user', content: 'q' },
          ],
          otherMessages: [{ id: 'm1', parentId: 'm0', role: 'user', content: 'again' }],
        }),
      ],
    },
    /^conversations\[0\]\.otherMessages\[0\]\.id "m1" is already used by conversations\[0\]\.messages\[1\]/,
  ],
  ['config of the wrong type', { config: 'openai' }, /^config must be an object \(found a string\)$/],
  [
    'config field of the wrong type',
    { config: { provider: 'openai', temperature: 'warm' } },
    /^config\.temperature must be a number \(found a string\)$/,
  ],
  ['unknown provider', { config: { provider: 'skynet' } }, /^config\.provider must be one of/],
  [
    'active id of the wrong type',
    { conversations: [conversation({})], activeConversationId: 7 },
    /^activeConversationId must be a string or null \(found a number\)$/,
  ],
  // One bad conversation after good ones: nothing of the file is taken.
  [
    'bad last item',
    {
      conversations: [
        conversation({ id: 'g1' }),
        conversation({ id: 'g2' }),
        conversation({ id: 'g3', messages: [{ role: 'user', content: 1 }] }),
      ],
    },
    /^conversations\[2\]\.messages\[0\]\.content must be a string/,
  ],
];

describe('a pasted or chosen file that is not an export', () => {
  it.each(badFiles)('is refused, naming the problem: %s', (_, file, problem) => {
    expect(refusal(JSON.stringify(file))).toMatch(problem);
  });

  it('is refused when it is not JSON at all, or cut short', () => {
    expect(refusal('{"version": "2.0", "conversations": [')).toMatch(/^The file is not valid JSON/);
    expect(refusal('not json{')).toMatch(/^The file is not valid JSON/);
  });
});

describe('a file carrying __proto__ or nested absurdly deep', () => {
  const smuggled = JSON.stringify({
    version: '2.0',
    config: { provider: 'groq', apiKey: 'stolen' },
    conversations: [sampleConversation('evil', 'Evil')],
    polluted: 'root',
  });
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it.each([
    ['everything hidden behind it', `{"__proto__": ${smuggled}}`, /"__proto__" key at the top level/],
    [
      'in a message',
      JSON.stringify({ conversations: [sampleConversation('p1', 'Nested')] }).replace(
        '"role":"user"',
        '"__proto__":{"polluted":"message","status":"stopped"},"role":"user"',
      ),
      /"__proto__" key at conversations\[0\]\.messages\[1\]/,
    ],
    [
      'in the config',
      '{"config": {"provider": "openai", "__proto__": {"polluted": "config", "apiKey": "evil"}}}',
      /"__proto__" key at config/,
    ],
    ['100,000 nested lists', deep(100_000), /nested too deeply at \[0\]/],
    [
      '100,000 nested objects',
      '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
      /nested too deeply at a\.a/,
    ],
    [
      '100,000 nested lists as a message content',
      JSON.stringify({ conversations: [conversation({})] }).replace(
        '"content":"q"',
        `"content":${deep(100_000)}`,
      ),
      /nested too deeply at conversations\[0\]\.messages\[1\]\.content/,
    ],
  ])('is refused whole: %s', (_, text, problem) => {
    expect(refusal(text)).toMatch(problem);
    const probe: Record<string, unknown> = {};
    expect([probe.polluted, probe.status, probe.apiKey, Object.keys(Object.prototype)]).toEqual([
      undefined,
      undefined,
      undefined,
      [],
    ]);
  });
});
