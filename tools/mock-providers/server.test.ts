import { spawn } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownReply, scenarioNames, startMockProviders, tokenize, utf8Reply } from './server.mjs';

let mock: Awaited<ReturnType<typeof startMockProviders>>;

beforeAll(async () => {
  mock = await startMockProviders({ tokenDelayMs: 1 });
});
afterAll(async () => {
  await mock.close();
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  chunks: Buffer[];
  text: string;
  json: unknown;
  aborted: boolean;
}

/** A plain node:http request, to see status, every header and the body's chunks as written. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${mock.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      let aborted = false;
      const finish = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, text, json, aborted });
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('aborted', () => (aborted = true));
      res.on('error', () => ((aborted = true), finish()));
      res.on('end', finish);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(typeof body === 'string' ? body : JSON.stringify(body));
    req.end();
  });
}

const userTurn = [{ role: 'user', content: 'Hi' }];
const openaiHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});
const anthropicHeaders = (key: string) => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'content-type': 'application/json',
});
const geminiPath = (method = 'generateContent') => `/v1beta/models/gemini-2.5-flash:${method}`;
const errorMessage = (response: RawResponse) =>
  (response.json as { error: { message: string } }).error.message;

interface SseEvent {
  name: string;
  data: Record<string, unknown>;
}

/** Named SSE events (Anthropic, Responses): each `event:` line with its parsed `data:` line. */
function namedEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({
      name: /^event: (.+)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

/** The JSON `data:` payloads of an SSE body, whatever its line endings. */
function dataPayloads<T>(text: string): T[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((block) => /^data: (\{.*)$/m.exec(block)?.[1] ?? [])
    .map((json) => JSON.parse(json) as T);
}

/** The reasoning the thinking scenarios send for a question, and the Echo after it. */
const reasoningFor = (text: string, count: number) =>
  `**Reading the question**\n\nThe user wrote: ${text}. I will echo it back with the message count (${count}).`;
const hiReasoning = reasoningFor('Hi', 1);
const hiThoughts = tokenize(hiReasoning).length;
const hiEcho = 'Echo: Hi (1 message received)';

describe('CORS', () => {
  const preflight = (path: string, requested: string) =>
    raw('OPTIONS', path, {
      origin: 'http://127.0.0.1:4173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': requested,
    });

  it('OpenAI allows any origin; Groq reflects the origin', async () => {
    const openai = await preflight('/v1/chat/completions', 'authorization,content-type');
    expect([
      openai.status,
      openai.headers['access-control-allow-origin'],
      openai.headers['access-control-allow-headers'],
    ]).toEqual([200, '*', 'authorization, content-type']);
    const groq = await preflight('/openai/v1/chat/completions', 'authorization,content-type');
    expect([groq.headers['access-control-allow-origin'], groq.headers.vary]).toEqual([
      'http://127.0.0.1:4173',
      'Origin',
    ]);
  });

  it('Gemini allows its four headers and refuses any other with 403 and no CORS headers', async () => {
    const allowed = await preflight(geminiPath(), 'content-type,x-goog-api-key');
    expect([allowed.status, allowed.headers['access-control-allow-origin']]).toEqual([
      200,
      'http://127.0.0.1:4173',
    ]);
    const refused = await preflight(geminiPath(), 'content-type,x-goog-api-key,x-stainless-os');
    expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([403, undefined]);
  });

  it('Anthropic passes the preflight but refuses a browser request without the direct-access header', async () => {
    const pre = await preflight('/v1/messages', 'x-api-key,anthropic-version,content-type');
    expect([pre.status, pre.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const body = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: userTurn };
    const refused = await raw(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders('ok.1'), origin: 'http://127.0.0.1:4173' },
      body,
    );
    expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([401, undefined]);
    expect(refused.json).toMatchObject({
      type: 'error',
      error: {
        type: 'authentication_error',
        message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
      },
    });
    const allowedHeaders = {
      ...anthropicHeaders('ok.1'),
      origin: 'http://127.0.0.1:4173',
      'anthropic-dangerous-direct-browser-access': 'true',
    };
    const allowed = await raw('POST', '/v1/messages', allowedHeaders, body);
    expect([
      allowed.status,
      allowed.headers['access-control-allow-origin'],
      allowed.headers['access-control-expose-headers'],
    ]).toEqual([200, '*', '*']);
  });

  it('a GET /v1/models preflight asking for x-api-key is answered as Anthropic', async () => {
    const pre = await raw('OPTIONS', '/v1/models', {
      origin: 'http://a.test',
      'access-control-request-headers': 'x-api-key,anthropic-version',
    });
    expect(pre.status).toBe(200);
    expect(mock.requests.at(-1)?.provider).toBe('claude');
  });

  it('the no-cors scenario answers without any CORS header', async () => {
    const response = await raw(
      'POST',
      '/v1/chat/completions',
      { ...openaiHeaders('no-cors.1'), origin: 'http://a.test' },
      { model: 'gpt-4o', messages: userTurn },
    );
    expect(response.status).toBe(200);
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control'))).toEqual([]);
  });
});

describe('keys', () => {
  it.each([
    ['openai', '/v1/chat/completions', {}, 401, "You didn't provide an API key."],
    ['groq', '/openai/v1/chat/completions', {}, 401, 'Invalid API Key'],
    [
      'azure',
      '/openai/deployments/d/chat/completions?api-version=2023-05-15',
      {},
      401,
      'Access denied due to missing subscription key.',
    ],
    ['claude', '/v1/messages', { 'anthropic-version': '2023-06-01' }, 401, 'x-api-key header is required'],
    ['gemini', geminiPath(), {}, 403, "Method doesn't allow unregistered callers"],
  ])('%s without a key: %s', async (_provider, path, headers, status, message) => {
    const response = await raw('POST', path, headers, { messages: userTurn });
    expect(response.status).toBe(status);
    expect(errorMessage(response)).toContain(message);
  });

  it.each([
    [
      'openai',
      '/v1/chat/completions',
      openaiHeaders('sk-real-looking-key'),
      401,
      /^Incorrect API key provided: sk-\*+-key\./,
    ],
    ['claude', '/v1/messages', anthropicHeaders('sk-ant-real'), 401, /^invalid x-api-key$/],
    [
      'gemini',
      `${geminiPath()}?key=AIzaReal`,
      {},
      400,
      /^API key not valid\. Please pass a valid API key\.$/,
    ],
  ])('%s with an unknown key', async (_provider, path, headers, status, message) => {
    const response = await raw('POST', path, headers, { messages: userTurn });
    expect(response.status).toBe(status);
    expect(errorMessage(response)).toMatch(message);
  });

  it('Gemini marks a bad key with reason API_KEY_INVALID', async () => {
    const response = await raw('POST', geminiPath(), { 'x-goog-api-key': 'nope' }, { contents: [] });
    expect(response.json).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        details: expect.arrayContaining([expect.objectContaining({ reason: 'API_KEY_INVALID' })]),
      },
    });
  });

  it('Azure without api-version answers 404 Resource not found', async () => {
    const response = await raw(
      'POST',
      '/openai/deployments/d/chat/completions',
      { 'api-key': 'ok.1' },
      { messages: userTurn },
    );
    expect([response.status, response.json]).toEqual([
      404,
      { error: { code: '404', message: 'Resource not found' } },
    ]);
  });
});

describe('request validation', () => {
  const openai = (body: unknown) => raw('POST', '/v1/chat/completions', openaiHeaders('ok.v'), body);
  const groq = (body: unknown) => raw('POST', '/openai/v1/chat/completions', openaiHeaders('ok.v'), body);
  const claude = (body: unknown, headers: Record<string, string> = anthropicHeaders('ok.v')) =>
    raw('POST', '/v1/messages', headers, body);
  const gemini = (body: unknown) => raw('POST', geminiPath(), { 'x-goog-api-key': 'ok.v' }, body);
  const claudeBody = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: userTurn };

  it.each([
    [
      'an unknown key',
      { model: 'gpt-4o', messages: userTurn, top_k: 5 },
      'Unrecognized request argument supplied: top_k',
    ],
    [
      'an extra message key',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi', id: 1 }] },
      "Additional properties are not allowed ('id' was unexpected) - 'messages.0'",
    ],
    [
      'stream_options without stream',
      { model: 'gpt-4o', messages: userTurn, stream_options: { include_usage: true } },
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
    ],
    ['invalid JSON', '{"model": ', 'We could not parse the JSON body of your request.'],
  ])('OpenAI rejects %s', async (_case, body, message) => {
    const response = await openai(body);
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toContain(message);
  });

  it('Azure with an old api-version rejects stream_options', async () => {
    const path = '/openai/deployments/d/chat/completions?api-version=2023-05-15';
    const response = await raw(
      'POST',
      path,
      { 'api-key': 'ok.v' },
      { messages: userTurn, stream: true, stream_options: { include_usage: true } },
    );
    expect([response.status, errorMessage(response)]).toEqual([
      400,
      'Unrecognized request argument supplied: stream_options',
    ]);
  });

  it.each([
    [
      'penalties',
      { model: 'm', messages: userTurn, frequency_penaltyx: 1 },
      "property 'frequency_penaltyx' is unsupported",
    ],
    [
      'a message name',
      { model: 'm', messages: [{ role: 'user', content: 'Hi', name: 'me' }] },
      "property 'name' is unsupported",
    ],
  ])('Groq rejects %s', async (_case, body, message) => {
    const response = await groq(body);
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toContain(message);
  });

  it.each([
    ['missing max_tokens', { model: 'c', messages: userTurn }, 'max_tokens: Field required'],
    [
      'a system role',
      { ...claudeBody, messages: [{ role: 'system', content: 'x' }, ...userTurn] },
      'messages: Unexpected role "system".',
    ],
    [
      'empty content',
      { ...claudeBody, messages: [{ role: 'user', content: '' }] },
      'messages.0: all messages must have non-empty content',
    ],
    [
      'temperature above 1',
      { ...claudeBody, temperature: 1.5 },
      'temperature: Input should be less than or equal to 1',
    ],
    [
      'temperature with top_p',
      { ...claudeBody, temperature: 0.5, top_p: 0.9 },
      '`temperature` and `top_p` cannot both be specified for this model.',
    ],
    [
      'an unknown key',
      { ...claudeBody, frequency_penalty: 0 },
      'frequency_penalty: Extra inputs are not permitted',
    ],
    ['invalid JSON', 'nope', 'The request body is not valid JSON'],
  ])('Anthropic rejects %s', async (_case, body, message) => {
    const response = await claude(body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(errorMessage(response)).toContain(message);
  });

  it('Anthropic requires the anthropic-version header', async () => {
    const response = await claude(claudeBody, { 'x-api-key': 'ok.v', 'content-type': 'application/json' });
    expect([response.status, errorMessage(response)]).toEqual([400, 'anthropic-version: header is required']);
  });

  it.each([
    [
      'a system role',
      { contents: [{ role: 'system', parts: [{ text: 'x' }] }] },
      'Please use a valid role: user, model.',
    ],
    [
      'empty parts',
      { contents: [{ role: 'user', parts: [] }] },
      '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n',
    ],
    [
      'a model turn first',
      {
        contents: [
          { role: 'model', parts: [{ text: 'a' }] },
          { role: 'user', parts: [{ text: 'b' }] },
        ],
      },
      'Please ensure that multiturn requests alternate between user and model.',
    ],
    [
      'an unknown field',
      { contents: [{ role: 'user', parts: [{ text: 'a' }] }], temperature: 1 },
      'Invalid JSON payload received. Unknown name "temperature": Cannot find field.',
    ],
    ['invalid JSON', '{', 'Invalid JSON payload received.'],
  ])('Gemini rejects %s', async (_case, body, message) => {
    const response = await gemini(body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect(errorMessage(response)).toContain(message);
  });
});

describe('stream formats', () => {
  const sse = (response: RawResponse) => response.text;

  it('OpenAI: role delta, keep-alive, empty finish delta, usage chunk with no choices, [DONE]', async () => {
    const body = {
      model: 'gpt-4o',
      messages: userTurn,
      stream: true,
      stream_options: { include_usage: true },
    };
    const text = sse(await raw('POST', '/v1/chat/completions', openaiHeaders('ok.s'), body));
    const events = text.split('\n\n').filter(Boolean);
    expect(JSON.parse(events[0]?.slice(6) ?? '')).toMatchObject({
      choices: [{ delta: { role: 'assistant', content: '' } }],
    });
    expect(events[1]).toBe(': keep-alive');
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)?.slice(6) ?? '')).toMatchObject({
      choices: [],
      usage: { completion_tokens: 6 },
    });
    expect(JSON.parse(events.at(-3)?.slice(6) ?? '')).toMatchObject({
      choices: [{ delta: {}, finish_reason: 'stop' }],
    });
  });

  it('stream-only: a streamed call is answered, the same call not streamed gets a 500', async () => {
    const body = { model: 'gpt-4o', messages: userTurn };
    const streamed = await raw('POST', '/v1/chat/completions', openaiHeaders('stream-only.s'), {
      ...body,
      stream: true,
    });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('data: [DONE]');
    const whole = await raw('POST', '/v1/chat/completions', openaiHeaders('stream-only.s'), body);
    expect(whole.status).toBe(500);
    const gemini = await raw(
      'POST',
      geminiPath(),
      { 'x-goog-api-key': 'stream-only.g', 'content-type': 'application/json' },
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      },
    );
    expect(gemini.status).toBe(500);
  });

  it('Azure: a first chunk with no choices and prompt filter results, filter results per choice, no usage chunk', async () => {
    const path = '/openai/deployments/prod/chat/completions?api-version=2024-10-21';
    const events = sse(await raw('POST', path, { 'api-key': 'ok.s' }, { messages: userTurn, stream: true }))
      .split('\n\n')
      .filter(Boolean);
    expect(JSON.parse(events[0]?.slice(6) ?? '')).toMatchObject({
      choices: [],
      prompt_filter_results: [{ prompt_index: 0 }],
    });
    expect(JSON.parse(events[2]?.slice(6) ?? '')).toMatchObject({
      choices: [{ content_filter_results: { hate: { filtered: false } } }],
    });
    expect(events.some((event) => event.includes('"usage"'))).toBe(false);
    expect(events.at(-1)).toBe('data: [DONE]');
  });

  it('Groq: x_groq in the first chunk and with usage in the last', async () => {
    const events = sse(
      await raw('POST', '/openai/v1/chat/completions', openaiHeaders('ok.s'), {
        model: 'm',
        messages: userTurn,
        stream: true,
      }),
    )
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ x_groq: { id: expect.stringMatching(/^req_/) } });
    expect(events.at(-1)).toMatchObject({
      x_groq: { usage: { completion_tokens: 6 } },
      usage: { total_tokens: expect.any(Number) },
    });
    expect(events.slice(1, -1).every((event) => !('x_groq' in event))).toBe(true);
  });

  it('Anthropic: the full event sequence with ping', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: userTurn, stream: true };
    const names = [
      ...sse(await raw('POST', '/v1/messages', anthropicHeaders('ok.s'), body)).matchAll(/^event: (.+)$/gm),
    ].map((match) => match[1]);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(6).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('Gemini: CRLF-separated data events, no terminator, STOP on the last', async () => {
    const text = sse(
      await raw(
        'POST',
        `${geminiPath('streamGenerateContent')}?alt=sse`,
        { 'x-goog-api-key': 'ok.s' },
        { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
      ),
    );
    const events = text.split('\r\n\r\n');
    expect(events.at(-1)).toBe('');
    const chunks = events
      .slice(0, -1)
      .map(
        (event) => JSON.parse(event.replace(/^data: /, '')) as { candidates: { finishReason?: string }[] },
      );
    expect(chunks.map((chunk) => chunk.candidates[0]?.finishReason)).toEqual([undefined, 'STOP']);
    expect(text).not.toContain('[DONE]');
  });

  it('utf8: some socket write cuts through a multi-byte character', async () => {
    const response = await raw('POST', '/v1/chat/completions', openaiHeaders('utf8.s'), {
      model: 'gpt-4o',
      messages: userTurn,
      stream: true,
    });
    const strict = new TextDecoder('utf-8', { fatal: true });
    const broken = response.chunks.filter((chunk) => {
      try {
        strict.decode(chunk);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken.length).toBeGreaterThan(0);
    expect(response.text).toContain('😀');
  });

  it('drop: the socket is destroyed mid-stream', async () => {
    const response = await raw('POST', '/v1/chat/completions', openaiHeaders('drop.s'), {
      model: 'gpt-4o',
      messages: userTurn,
      stream: true,
    });
    expect(response.aborted).toBe(true);
    expect(response.text).toContain('"content":"Echo:"');
    expect(response.text).not.toContain('[DONE]');
  });
});

interface ChatChunk {
  choices: { delta: { content?: string | null; reasoning?: string }; finish_reason: string | null }[];
  usage?: Record<string, unknown> | null;
  x_groq?: { usage?: Record<string, unknown> };
}

/** One delta field of every chunk, joined. */
const joined = (chunks: ChatChunk[], field: 'content' | 'reasoning') =>
  chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');

describe('Claude thinking', () => {
  const claudeThinking = {
    model: 'claude-sonnet-4-5',
    max_tokens: 2048,
    messages: userTurn,
    thinking: { type: 'enabled', budget_tokens: 1024 },
  };
  const claude = (key: string, body: unknown) => raw('POST', '/v1/messages', anthropicHeaders(key), body);
  const deltasOf = (events: SseEvent[]) =>
    events
      .filter((event) => event.name === 'content_block_delta')
      .map((event) => event.data.delta as { type: string; thinking?: string; text?: string });

  it('streams a signed thinking block, a whole redacted block, then the text, with thinking tokens in the usage', async () => {
    const events = namedEvents((await claude('thinking.c1', { ...claudeThinking, stream: true })).text);
    expect(events.map((event) => event.name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(hiThoughts + 1).fill('content_block_delta'),
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      ...Array<string>(6).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const deltas = deltasOf(events);
    expect(deltas.slice(0, hiThoughts).map((delta) => delta.thinking)).toEqual(tokenize(hiReasoning));
    expect(deltas[hiThoughts]).toEqual({
      type: 'signature_delta',
      signature: expect.stringMatching(/^sig_/),
    });
    expect(events[hiThoughts + 5]?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'redacted_thinking', data: expect.stringMatching(/^redacted_/) },
    });
    expect(deltas.slice(hiThoughts + 1).map((delta) => delta.text)).toEqual(tokenize(hiEcho));
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 6 + hiThoughts,
        output_tokens_details: { thinking_tokens: hiThoughts },
      },
    });
  });

  it('with display omitted streams no thinking text, only the signature', async () => {
    const body = {
      ...claudeThinking,
      model: 'claude-opus-4-8',
      thinking: { type: 'adaptive', display: 'omitted' },
      stream: true,
    };
    const events = namedEvents((await claude('thinking.c2', body)).text);
    expect(deltasOf(events).map((delta) => delta.type)).toEqual([
      'signature_delta',
      ...Array<string>(6).fill('text_delta'),
    ]);
    expect(events.at(-2)?.data).toMatchObject({
      usage: { output_tokens_details: { thinking_tokens: hiThoughts } },
    });
  });

  it('answers plainly when the request does not turn thinking on', async () => {
    const { model, max_tokens, messages } = claudeThinking;
    const response = await claude('thinking.c3', { model, max_tokens, messages });
    expect(response.json).toMatchObject({
      content: [{ type: 'text', text: hiEcho }],
      usage: { input_tokens: 1, output_tokens: 6 },
    });
  });

  it('takes its thinking blocks back unchanged, and refuses a changed or foreign one', async () => {
    const first = await claude('thinking.c4', claudeThinking);
    const content = (first.json as { content: Record<string, string>[] }).content;
    expect(content).toEqual([
      { type: 'thinking', thinking: hiReasoning, signature: expect.stringMatching(/^sig_/) },
      { type: 'redacted_thinking', data: expect.stringMatching(/^redacted_/) },
      { type: 'text', text: hiEcho },
    ]);
    const [thinking, redacted, text] = content;
    const followUp = (assistant: unknown[], model = claudeThinking.model) =>
      claude('thinking.c4', {
        ...claudeThinking,
        model,
        messages: [
          ...userTurn,
          { role: 'assistant', content: assistant },
          { role: 'user', content: 'Again' },
        ],
      });
    const accepted = await followUp(content);
    expect(accepted.status).toBe(200);
    expect((accepted.json as { content: { text?: string }[] }).content.at(-1)?.text).toBe(
      'Echo: Again (3 messages received)',
    );
    const changed = await followUp([
      { ...thinking, thinking: `${hiReasoning.slice(0, -1)}!` },
      redacted,
      text,
    ]);
    expect([changed.status, errorMessage(changed)]).toEqual([
      400,
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    ]);
    const forged = await followUp([thinking, { ...redacted, data: `${redacted?.data ?? ''}A` }, text]);
    expect([forged.status, errorMessage(forged)]).toEqual([
      400,
      'messages.1.content.1: Invalid `data` in `redacted_thinking` block',
    ]);
    const otherModel = await followUp(content, 'claude-opus-4-1-20250805');
    expect(errorMessage(otherModel)).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
  });

  it('reads text blocks in content arrays as text', async () => {
    const response = await claude('ok.tb', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(response.json).toMatchObject({ content: [{ type: 'text', text: hiEcho }] });
  });

  const assistantWith = (content: unknown[]) => [...userTurn, { role: 'assistant', content }];
  it.each([
    [
      'thinking.type enabled on a model after Opus 4.6',
      { ...claudeThinking, model: 'claude-opus-4-8' },
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    ],
    [
      'a budget below 1024',
      { ...claudeThinking, thinking: { type: 'enabled', budget_tokens: 500 } },
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    ],
    [
      'a budget not below max_tokens',
      { ...claudeThinking, max_tokens: 1024 },
      '`max_tokens` must be greater than `thinking.budget_tokens`.',
    ],
    [
      'temperature with thinking on',
      { ...claudeThinking, temperature: 0.5 },
      '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode',
    ],
    [
      'top_p below 0.95 with thinking on',
      { ...claudeThinking, top_p: 0.9 },
      '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled or in adaptive mode',
    ],
    [
      'top_k with adaptive thinking',
      { ...claudeThinking, thinking: { type: 'adaptive' }, top_k: 5 },
      '`top_k` must be unset when thinking is enabled or in adaptive mode',
    ],
    [
      'thinking in the final assistant message with thinking off',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: assistantWith([
          { type: 'thinking', thinking: 'x', signature: 'y' },
          { type: 'text', text: 'Hello' },
        ]),
      },
      'When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`',
    ],
    [
      'an assistant message ending in thinking',
      {
        ...claudeThinking,
        messages: [
          ...assistantWith([
            { type: 'text', text: 'Hello' },
            { type: 'redacted_thinking', data: 'x' },
          ]),
          { role: 'user', content: 'More' },
        ],
      },
      'The final block in an assistant message cannot be `thinking`',
    ],
    [
      'a cache_control type other than ephemeral',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: userTurn,
        cache_control: { type: 'persistent' },
      },
      "cache_control.type: Input should be 'ephemeral'",
    ],
  ])('Anthropic rejects %s', async (_case, body, message) => {
    const response = await claude('ok.tv', body);
    expect([response.status, errorMessage(response)]).toEqual([400, message]);
    expect(response.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

describe('Claude prompt caching', () => {
  const system = 'You are terse.';
  const turn1 = userTurn;
  const turn2 = [
    ...userTurn,
    { role: 'assistant', content: 'Echo: Hi (2 messages received)' },
    { role: 'user', content: 'Tell me more' },
  ];
  const promptTokens = (messages: { content: string }[]) =>
    tokenize([system, ...messages.map((message) => message.content)].join('\n')).length;
  const ask = async (key: string, messages: unknown[], cacheControl?: unknown) => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system,
      messages,
      cache_control: cacheControl,
    };
    const response = await raw('POST', '/v1/messages', anthropicHeaders(key), body);
    return (response.json as { usage: Record<string, number> }).usage;
  };
  const ephemeral = { type: 'ephemeral' };

  it('writes the prompt, then reads the prefix an earlier request wrote; the three counts add up to the prompt', async () => {
    expect(await ask('ok.cache1', turn1, ephemeral)).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: promptTokens(turn1),
      cache_read_input_tokens: 0,
    });
    expect(await ask('ok.cache1', turn2, ephemeral)).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: promptTokens(turn2) - promptTokens(turn1),
      cache_read_input_tokens: promptTokens(turn1),
    });
    expect(await ask('ok.cache1', turn2)).toMatchObject({
      input_tokens: promptTokens(turn2),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(await ask('ok.cache2', turn2, ephemeral)).toMatchObject({ cache_read_input_tokens: 0 });
  });

  it('streams the figures in message_start, with a 1h ttl in its own bucket', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system,
      messages: turn1,
      cache_control: { type: 'ephemeral', ttl: '1h' },
      stream: true,
    };
    const response = await raw('POST', '/v1/messages', anthropicHeaders('ok.cache3'), body);
    const written = promptTokens(turn1);
    expect(namedEvents(response.text)[0]?.data).toMatchObject({
      message: {
        usage: {
          input_tokens: 0,
          cache_creation_input_tokens: written,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: written },
          output_tokens: 1,
        },
      },
    });
  });
});

describe('Gemini thinking', () => {
  const contents = [{ role: 'user', parts: [{ text: 'Hi' }] }];
  const gemini = (model: string, key: string, body: unknown, stream = false) =>
    raw(
      'POST',
      `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      { 'x-goog-api-key': key },
      body,
    );
  interface Part {
    text: string;
    thought?: boolean;
    thoughtSignature?: string;
  }
  interface GeminiChunk {
    candidates: { content: { parts: Part[] }; finishReason?: string }[];
    usageMetadata: Record<string, number | undefined>;
  }
  const streamed = async (key: string, thinkingConfig: unknown) =>
    dataPayloads<GeminiChunk>(
      (await gemini('gemini-2.5-flash', key, { contents, generationConfig: { thinkingConfig } }, true)).text,
    );

  it('streams thought parts, then the answer, then the signature with STOP; cumulative usage in every chunk', async () => {
    const chunks = await streamed('thinking.g1', { includeThoughts: true, thinkingBudget: 1024 });
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    const thoughtCount = parts.filter((part) => part.thought).length;
    expect(
      parts
        .slice(0, thoughtCount)
        .map((part) => part.text)
        .join(''),
    ).toBe(hiReasoning);
    expect(
      parts
        .slice(thoughtCount, -1)
        .map((part) => part.text)
        .join(''),
    ).toBe(hiEcho);
    expect(chunks.at(-1)?.candidates[0]).toMatchObject({
      content: { parts: [{ text: '', thoughtSignature: expect.any(String) }] },
      finishReason: 'STOP',
    });
    expect(chunks.slice(0, -1).map((chunk) => chunk.candidates[0]?.finishReason)).not.toContain('STOP');
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 1,
      candidatesTokenCount: 6,
      thoughtsTokenCount: hiThoughts,
      totalTokenCount: 7 + hiThoughts,
    });
    const thoughts = chunks.map((chunk) => chunk.usageMetadata.thoughtsTokenCount ?? 0);
    expect(thoughts).toEqual([...thoughts].sort((a, b) => a - b));
  });

  it('without includeThoughts sends no thought parts but counts the thoughts in every chunk', async () => {
    const chunks = await streamed('thinking.g2', { thinkingBudget: 1024 });
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts.some((part) => part.thought)).toBe(false);
    expect(chunks.map((chunk) => chunk.usageMetadata.thoughtsTokenCount)).toEqual(
      chunks.map(() => hiThoughts),
    );
  });

  it('not streamed, carries the signature on the answer part', async () => {
    const thinkingConfig = { includeThoughts: true, thinkingLevel: 'LOW' };
    const response = await gemini('gemini-3-pro-preview', 'thinking.g3', {
      contents,
      generationConfig: { thinkingConfig },
    });
    expect(response.json).toMatchObject({
      candidates: [
        {
          content: {
            parts: [
              { text: hiReasoning, thought: true },
              { text: hiEcho, thoughtSignature: expect.any(String) },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        candidatesTokenCount: 6,
        thoughtsTokenCount: hiThoughts,
        totalTokenCount: 7 + hiThoughts,
      },
    });
  });

  it.each([
    [
      'a level together with a budget',
      'gemini-3-pro-preview',
      { thinkingLevel: 'low', thinkingBudget: 1024 },
      'You can only set only one of thinking budget and thinking level.',
    ],
    [
      'an unknown level',
      'gemini-3-pro-preview',
      { thinkingLevel: 'extreme' },
      `Invalid JSON payload received. Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "extreme"`,
    ],
    [
      'a level on a 2.x model',
      'gemini-2.5-flash',
      { thinkingLevel: 'low' },
      'Thinking level is not supported for this model.',
    ],
    [
      'budget 0 on 2.5 Pro',
      'gemini-2.5-pro',
      { thinkingBudget: 0 },
      'Budget 0 is invalid. This model only works in thinking mode.',
    ],
    [
      'budget 0 on Gemini 3',
      'gemini-3-flash-preview',
      { thinkingBudget: 0 },
      'Budget 0 is invalid. This model only works in thinking mode.',
    ],
  ])('Gemini rejects %s', async (_case, model, thinkingConfig, message) => {
    const response = await gemini(model, 'ok.gv', { contents, generationConfig: { thinkingConfig } });
    expect([response.status, response.json]).toEqual([
      400,
      { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
    ]);
  });

  it('takes a budget on Gemini 3, and budget 0 on 2.5 Flash', async () => {
    const budget = await gemini('gemini-3-pro-preview', 'ok.gv', {
      contents,
      generationConfig: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    const off = await gemini('gemini-2.5-flash', 'ok.gv', {
      contents,
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect([budget.status, off.status]).toEqual([200, 200]);
  });
});

describe('Chat Completions reasoning', () => {
  const groq = (key: string, body: unknown) =>
    raw('POST', '/openai/v1/chat/completions', openaiHeaders(key), body);
  const groqStream = async (key: string, extra: Record<string, unknown>) =>
    dataPayloads<ChatChunk>(
      (await groq(key, { model: 'qwen/qwen3-32b', messages: userTurn, stream: true, ...extra })).text,
    );

  it('Groq parsed: delta.reasoning pieces before the content, reasoning tokens in both usages', async () => {
    const chunks = await groqStream('thinking.q1', { reasoning_format: 'parsed' });
    expect(joined(chunks, 'reasoning')).toBe(hiReasoning);
    expect(joined(chunks, 'content')).toBe(hiEcho);
    const lastReasoning = chunks.findLastIndex((chunk) => chunk.choices[0]?.delta.reasoning);
    const firstContent = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    expect(lastReasoning).toBeLessThan(firstContent);
    const usage = {
      completion_tokens: 6 + hiThoughts,
      completion_tokens_details: { reasoning_tokens: hiThoughts },
      prompt_tokens_details: { cached_tokens: 0 },
    };
    expect(chunks.at(-1)).toMatchObject({ usage, x_groq: { usage } });
  });

  it.each([
    ['raw', 'thinking.q2', { reasoning_format: 'raw' }],
    ['absent', 'thinking.q3', {}],
    ['think-tags', 'think-tags.q4', {}],
  ])(
    'Groq %s: the reasoning inside leading <think> tags, each tag a piece of its own',
    async (_case, key, extra) => {
      const chunks = await groqStream(key, extra);
      expect(joined(chunks, 'reasoning')).toBe('');
      expect(joined(chunks, 'content')).toBe(`<think>${hiReasoning}</think>\n\n${hiEcho}`);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(
        expect.arrayContaining(['<think>', '</think>']),
      );
    },
  );

  it('Groq hidden: no reasoning shown, but counted; not streamed, parsed reasoning is message.reasoning', async () => {
    const chunks = await groqStream('thinking.q5', { reasoning_format: 'hidden' });
    expect([joined(chunks, 'reasoning'), joined(chunks, 'content')]).toEqual(['', hiEcho]);
    expect(chunks.at(-1)?.usage).toMatchObject({
      completion_tokens_details: { reasoning_tokens: hiThoughts },
    });
    const parsed = await groq('thinking.q6', { model: 'openai/gpt-oss-20b', messages: userTurn });
    expect(parsed.json).toMatchObject({
      choices: [{ message: { role: 'assistant', content: hiEcho, reasoning: hiReasoning } }],
    });
  });

  const resent = (field: string) => ({
    messages: [
      ...userTurn,
      { role: 'assistant', content: 'Hello', [field]: 'x' },
      { role: 'user', content: 'More' },
    ],
  });
  it.each([
    [
      'include_reasoning with reasoning_format',
      { include_reasoning: true, reasoning_format: 'parsed' },
      'cannot specify both `include_reasoning` and `reasoning_format`',
    ],
    [
      'reasoning_content sent back',
      resent('reasoning_content'),
      "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]",
    ],
    [
      'reasoning sent back',
      resent('reasoning'),
      "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning' is unsupported)]",
    ],
    [
      'a qwen3 effort other than none or default',
      { reasoning_effort: 'medium' },
      '`reasoning_effort` must be one of `none` or `default`',
    ],
    [
      'a gpt-oss effort other than low, medium or high',
      { model: 'openai/gpt-oss-120b', reasoning_effort: 'none' },
      '`reasoning_effort` must be one of `low`, `medium`, or `high`',
    ],
  ])('Groq rejects %s', async (_case, extra, message) => {
    const response = await groq('ok.qv', { model: 'qwen/qwen3-32b', messages: userTurn, ...extra });
    expect([response.status, response.json]).toEqual([
      400,
      { error: { message, type: 'invalid_request_error' } },
    ]);
  });

  it('OpenAI shows no reasoning but counts it in completion_tokens', async () => {
    const body = {
      model: 'gpt-5.4',
      messages: userTurn,
      stream: true,
      stream_options: { include_usage: true },
    };
    const chunks = dataPayloads<ChatChunk>(
      (await raw('POST', '/v1/chat/completions', openaiHeaders('thinking.o1'), body)).text,
    );
    expect([joined(chunks, 'reasoning'), joined(chunks, 'content')]).toEqual(['', hiEcho]);
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 1,
      completion_tokens: 6 + hiThoughts,
      total_tokens: 7 + hiThoughts,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: hiThoughts,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
  });

  it('OpenAI and Azure usage carries prompt_tokens_details in every scenario', async () => {
    const openai = await raw('POST', '/v1/chat/completions', openaiHeaders('ok.o2'), {
      model: 'gpt-4o',
      messages: userTurn,
    });
    expect(openai.json).toMatchObject({
      usage: {
        completion_tokens: 6,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    const azure = await raw(
      'POST',
      '/openai/deployments/d/chat/completions?api-version=2024-10-21',
      { 'api-key': 'thinking.o3' },
      { messages: userTurn },
    );
    expect(azure.json).toMatchObject({
      usage: {
        completion_tokens: 6 + hiThoughts,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: hiThoughts },
      },
    });
  });

  it('the local server streams reasoning_content first, DeepSeek style, every key in every delta', async () => {
    const body = {
      model: 'qwen3:8b',
      messages: userTurn,
      stream: true,
      stream_options: { include_usage: true },
    };
    const response = await raw('POST', '/local/thinking.l1/v1/chat/completions', {}, body);
    const chunks = dataPayloads<{ choices: { delta: Record<string, string | null> }[]; usage?: unknown }>(
      response.text,
    );
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(
      deltas.every((delta) => ['content', 'reasoning_content', 'tool_calls'].every((key) => key in delta)),
    ).toBe(true);
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe(hiReasoning);
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(hiEcho);
    const lastReasoning = deltas.findLastIndex((delta) => delta.reasoning_content);
    expect(lastReasoning).toBeLessThan(deltas.findIndex((delta) => delta.content));
    expect(chunks.at(-1)).toEqual(
      expect.objectContaining({
        choices: [],
        usage: {
          prompt_tokens: 1,
          completion_tokens: 6 + hiThoughts,
          total_tokens: 7 + hiThoughts,
          prompt_tokens_details: null,
          reasoning_tokens: hiThoughts,
        },
      }),
    );
  });

  it('think-tags: the local server puts the reasoning in a leading <think> in the content', async () => {
    const response = await raw(
      'POST',
      '/local/think-tags.l2/v1/chat/completions',
      {},
      {
        model: 'qwen3:8b',
        messages: userTurn,
      },
    );
    expect(response.json).toMatchObject({
      choices: [{ message: { role: 'assistant', content: `<think>${hiReasoning}</think>\n\n${hiEcho}` } }],
    });
  });
});

describe('length', () => {
  const cut = 'Echo: Hi (1';

  it('Chat Completions: a few tokens, then finish_reason length', async () => {
    const body = { model: 'gpt-4o', messages: userTurn, stream: true };
    const chunks = dataPayloads<ChatChunk>(
      (await raw('POST', '/v1/chat/completions', openaiHeaders('length.1'), body)).text,
    );
    expect(joined(chunks, 'content')).toBe(cut);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['length']);
    for (const path of ['/openai/v1/chat/completions', '/local/length.2/v1/chat/completions']) {
      const response = await raw('POST', path, openaiHeaders('length.2'), { model: 'm', messages: userTurn });
      expect(response.json).toMatchObject({
        choices: [{ message: { content: cut }, finish_reason: 'length' }],
      });
    }
  });

  it('Anthropic: stop_reason max_tokens', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 3, messages: userTurn };
    const streamed = namedEvents(
      (await raw('POST', '/v1/messages', anthropicHeaders('length.3'), { ...body, stream: true })).text,
    );
    expect(streamed.at(-2)?.data).toMatchObject({
      delta: { stop_reason: 'max_tokens' },
      usage: { output_tokens: 3 },
    });
    const reply = await raw('POST', '/v1/messages', anthropicHeaders('length.3'), body);
    expect(reply.json).toMatchObject({ content: [{ text: cut }], stop_reason: 'max_tokens' });
  });

  it('Gemini: finishReason MAX_TOKENS', async () => {
    const response = await raw(
      'POST',
      `${geminiPath('streamGenerateContent')}?alt=sse`,
      { 'x-goog-api-key': 'length.4' },
      { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
    );
    const chunks = dataPayloads<{ candidates: { finishReason?: string }[] }>(response.text);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('MAX_TOKENS');
  });

  it('Responses: response.incomplete with reason max_output_tokens', async () => {
    const response = await raw('POST', '/v1/responses', openaiHeaders('length.5'), {
      model: 'gpt-5.4',
      input: 'Hi',
      stream: true,
    });
    const last = namedEvents(response.text).at(-1);
    expect(last?.name).toBe('response.incomplete');
    expect(last?.data).toMatchObject({
      type: 'response.incomplete',
      response: {
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [{ type: 'reasoning' }, { type: 'message', status: 'incomplete', content: [{ text: cut }] }],
        usage: { output_tokens: 3 + hiThoughts },
      },
    });
  });
});

describe('OpenAI Responses', () => {
  const responses = (key: string, body: unknown) => raw('POST', '/v1/responses', openaiHeaders(key), body);
  const base = { model: 'gpt-5.4', input: 'Hi', store: false, include: ['reasoning.encrypted_content'] };

  it('streams the reasoning item with summary deltas, then the message: rising sequence numbers, no [DONE]', async () => {
    const body = { ...base, stream: true, reasoning: { effort: 'medium', summary: 'auto' } };
    const response = await responses('ok.r1', body);
    const events = namedEvents(response.text);
    expect(events.map((event) => event.name)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      ...Array<string>(hiThoughts).fill('response.reasoning_summary_text.delta'),
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      ...Array<string>(6).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.every((event) => event.data.type === event.name)).toBe(true);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
    const deltas = events.filter((event) => event.name.endsWith('.delta'));
    expect(deltas.every((event) => typeof event.data.obfuscation === 'string')).toBe(true);
    const text = (prefix: string) =>
      deltas
        .filter((event) => event.name.startsWith(prefix))
        .map((event) => event.data.delta)
        .join('');
    expect([text('response.reasoning'), text('response.output_text')]).toEqual([hiReasoning, hiEcho]);
    expect(response.text).not.toContain('[DONE]');
    expect(events[0]?.data).toMatchObject({
      response: { object: 'response', status: 'in_progress', output: [], usage: null, store: false },
    });
    expect(events.at(-1)?.data).toMatchObject({
      response: {
        status: 'completed',
        output: [
          {
            type: 'reasoning',
            encrypted_content: expect.stringMatching(/^gAAAA/),
            summary: [{ type: 'summary_text', text: hiReasoning }],
          },
          {
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: hiEcho }],
          },
        ],
        usage: {
          input_tokens: 1,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 6 + hiThoughts,
          output_tokens_details: { reasoning_tokens: hiThoughts },
          total_tokens: 7 + hiThoughts,
        },
      },
    });
  });

  it('without reasoning.summary streams no summary events and an empty summary', async () => {
    const events = namedEvents((await responses('ok.r2', { ...base, stream: true })).text);
    expect(events.some((event) => event.name.includes('reasoning_summary'))).toBe(false);
    expect(events[2]?.data).toMatchObject({ item: { type: 'reasoning', summary: [] } });
  });

  it('takes its reasoning items back, and refuses a made-up or, with store false, a missing encrypted_content', async () => {
    const first = await responses('ok.r3', base);
    expect(first.json).toMatchObject({ object: 'response', status: 'completed' });
    const [reasoning] = (first.json as { output: Record<string, unknown>[] }).output;
    const again = (item: unknown, store = false) =>
      responses('ok.r3', {
        ...base,
        store,
        input: [
          { role: 'user', content: 'Hi' },
          item,
          { role: 'assistant', content: [{ type: 'output_text', text: hiEcho }] },
          { role: 'user', content: [{ type: 'input_text', text: 'Again' }] },
        ],
      });
    const accepted = await again(reasoning);
    expect(accepted.json).toMatchObject({
      output: [{ type: 'reasoning' }, { content: [{ text: 'Echo: Again (3 messages received)' }] }],
    });
    const forgedContent = `${String(reasoning?.encrypted_content).slice(0, -2)}A=`;
    const forged = await again({ ...reasoning, encrypted_content: forgedContent });
    expect([forged.status, forged.json]).toEqual([
      400,
      {
        error: {
          message: `The encrypted content ${forgedContent.slice(0, 4)}...${forgedContent.slice(-4)} could not be verified.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_encrypted_content',
        },
      },
    ]);
    const id = String(reasoning?.id);
    const onlyId = { type: 'reasoning', id, encrypted_content: null, summary: [] };
    const missing = await again(onlyId);
    expect([missing.status, missing.json]).toEqual([
      404,
      {
        error: {
          message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          type: 'invalid_request_error',
          param: 'input',
          code: null,
        },
      },
    ]);
    expect((await again(onlyId, true)).status).toBe(200);
  });

  it.each([
    [
      'max_tokens',
      { ...base, max_tokens: 100 },
      { message: "Unknown parameter: 'max_tokens'.", param: 'max_tokens', code: 'unknown_parameter' },
    ],
    [
      'messages',
      { model: 'gpt-5.4', messages: userTurn },
      { message: "Unknown parameter: 'messages'.", param: 'messages', code: 'unknown_parameter' },
    ],
    [
      'max_output_tokens below 16',
      { ...base, max_output_tokens: 1 },
      {
        message:
          "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 1 instead.",
        param: 'max_output_tokens',
        code: 'integer_below_min_value',
      },
    ],
    [
      'temperature on a reasoning model',
      { ...base, temperature: 0.5 },
      {
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        param: 'temperature',
        code: null,
      },
    ],
    [
      'an effort the model does not take',
      { ...base, model: 'o4-mini', reasoning: { effort: 'xhigh' } },
      {
        message:
          "Unsupported value: 'reasoning.effort' does not support 'xhigh' with this model. Supported values are: 'low', 'medium', and 'high'.",
        param: 'reasoning.effort',
        code: 'unsupported_value',
      },
    ],
    [
      'minimal on gpt-5.1',
      { ...base, model: 'gpt-5.1', reasoning: { effort: 'minimal' } },
      {
        message:
          "Unsupported value: 'reasoning.effort' does not support 'minimal' with this model. Supported values are: 'none', 'low', 'medium', and 'high'.",
        param: 'reasoning.effort',
        code: 'unsupported_value',
      },
    ],
    [
      'input_text in assistant history',
      {
        ...base,
        input: [...userTurn, { role: 'assistant', content: [{ type: 'input_text', text: 'Hello' }] }],
      },
      {
        message: "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
        param: 'input[1].content[0]',
        code: 'invalid_value',
      },
    ],
  ])('rejects %s', async (_case, body, error) => {
    const response = await responses('ok.rv', body);
    expect([response.status, response.json]).toEqual([
      400,
      { error: { type: 'invalid_request_error', ...error } },
    ]);
  });

  it('reasoning-model makes any model refuse temperature; xhigh passes on gpt-5.4', async () => {
    const refused = await responses('reasoning-model.r4', { ...base, model: 'gpt-4.1', top_p: 0.5 });
    expect([refused.status, errorMessage(refused)]).toEqual([
      400,
      "Unsupported parameter: 'top_p' is not supported with this model.",
    ]);
    expect((await responses('ok.r4', { ...base, reasoning: { effort: 'xhigh' } })).status).toBe(200);
  });

  it('unverified: a summary gets the organization-verification 400; without one the reply comes', async () => {
    const refused = await responses('unverified.r5', { ...base, reasoning: { summary: 'auto' } });
    expect([refused.status, refused.json]).toEqual([
      400,
      {
        error: {
          message:
            'Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.',
          type: 'invalid_request_error',
          param: 'reasoning.summary',
          code: 'unsupported_value',
        },
      },
    ]);
    const answered = await responses('unverified.r5', { ...base, reasoning: { effort: 'low' } });
    expect(answered.json).toMatchObject({
      status: 'completed',
      output: [
        { type: 'reasoning', summary: [] },
        { type: 'message', content: [{ text: hiEcho }] },
      ],
    });
  });

  it('error-event: some deltas, then the error event and response.failed', async () => {
    const events = namedEvents((await responses('error-event.r6', { ...base, stream: true })).text);
    expect(events.map((event) => event.name).slice(-5)).toEqual([
      ...Array<string>(3).fill('response.output_text.delta'),
      'error',
      'response.failed',
    ]);
    expect(events.at(-2)?.data).toMatchObject({
      type: 'error',
      error: { type: 'server_error', code: 'server_error', message: expect.any(String), param: null },
    });
    expect(events.at(-1)?.data).toMatchObject({
      response: { status: 'failed', error: { code: 'server_error' }, usage: null },
    });
  });

  it('carries CORS, and Azure answers on /openai/v1/responses with api-key and no api-version', async () => {
    const preflight = await raw('OPTIONS', '/v1/responses', {
      origin: 'http://a.test',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    });
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const azure = await raw(
      'POST',
      '/openai/v1/responses',
      { 'api-key': 'ok.az', 'content-type': 'application/json' },
      { ...base, model: 'my-gpt5-deployment' },
    );
    expect([azure.status, azure.headers['access-control-allow-origin']]).toEqual([200, '*']);
    expect(azure.json).toMatchObject({
      model: 'my-gpt5-deployment',
      content_filters: null,
      status: 'completed',
    });
  });
});

describe('recording', () => {
  it('answers the preflight of the recording endpoint', async () => {
    const response = await raw('OPTIONS', '/__mock/requests', {
      origin: 'http://a.test',
      'access-control-request-method': 'DELETE',
    });
    expect([
      response.status,
      response.headers['access-control-allow-origin'],
      response.headers['access-control-allow-methods'],
    ]).toEqual([204, '*', 'GET, DELETE, OPTIONS']);
  });

  it('records every request by key and clears on DELETE', async () => {
    const body = { model: 'gpt-4o', messages: userTurn };
    await raw('POST', '/v1/chat/completions', { ...openaiHeaders('ok.recorded'), 'X-Custom': 'Yes' }, body);
    const listed = await raw('GET', '/__mock/requests?key=ok.recorded');
    expect(listed.headers['access-control-allow-origin']).toBe('*');
    expect(listed.json).toEqual([
      expect.objectContaining({
        provider: 'openai',
        method: 'POST',
        path: '/v1/chat/completions',
        query: {},
        headers: expect.objectContaining({ authorization: 'Bearer ok.recorded', 'x-custom': 'Yes' }),
        body,
        key: 'ok.recorded',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
    await raw('DELETE', '/__mock/requests');
    expect(mock.requests).toHaveLength(0);
    expect((await raw('GET', '/__mock/requests')).json).toEqual([]);
  });
});

describe('replies', () => {
  it('markdownReply gives at least the tokens asked for, with code blocks of 30 to 80 lines in several languages', () => {
    const text = markdownReply(1500);
    const tokens = tokenize(text).length;
    expect(tokens).toBeGreaterThanOrEqual(1500);
    expect(tokens).toBeLessThan(2300);
    const blocks = [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)];
    expect(new Set(blocks.map((block) => block[1])).size).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const lines = (block[2] ?? '').split('\n').length - 1;
      expect(lines).toBeGreaterThanOrEqual(30);
      expect(lines).toBeLessThanOrEqual(80);
    }
    expect(text).toMatch(/^# /m);
    expect(text).toMatch(/^\| --- \|/m);
    expect(text).toMatch(/^- /m);
    expect(text).toMatch(/^1\. /m);
    expect(tokenize(markdownReply(6000)).length).toBeGreaterThanOrEqual(6000);
  });

  it('tokenize splits into pieces that rejoin exactly and never split a code point', () => {
    const pieces = tokenize(utf8Reply);
    expect(pieces.join('')).toBe(utf8Reply);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    expect(pieces.filter((piece) => loneSurrogate.test(piece))).toEqual([]);
  });

  it('numbered: each chat call with a key is numbered, so a regenerated reply differs from the first', async () => {
    const ask = async () => {
      const response = await raw('POST', '/v1/chat/completions', openaiHeaders('numbered.counting'), {
        model: 'gpt-4o-mini',
        messages: userTurn,
      });
      return (response.json as { choices: { message: { content: string } }[] }).choices[0]?.message.content;
    };
    expect(await ask()).toBe('Reply 1 to: Hi');
    expect(await ask()).toBe('Reply 2 to: Hi');
  });

  it('knows every scenario the brief lists', () => {
    expect(scenarioNames).toEqual(
      expect.arrayContaining([
        'ok',
        'slow',
        'markdown',
        'long',
        'utf8',
        'drop',
        'error-event',
        'blocked',
        'blocked-late',
        'http-429',
        'http-529',
        'hostile',
        'no-cors',
        'thinking',
        'think-tags',
        'length',
        'unverified',
      ]),
    );
  });
});

describe('server lifecycle', () => {
  it('refuses to bind a non-loopback address', async () => {
    await expect(startMockProviders({ host: '0.0.0.0' })).rejects.toThrow('loopback');
  });

  it('the CLI help lists every scenario', async () => {
    const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));
    const child = spawn(process.execPath, [cli, '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    for (const name of scenarioNames) expect(output).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('the CLI prints its address and stops by itself after --max-lifetime', async () => {
    const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));
    const child = spawn(process.execPath, [cli, '--port', '0', '--max-lifetime', '1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(output).toMatch(/^Mock providers listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(output).toContain('max lifetime');
  });
});
