import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changePrompt,
  cleanPromptTitle,
  createPrompt,
  fillPrompt,
  orderPrompts,
  promptLimits,
  promptPreview,
  promptProblem,
  promptVariables,
  promptsFile,
  readPrompt,
  readPrompts,
  readPromptsFile,
  messagePrompts,
  personaById,
  personasOf,
  withPersona,
  type Prompt,
} from './prompts.ts';
import { createConversation, systemPromptOf } from './conversation-rules.ts';

const now = new Date('2026-05-01T10:00:00.000Z');

function prompt(fields: Partial<Prompt> = {}): Prompt {
  return {
    id: 'p1',
    title: 'Summarise',
    body: 'Summarise {{text}}',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('promptVariables', () => {
  it('lists each variable once, in the order it first appears', () => {
    expect(promptVariables('Dear {{name}}, about {{ topic }}: {{name}} and {{topic}}.')).toEqual([
      'name',
      'topic',
    ]);
  });

  it('takes letters, digits, _ and - with spaces around, and nothing else', () => {
    expect(promptVariables('{{first_name}} {{x-2}} {{\tÉtat\t}} {{ 名前 }}')).toEqual([
      'first_name',
      'x-2',
      'État',
      '名前',
    ]);
    expect(promptVariables('{{}} {{ }} {{a b}} {{a.b}} {{a}b}} {a} {{a} {{a\n}}')).toEqual(['a']);
    expect(promptVariables('{{}} {{a b}} {{a.b}} {{a}b}} {a} {{a}')).toEqual([]);
    expect(promptVariables('{{{name}}}')).toEqual(['name']);
    expect(promptVariables('{{ {{inner}} }}')).toEqual(['inner']);
    expect(promptVariables(`{{${'a'.repeat(promptLimits.nameLength)}}} {{${'b'.repeat(101)}}}`)).toEqual([
      'a'.repeat(promptLimits.nameLength),
    ]);
  });

  it('stops at the limit of distinct variables', () => {
    const body = Array.from({ length: 60 }, (_, index) => `{{v${index}}}`).join(' ');
    expect(promptVariables(body)).toHaveLength(promptLimits.variables);
    expect(promptVariables(body)[49]).toBe('v49');
  });

  it('reads a hostile body in linear time', () => {
    const started = performance.now();
    for (const shape of ['{{', '{{ ', '{{a', '{{a ', '{{{', '{{a}', '{{ a }']) {
      promptVariables(shape.repeat(200_000 / shape.length));
      fillPrompt(shape.repeat(200_000 / shape.length), { a: 'x' });
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('fillPrompt', () => {
  it('replaces every occurrence, spaces inside the braces allowed', () => {
    expect(fillPrompt('Hi {{name}}, {{ name }}! {{other}}', { name: 'Ada' })).toBe('Hi Ada, Ada! {{other}}');
  });

  it('inserts values as they are: a variable in a value stays text', () => {
    expect(fillPrompt('{{a}} {{b}}', { a: '{{b}}', b: '$&' })).toBe('{{b}} $&');
  });

  it('reads only the values given, never the prototype', () => {
    expect(fillPrompt('{{constructor}} {{__proto__}} {{toString}}', {})).toBe(
      '{{constructor}} {{__proto__}} {{toString}}',
    );
    expect(fillPrompt('{{__proto__}}', Object.fromEntries([['__proto__', 'x']]))).toBe('x');
  });

  it('leaves text without variables as it is', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const body = text.replaceAll('{', '(');
        expect(fillPrompt(body, { a: 'x' })).toBe(body);
      }),
    );
  });
});

describe('creating and changing', () => {
  it('keeps the title on one line, trimmed and bounded', () => {
    const made = createPrompt({ id: 'a', title: '  Code\n review  ', body: 'Review {{code}}', now });
    expect(made).toEqual({
      ok: true,
      prompt: {
        id: 'a',
        title: 'Code review',
        body: 'Review {{code}}',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      },
    });
    expect(cleanPromptTitle('x'.repeat(300))).toHaveLength(promptLimits.titleLength);
  });

  it('refuses no title, no text, a text too long and too many variables', () => {
    expect(createPrompt({ id: 'a', title: ' \n ', body: 'x', now })).toEqual({
      ok: false,
      problem: 'A prompt needs a title.',
    });
    expect(promptProblem('T', '  \n')).toBe('A prompt needs some text.');
    expect(promptProblem('T', 'x'.repeat(promptLimits.bodyLength + 1))).toBe(
      'A prompt can be at most 100,000 characters long.',
    );
    expect(promptProblem('T', 'x'.repeat(promptLimits.bodyLength))).toBeNull();
    const many = (count: number) => Array.from({ length: count }, (_, index) => `{{v${index}}}`).join('');
    expect(promptProblem('T', many(51))).toBe('A prompt can ask for at most 50 different values.');
    expect(promptProblem('T', many(50))).toBeNull();
  });

  it('changes the title or the text and stamps the change, on the same rules', () => {
    const later = new Date('2026-06-01T00:00:00.000Z');
    const changed = changePrompt(prompt(), { title: ' New\ttitle ' }, later);
    expect(changed).toEqual({
      ok: true,
      prompt: { ...prompt(), title: 'New title', updatedAt: later.toISOString() },
    });
    expect(changePrompt(prompt(), { body: '' }, later)).toEqual({
      ok: false,
      problem: 'A prompt needs some text.',
    });
    // A clock behind the copy never makes the change older than it.
    const behind = changePrompt(prompt({ updatedAt: '2027-01-01T00:00:00.000Z' }), { body: 'b' }, later);
    expect(behind.ok && behind.prompt.updatedAt).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('reading back (hostile input)', () => {
  it('keeps exactly the known fields', () => {
    expect(readPrompt({ ...prompt(), extra: 1, title: ' Two\nlines ' })).toEqual(
      prompt({ title: 'Two lines' }),
    );
    const withProto = JSON.parse(`{"id":"x","title":"T","body":"b","createdAt":"2026-01-01T00:00:00.000Z",
      "updatedAt":"2026-01-01T00:00:00.000Z","__proto__":{"polluted":true}}`) as unknown;
    const read = readPrompt(withProto);
    expect(read && Object.keys(read)).toEqual(['id', 'title', 'body', 'createdAt', 'updatedAt']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what is not a prompt', () => {
    for (const value of [
      null,
      'text',
      [],
      prompt({ id: '' }),
      prompt({ id: 'x'.repeat(101) }),
      { ...prompt(), title: 3 },
      { ...prompt(), body: null },
      prompt({ title: '  ' }),
      prompt({ body: '' }),
      prompt({ body: 'x'.repeat(promptLimits.bodyLength + 1) }),
      prompt({ createdAt: 'yesterday' }),
      { ...prompt(), updatedAt: undefined },
      Object.create(prompt()) as unknown,
    ])
      expect(readPrompt(value)).toBeNull();
  });

  it('reads each id once, the later copy, and at most the limit', () => {
    const older = prompt({ title: 'Old' });
    const newer = prompt({ title: 'New', updatedAt: '2026-02-01T00:00:00.000Z' });
    expect(readPrompts([older, newer, 'junk'])).toEqual([newer]);
    expect(readPrompts([newer, older])).toEqual([newer]);
    expect(readPrompts({ prompts: [] })).toEqual([]);
    const many = Array.from({ length: promptLimits.prompts + 5 }, (_, index) => prompt({ id: `p${index}` }));
    expect(readPrompts(many)).toHaveLength(promptLimits.prompts);
  });

  it('reads a prompts file, or says why it is not one', () => {
    const file = promptsFile([prompt()], now);
    expect(file).toEqual({ kind: 'prompts', version: 1, exportedAt: now.toISOString(), prompts: [prompt()] });
    expect(readPromptsFile(JSON.stringify(file))).toEqual({ ok: true, prompts: [prompt()], unread: 0 });
    expect(readPromptsFile(JSON.stringify([prompt(), { id: 1 }]))).toEqual({
      ok: true,
      prompts: [prompt()],
      unread: 1,
    });
    expect(readPromptsFile('{ nope')).toEqual({ ok: false, problem: 'the file is not JSON' });
    expect(readPromptsFile('{"conversations": []}')).toEqual({
      ok: false,
      problem: 'the file holds no list of prompts',
    });
    expect(readPromptsFile('{"prompts": []}')).toEqual({ ok: false, problem: 'the file holds no prompts' });
    expect(readPromptsFile('[{"title": "x"}]')).toMatchObject({ ok: false });
  });
});

describe('showing', () => {
  it('orders by title as read, then by creation', () => {
    const list = [
      prompt({ id: 'c', title: 'beta' }),
      prompt({ id: 'b', title: 'Alpha 10' }),
      prompt({ id: 'a', title: 'alpha 9' }),
    ];
    expect(orderPrompts(list).map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
  });

  it('previews the first line with text', () => {
    expect(promptPreview('\n  \n  First line  \nsecond')).toBe('First line');
    expect(promptPreview('x'.repeat(500))).toHaveLength(200);
  });
});

describe('personas', () => {
  const pin = { provider: 'claude' as const, model: 'claude-sonnet-4-6' };
  const persona = (fields: Partial<Prompt> = {}) =>
    prompt({ id: 'r', title: 'Reviewer', body: 'You review code {{strictly}}.', persona: true, ...fields });

  it('are made with a name, a system prompt and optionally a model, on their own words', () => {
    const made = createPrompt({
      id: 'r',
      title: ' Reviewer ',
      body: 'Be terse.',
      now,
      persona: { model: pin },
    });
    expect(made).toMatchObject({ ok: true, prompt: { title: 'Reviewer', persona: true, model: pin } });
    expect(createPrompt({ id: 'r', title: '', body: 'x', now, persona: {} })).toEqual({
      ok: false,
      problem: 'A persona needs a name.',
    });
    expect(promptProblem('R', ' ', true)).toBe('A persona needs a system prompt.');
    // Braces in a system prompt are text: no limit on "variables".
    const many = Array.from({ length: 60 }, (_, index) => `{{v${index}}}`).join('');
    expect(promptProblem('R', many, true)).toBeNull();
  });

  it("change their model, or drop it; a prompt's change never gives it one", () => {
    const later = new Date('2026-06-01T00:00:00.000Z');
    const changed = changePrompt(persona(), { model: pin }, later);
    expect(changed.ok && changed.prompt.model).toEqual(pin);
    const dropped = changePrompt(persona({ model: pin }), { model: undefined }, later);
    expect(dropped.ok && 'model' in dropped.prompt).toBe(false);
    const plain = changePrompt(prompt(), { model: pin }, later);
    expect(plain.ok && 'model' in plain.prompt).toBe(false);
  });

  it('are read back with their model, a bad model left out; a prompt reads no model', () => {
    expect(readPrompt({ ...persona(), model: pin })).toEqual(persona({ model: pin }));
    expect(readPrompt({ ...persona(), model: { provider: 'nope', model: 'x' } })).toEqual(persona());
    expect(readPrompt({ ...prompt(), model: pin })).toEqual(prompt());
    expect(readPrompt({ ...persona(), persona: 'yes' })).toEqual(
      prompt({ id: 'r', title: 'Reviewer', body: persona().body }),
    );
  });

  it('are kept apart from the prompts a message takes', () => {
    const list = [prompt(), persona({ id: 'z', title: 'Zed' }), persona()];
    expect(messagePrompts(list)).toEqual([prompt()]);
    expect(personasOf(list).map((entry) => entry.title)).toEqual(['Reviewer', 'Zed']);
    expect(personaById(list, 'r')?.title).toBe('Reviewer');
    expect(personaById(list, 'p1')).toBeUndefined();
    expect(personaById(list, undefined)).toBeUndefined();
  });

  it("set a conversation's system prompt, and its model when they have one", () => {
    const conversation = createConversation({
      existingCount: 0,
      provider: 'openai',
      now,
      id: 'c',
      rootId: 'root',
    });
    const later = new Date('2026-06-01T00:00:00.000Z');
    const set = withPersona(conversation, persona({ model: pin }), later);
    expect(systemPromptOf(set)).toBe('You review code {{strictly}}.');
    expect(set.pin).toEqual(pin);
    expect(set.pinnedAt).toBe(later.toISOString());
    expect(withPersona(conversation, persona(), later).pin).toBeUndefined();
  });
});
