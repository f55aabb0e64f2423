import { describe, expect, it } from 'vitest';
import { tokenize } from './server.mjs';
import { anthropicHeaders, namedEvents, openaiHeaders, rawRequests, userTurn } from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

/** Prompt caching of a project's shared prefix (docs/providers.md#prompt-caching-projects), on the wire. */

const mock = mockProvidersForThisFile();
const raw = rawRequests(() => mock().url);

describe('OpenAI prompt_cache_key', () => {
  const chat = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/chat/completions', openaiHeaders(key), { model: 'gpt-4o', messages: userTurn, ...body });
  const responses = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/responses', openaiHeaders(key), { model: 'gpt-5.4', input: 'Hi', ...body });
  const refusal = {
    error: {
      message: "Invalid type for 'prompt_cache_key': expected a string, but got an integer instead.",
      type: 'invalid_request_error',
      param: 'prompt_cache_key',
      code: 'invalid_type',
    },
  };

  it.each([
    ['Chat Completions', 'ok.pck-chat', chat],
    ['Responses', 'ok.pck-responses', responses],
  ])('%s: a string is taken and logged; an integer is a 400 naming the field', async (_, key, send) => {
    const taken = await send(key, { prompt_cache_key: 'project-1' });
    expect(taken.status).toBe(200);
    const logged = mock().requests.filter((request) => request.key === key);
    expect(logged.at(-1)?.body).toMatchObject({ prompt_cache_key: 'project-1' });
    const refused = await send(key, { prompt_cache_key: 42 });
    expect([refused.status, refused.json]).toEqual([400, refusal]);
  });

  it('names other types as OpenAI does', async () => {
    const refused = await chat('ok.pck-types', { prompt_cache_key: { id: 1 } });
    expect(refused.json).toMatchObject({
      error: {
        message: "Invalid type for 'prompt_cache_key': expected a string, but got an object instead.",
      },
    });
  });
});

describe('Claude cache_control on blocks', () => {
  const instructions = 'Project rules: answer in French, cite the files, keep it short.';
  const ephemeral = { type: 'ephemeral' };
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF').toString('base64');
  const documentBlock = {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: pdf },
  };
  const ask = async (key: string, body: Record<string, unknown>) => {
    const response = await raw('POST', '/v1/messages', anthropicHeaders(key), {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: userTurn,
      ...body,
    });
    return response;
  };
  const usageOf = (response: { json: unknown }) => (response.json as { usage: Record<string, number> }).usage;
  /** The system prompt split where the project's part ends, the marker on that part. */
  const splitSystem = (rest: string, control: unknown = ephemeral) => [
    { type: 'text', text: instructions, cache_control: control },
    { type: 'text', text: rest },
  ];

  it('a marked system prefix is written once, then read by another conversation of the project', async () => {
    const first = await ask('ok.cc1', { system: splitSystem('\n\nBe brief.') });
    expect(first.status).toBe(200);
    const prefix = tokenize(instructions).length;
    const whole = tokenize(`${instructions}\n\nBe brief.\nHi`).length;
    expect(usageOf(first)).toMatchObject({
      input_tokens: whole - prefix,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
    });
    const messages = [{ role: 'user', content: 'Something else entirely' }];
    const second = await ask('ok.cc1', { system: splitSystem('\n\nBe thorough.'), messages });
    const secondWhole = tokenize(`${instructions}\n\nBe thorough.\nSomething else entirely`).length;
    expect(usageOf(second)).toMatchObject({
      input_tokens: secondWhole - prefix,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
    });
    // Another key has nothing cached; another prefix neither.
    expect(usageOf(await ask('ok.cc2', { system: splitSystem('\n\nBe thorough.') }))).toMatchObject({
      cache_read_input_tokens: 0,
    });
    const changed = [{ type: 'text', text: `${instructions}!`, cache_control: ephemeral }];
    expect(usageOf(await ask('ok.cc1', { system: changed }))).toMatchObject({ cache_read_input_tokens: 0 });
  });

  it('with the top-level marker too: the prefix is read and the rest of the prompt written', async () => {
    await ask('ok.cc3', { system: splitSystem('\n\nBe brief.') });
    const response = await ask('ok.cc3', {
      system: splitSystem('\n\nBe thorough.'),
      cache_control: ephemeral,
      stream: true,
    });
    const prefix = tokenize(instructions).length;
    const whole = tokenize(`${instructions}\n\nBe thorough.\nHi`).length;
    expect(namedEvents(response.text)[0]?.data).toMatchObject({
      message: {
        usage: {
          input_tokens: 0,
          cache_creation_input_tokens: whole - prefix,
          cache_read_input_tokens: prefix,
          cache_creation: { ephemeral_5m_input_tokens: whole - prefix, ephemeral_1h_input_tokens: 0 },
        },
      },
    });
  });

  it('a marker on a file block of the user turn caches up to that file; a 1h ttl counts in its bucket', async () => {
    const turn = (text: string) => [
      {
        role: 'user',
        content: [
          { ...documentBlock, cache_control: { type: 'ephemeral', ttl: '1h' } },
          { type: 'text', text },
        ],
      },
    ];
    const system = 'You are terse.';
    const first = await ask('ok.cc4', { system, messages: turn('Summarise it') });
    expect(first.status).toBe(200);
    const prefix = tokenize(`${system}\n`).length;
    expect(usageOf(first)).toMatchObject({ cache_creation_input_tokens: prefix, cache_read_input_tokens: 0 });
    const streamed = await ask('ok.cc4', { system, messages: turn('List its pages'), stream: true });
    expect(namedEvents(streamed.text)[0]?.data).toMatchObject({
      message: { usage: { cache_read_input_tokens: prefix, cache_creation_input_tokens: 0 } },
    });
    const logged = mock().requests.filter((request) => request.key === 'ok.cc4');
    expect(logged.at(-1)?.body).toMatchObject({
      messages: [{ content: [{ cache_control: { type: 'ephemeral', ttl: '1h' } }, { type: 'text' }] }],
    });
  });

  const errorOf = (response: { status: number; json: unknown }) => [
    response.status,
    (response.json as { error: { type: string; message: string } }).error,
  ];

  it('at most four blocks with cache_control, the top-level marker counted: a fifth is a 400', async () => {
    const marked = (text: string) => ({ type: 'text', text, cache_control: ephemeral });
    const four = {
      system: [marked('One'), marked('Two')],
      messages: [{ role: 'user', content: [marked('Three'), marked('Four')] }],
    };
    expect((await ask('ok.cc5', four)).status).toBe(200);
    const tooMany = {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
      },
      request_id: expect.stringMatching(/^req_/),
    };
    const fifthBlock = await ask('ok.cc5', {
      ...four,
      messages: [{ role: 'user', content: [marked('Three'), marked('Four'), marked('Five')] }],
    });
    expect([fifthBlock.status, fifthBlock.json]).toEqual([400, tooMany]);
    const topLevel = await ask('ok.cc5', { ...four, cache_control: ephemeral });
    expect([topLevel.status, topLevel.json]).toEqual([400, tooMany]);
    const tool = { name: 'lookup', input_schema: { type: 'object' }, cache_control: ephemeral };
    expect(errorOf(await ask('ok.cc5', { ...four, tools: [tool] }))).toEqual([400, tooMany.error]);
  });

  it('refuses a malformed marker, and empty or blank system blocks', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { system: splitSystem('Rest', { type: 'persistent' }) },
        "system.0.cache_control.type: Input should be 'ephemeral'",
      ],
      [
        { system: splitSystem('Rest', { type: 'ephemeral', ttl: '2h' }) },
        "system.0.cache_control.ttl: Input should be '5m' or '1h'",
      ],
      [
        { messages: [{ role: 'user', content: [{ ...documentBlock, cache_control: 'ephemeral' }] }] },
        "messages.0.content.0.cache_control.type: Input should be 'ephemeral'",
      ],
      [{ system: splitSystem('') }, 'system: text content blocks must be non-empty'],
      [{ system: splitSystem('\n\n') }, 'system: text content blocks must contain non-whitespace text'],
      [{ system: [{ type: 'text', text: 'Hi', id: 1 }] }, 'system.0.id: Extra inputs are not permitted'],
      [
        { messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
        'messages: text content blocks must be non-empty',
      ],
    ];
    for (const [body, message] of cases)
      expect(errorOf(await ask('ok.cc6', body))).toEqual([400, { type: 'invalid_request_error', message }]);
  });
});
