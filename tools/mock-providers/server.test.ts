import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownReply, scenarioNames, startMockProviders, tokenize, utf8Reply } from './server.mjs';
import {
  userTurn,
  openaiHeaders,
  anthropicHeaders,
  geminiPath,
  errorMessage,
  namedEvents,
  dataPayloads,
  hiThoughts,
  joined,
  type ChatChunk,
  rawRequests,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 1 });
const raw = rawRequests(() => mock().url);

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
    expect(mock().requests.at(-1)?.provider).toBe('claude');
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
    expect(mock().requests).toHaveLength(0);
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
