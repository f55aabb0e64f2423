import { describe, expect, it } from 'vitest';
import {
  userTurn,
  openaiHeaders,
  anthropicHeaders,
  geminiPath,
  errorMessage,
  namedEvents,
  hiReasoning,
  hiThoughts,
  hiEcho,
  type RawResponse,
  rawRequests,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 1 });
const raw = rawRequests(() => mock().url);

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
