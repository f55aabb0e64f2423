import { describe, expect, it } from 'vitest';
import {
  codeAnswer,
  failedAnswer,
  failingCode,
  failingTraceback,
  imageAnswer,
  partialPngBase64,
  plotBase64,
  revisedPrompt,
  squaresCode,
  squaresCsv,
  squaresPng,
  unavailableAnswer,
} from './code-images.mjs';
import {
  anthropicHeaders,
  dataPayloads,
  errorMessage,
  namedEvents,
  openaiHeaders,
  rawRequests,
  userTurn,
} from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 0 });
const raw = rawRequests(() => mock().url);

const hi = [{ role: 'user', parts: [{ text: 'Hi' }] }];
const geminiEcho = 'Echo: Hi (1 message received)';

interface Candidate {
  content: { parts: Record<string, unknown>[] };
  finishReason?: string;
}
const partsOf = (chunks: { candidates: Candidate[] }[]) =>
  chunks.flatMap((c) => c.candidates[0]?.content.parts ?? []);

describe('the shared pieces', () => {
  it('draws a real PNG of the asked size', () => {
    const png = squaresPng(112, 64);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([112, 64]);
    expect(plotBase64).toBe(squaresPng().toString('base64'));
  });
});

describe('Gemini code execution', () => {
  const gemini = (key: string, method: string, body: Record<string, unknown>) =>
    raw(
      'POST',
      `/v1beta/models/gemini-2.5-flash:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`,
      { 'x-goog-api-key': key, 'content-type': 'application/json' },
      { contents: hi, ...body },
    );
  const tools = [{ codeExecution: {} }];

  it('streams executableCode, codeExecutionResult and the plot, each in a chunk of its own, then the text', async () => {
    const response = await gemini('code.g1', 'streamGenerateContent', { tools });
    const chunks = dataPayloads<{ candidates: Candidate[] }>(response.text);
    const parts = partsOf(chunks);
    expect(parts.slice(0, 3)).toEqual([
      { executableCode: { language: 'PYTHON', code: squaresCode } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '55\n' } },
      { inlineData: { mimeType: 'image/png', data: plotBase64 } },
    ]);
    expect(chunks.slice(0, 3).map((chunk) => chunk.candidates[0]?.content.parts.length)).toEqual([1, 1, 1]);
    expect(
      parts
        .slice(3)
        .map((part) => part.text)
        .join(''),
    ).toBe(codeAnswer);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]?.finishReason === undefined)).toBe(true);
  });

  it('answers the same parts in one candidate when not streamed', async () => {
    const response = await gemini('code.g2', 'generateContent', { tools: [{ code_execution: {} }] });
    const candidate = (response.json as { candidates: Candidate[] }).candidates[0];
    expect(candidate?.content.parts).toEqual([
      { executableCode: { language: 'PYTHON', code: squaresCode } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '55\n' } },
      { inlineData: { mimeType: 'image/png', data: plotBase64 } },
      { text: codeAnswer },
    ]);
  });

  it('reports OUTCOME_FAILED with the traceback, and no plot, under code-failed', async () => {
    const response = await gemini('code-failed.g3', 'generateContent', { tools });
    expect((response.json as { candidates: Candidate[] }).candidates[0]?.content.parts).toEqual([
      { executableCode: { language: 'PYTHON', code: failingCode } },
      { codeExecutionResult: { outcome: 'OUTCOME_FAILED', output: failingTraceback } },
      { text: failedAnswer },
    ]);
  });

  it('echoes without the tool', async () => {
    const response = await gemini('code.g4', 'generateContent', {});
    expect((response.json as { candidates: Candidate[] }).candidates[0]?.content.parts).toEqual([
      { text: geminiEcho },
    ]);
  });
});

describe('Gemini image output', () => {
  const image = (model: string, key: string, method: string, config: Record<string, unknown>) =>
    raw(
      'POST',
      `/v1beta/models/${model}:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`,
      { 'x-goog-api-key': key, 'content-type': 'application/json' },
      { contents: hi, generationConfig: config },
    );
  const both = { responseModalities: ['TEXT', 'IMAGE'] };

  it('answers a text part and an inlineData PNG, unsigned on gemini-2.5-flash-image', async () => {
    const response = await image('gemini-2.5-flash-image', 'image.i1', 'generateContent', both);
    expect((response.json as { candidates: Candidate[] }).candidates[0]?.content.parts).toEqual([
      { text: imageAnswer },
      { inlineData: { mimeType: 'image/png', data: plotBase64 } },
    ]);
  });

  it('signs the text part and the image part on Gemini 3 image models, the picture in the asked aspect ratio', async () => {
    const response = await image('gemini-3-pro-image', 'image.i2', 'streamGenerateContent', {
      ...both,
      imageConfig: { aspectRatio: '16:9', imageSize: '2K' },
    });
    const chunks = dataPayloads<{ candidates: Candidate[] }>(response.text);
    const parts = partsOf(chunks);
    const picture = parts.at(-1) as {
      inlineData: { mimeType: string; data: string };
      thoughtSignature: string;
    };
    expect(picture.inlineData).toEqual({
      mimeType: 'image/png',
      data: squaresPng(114, 64).toString('base64'),
    });
    expect(typeof picture.thoughtSignature).toBe('string');
    expect(typeof parts[0]?.thoughtSignature).toBe('string');
    expect(
      parts
        .slice(0, -1)
        .map((part) => part.text)
        .join(''),
    ).toBe(imageAnswer);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('accepts the turn sent back for an edit', async () => {
    const first = await image('gemini-3.1-flash-image', 'image.i3', 'generateContent', both);
    const parts = (first.json as { candidates: Candidate[] }).candidates[0]?.content.parts;
    const response = await raw(
      'POST',
      '/v1beta/models/gemini-3.1-flash-image:generateContent',
      { 'x-goog-api-key': 'image.i3', 'content-type': 'application/json' },
      {
        contents: [...hi, { role: 'model', parts }, { role: 'user', parts: [{ text: 'Bluer' }] }],
        generationConfig: both,
      },
    );
    expect(response.status).toBe(200);
  });

  it('echoes without the IMAGE modality, and on a model that does not draw', async () => {
    const plain = await image('gemini-2.5-flash-image', 'image.i4', 'generateContent', {
      responseModalities: ['TEXT'],
    });
    expect((plain.json as { candidates: Candidate[] }).candidates[0]?.content.parts).toEqual([
      { text: geminiEcho },
    ]);
    const other = await image('gemini-2.5-flash', 'image.i5', 'generateContent', both);
    expect((other.json as { candidates: Candidate[] }).candidates[0]?.content.parts).toEqual([
      { text: geminiEcho },
    ]);
  });
});

describe('OpenAI Responses code interpreter', () => {
  const responses = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/responses', openaiHeaders(key), { model: 'gpt-5', input: 'Hi', ...body });
  const tools = [{ type: 'code_interpreter', container: { type: 'auto' } }];
  const include = ['code_interpreter_call.outputs'];

  it('streams the call: added, in_progress, code deltas, code done, interpreting, completed, done', async () => {
    const events = namedEvents((await responses('code.o1', { tools, include, stream: true })).text);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    const added = events.find(
      (event) =>
        event.name === 'response.output_item.added' &&
        (event.data.item as { type: string }).type === 'code_interpreter_call',
    );
    const item = added?.data.item as Record<string, unknown>;
    expect(item).toEqual({
      type: 'code_interpreter_call',
      id: expect.stringMatching(/^ci_/),
      status: 'in_progress',
      code: '',
      container_id: expect.stringMatching(/^cntr_/),
      outputs: [],
    });
    const own = events.filter(
      (event) =>
        event.data.item_id === item.id || (event.data.item as { id?: string } | undefined)?.id === item.id,
    );
    const names = own.map((event) => event.name);
    expect(names[0]).toBe('response.output_item.added');
    expect(names[1]).toBe('response.code_interpreter_call.in_progress');
    expect(names.slice(-5)).toEqual([
      'response.code_interpreter_call_code.delta',
      'response.code_interpreter_call_code.done',
      'response.code_interpreter_call.interpreting',
      'response.code_interpreter_call.completed',
      'response.output_item.done',
    ]);
    const deltas = own.filter((event) => event.name === 'response.code_interpreter_call_code.delta');
    expect(deltas.map((event) => event.data.delta).join('')).toBe(squaresCode);
    expect(deltas[0]?.data).toMatchObject({ item_id: item.id, output_index: 1 });
    expect(own.at(-4)?.data.code).toBe(squaresCode);
    expect(own.at(-1)?.data.item).toEqual({
      id: item.id,
      type: 'code_interpreter_call',
      status: 'completed',
      code: squaresCode,
      container_id: item.container_id,
      outputs: [
        { type: 'logs', logs: '55\n' },
        { type: 'image', url: `data:image/png;base64,${plotBase64}` },
      ],
    });
    const completed = events.at(-1)?.data.response as { output: { type: string }[] };
    expect(completed.output.map((entry) => entry.type)).toEqual([
      'reasoning',
      'code_interpreter_call',
      'message',
    ]);
  });

  it('cites the file it wrote, which downloads from the container', async () => {
    const response = await responses('code.o2', {
      tools: [{ type: 'code_interpreter', container: 'cntr_given' }],
    });
    const output = (response.json as { output: Record<string, unknown>[] }).output;
    expect(output[1]).toMatchObject({
      type: 'code_interpreter_call',
      container_id: 'cntr_given',
      outputs: null,
    });
    const part = (output[2]?.content as { text: string; annotations: Record<string, unknown>[] }[])[0];
    const link = '[squares.csv](sandbox:/mnt/data/squares.csv)';
    expect(part?.text).toBe(`${codeAnswer} ${link}`);
    const citation = part?.annotations[0] as { file_id: string; start_index: number; end_index: number };
    expect(citation).toEqual({
      type: 'container_file_citation',
      container_id: 'cntr_given',
      end_index: codeAnswer.length + 1 + link.length,
      file_id: expect.stringMatching(/^cfile_/),
      filename: 'squares.csv',
      start_index: codeAnswer.length + 1,
    });
    const path = `/v1/containers/cntr_given/files/${citation.file_id}/content`;
    const file = await raw('GET', path, { authorization: 'Bearer code.o2', origin: 'http://localhost:5173' });
    expect(file.status).toBe(200);
    expect(file.text).toBe(squaresCsv);
    expect(file.headers['access-control-allow-origin']).toBe('*');
    expect((await raw('GET', path)).status).toBe(401);
    expect(
      (await raw('GET', '/v1/containers/cntr_given/files/cfile_none/content', openaiHeaders('code.o2')))
        .status,
    ).toBe(404);
    expect(
      (
        await raw('OPTIONS', path, {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        })
      ).status,
    ).toBeLessThan(300);
  });

  it('logs the traceback under code-failed, with no file or plot', async () => {
    const response = await responses('code-failed.o3', { tools, include });
    const output = (response.json as { output: Record<string, unknown>[] }).output;
    expect(output[1]).toMatchObject({
      status: 'completed',
      code: failingCode,
      outputs: [{ type: 'logs', logs: failingTraceback }],
    });
    expect(output[2]?.content).toEqual([
      { type: 'output_text', annotations: [], logprobs: [], text: failedAnswer },
    ]);
  });

  it('needs a container', async () => {
    const response = await responses('code.o4', { tools: [{ type: 'code_interpreter' }] });
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toBe("Missing required parameter: 'tools[0].container'.");
  });

  it('echoes without the tool', async () => {
    const response = await responses('code.o5', {});
    const output = (response.json as { output: { type: string; content?: { text: string }[] }[] }).output;
    expect(output.map((entry) => entry.type)).toEqual(['reasoning', 'message']);
    expect(output[1]?.content?.[0]?.text).toBe(geminiEcho);
  });
});

describe('OpenAI Responses image generation', () => {
  const responses = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/responses', openaiHeaders(key), { model: 'gpt-5', input: 'Hi', ...body });

  it('streams in_progress, generating, each partial image, completed, then the item with its result', async () => {
    const tools = [{ type: 'image_generation', partial_images: 2, quality: 'low' }];
    const events = namedEvents((await responses('image.o1', { tools, stream: true })).text);
    const added = events.find(
      (event) =>
        event.name === 'response.output_item.added' &&
        (event.data.item as { type: string }).type === 'image_generation_call',
    );
    const id = (added?.data.item as { id: string }).id;
    expect(added?.data.item).toEqual({
      id: expect.stringMatching(/^ig_/),
      type: 'image_generation_call',
      status: 'in_progress',
    });
    const own = events.filter(
      (event) => event.data.item_id === id || (event.data.item as { id?: string } | undefined)?.id === id,
    );
    expect(own.map((event) => event.name)).toEqual([
      'response.output_item.added',
      'response.image_generation_call.in_progress',
      'response.image_generation_call.generating',
      'response.image_generation_call.partial_image',
      'response.image_generation_call.partial_image',
      'response.image_generation_call.completed',
      'response.output_item.done',
    ]);
    expect(own[3]?.data).toEqual({
      type: 'response.image_generation_call.partial_image',
      sequence_number: own[3]?.data.sequence_number,
      item_id: id,
      output_index: 1,
      partial_image_index: 0,
      partial_image_b64: partialPngBase64(0, 2),
      size: '1024x1024',
      quality: 'low',
      background: 'opaque',
      output_format: 'png',
    });
    expect(own.at(-1)?.data.item).toEqual({
      id,
      type: 'image_generation_call',
      status: 'completed',
      background: 'opaque',
      output_format: 'png',
      quality: 'low',
      size: '1024x1024',
      result: plotBase64,
      revised_prompt: revisedPrompt,
    });
    const completed = events.at(-1)?.data.response as { output: { type: string }[] };
    expect(completed.output.map((entry) => entry.type)).toEqual([
      'reasoning',
      'image_generation_call',
      'message',
    ]);
  });

  it('accepts the earlier call sent back for an edit, and echoes without the tool', async () => {
    const first = await responses('image.o2', { tools: [{ type: 'image_generation' }] });
    const call = (first.json as { output: Record<string, unknown>[] }).output[1];
    const edit = await responses('image.o2', {
      tools: [{ type: 'image_generation' }],
      input: [{ role: 'user', content: 'Hi' }, call, { role: 'user', content: 'Bluer' }],
    });
    expect(edit.status).toBe(200);
    const plain = await responses('image.o3', {});
    const output = (plain.json as { output: { type: string }[] }).output;
    expect(output.map((entry) => entry.type)).toEqual(['reasoning', 'message']);
  });
});

describe('Claude code execution', () => {
  const claude = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    raw(
      'POST',
      '/v1/messages',
      { ...anthropicHeaders(key), ...headers },
      { model: 'claude-sonnet-4-5-20250929', max_tokens: 1024, messages: userTurn, ...body },
    );
  const tools = [{ type: 'code_execution_20250825', name: 'code_execution' }];
  const command = (code: string) => `python3 - <<'EOF'\n${code}EOF`;
  interface Message {
    content: Record<string, unknown>[];
    container?: { id: string; expires_at: string };
    stop_reason: string;
    usage: Record<string, unknown>;
  }

  it('streams the bash call, its result whole in its start, then the text, and names the container', async () => {
    const response = await claude(
      'code.c1',
      { tools, stream: true },
      { 'anthropic-beta': 'code-execution-2025-08-25' },
    );
    expect(response.status).toBe(200);
    const events = namedEvents(response.text);
    const names = events.map((event) => event.name).filter((name) => name !== 'ping');
    expect(names.slice(0, 2)).toEqual(['message_start', 'content_block_start']);
    const use = events[1]?.data;
    expect(use).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: {
        type: 'server_tool_use',
        id: expect.stringMatching(/^srvtoolu_01/),
        name: 'bash_code_execution',
        input: {},
      },
    });
    const id = (use?.content_block as { id: string }).id;
    const deltas = events.filter((event) => event.name === 'content_block_delta');
    const json = deltas
      .filter((event) => event.data.index === 0)
      .map((event) => (event.data.delta as { type: string; partial_json: string }).partial_json);
    expect((deltas[0]?.data.delta as { partial_json: string }).partial_json).toBe('');
    expect(JSON.parse(json.join(''))).toEqual({ command: command(squaresCode) });
    const starts = events.filter((event) => event.name === 'content_block_start');
    const result = starts[1]?.data;
    expect(result).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: {
        type: 'bash_code_execution_tool_result',
        tool_use_id: id,
        content: {
          type: 'bash_code_execution_result',
          stdout: '55\n',
          stderr: '',
          return_code: 0,
          content: [
            { type: 'code_execution_output', file_id: expect.stringMatching(/^file_011C/) },
            { type: 'code_execution_output', file_id: expect.stringMatching(/^file_011C/) },
          ],
        },
      },
    });
    // The result arrives whole: its start is followed by its stop, no deltas.
    const resultAt = events.indexOf(starts[1] as (typeof events)[number]);
    expect(events[resultAt + 1]).toEqual({
      name: 'content_block_stop',
      data: { type: 'content_block_stop', index: 1 },
    });
    expect(starts[2]?.data.content_block).toEqual({ type: 'text', text: '' });
    const text = deltas
      .filter((event) => event.data.index === 2)
      .map((event) => (event.data.delta as { text: string }).text)
      .join('');
    expect(text).toBe(codeAnswer);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const delta = events.at(-2)?.data as {
      delta: { stop_reason: string; container: { id: string; expires_at: string } };
      usage: Record<string, unknown>;
    };
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.delta.container.id).toMatch(/^container_011C/);
    expect(Number.isNaN(Date.parse(delta.delta.container.expires_at))).toBe(false);
    expect(delta.usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 0 });
  });

  it('lists the CSV and the plot as Files API ids, which download with the beta header', async () => {
    const response = await claude('code.c2', {
      tools: [{ type: 'code_execution_20260120', name: 'code_execution' }],
    });
    const message = response.json as Message;
    expect(message.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'bash_code_execution_tool_result',
      'text',
    ]);
    expect(message.content[0]?.input).toEqual({ command: command(squaresCode) });
    expect(message.content[2]).toEqual({ type: 'text', text: codeAnswer });
    expect(message.container?.id).toMatch(/^container_011C/);
    const outputs = (message.content[1]?.content as { content: { file_id: string }[] }).content;
    const headers = {
      ...anthropicHeaders('code.c2'),
      'anthropic-beta': 'files-api-2025-04-14',
      origin: 'http://localhost:5173',
      'anthropic-dangerous-direct-browser-access': 'true',
    };
    const csv = await raw('GET', `/v1/files/${outputs[0]?.file_id}/content`, headers);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(squaresCsv);
    expect(csv.headers['access-control-allow-origin']).toBe('*');
    const png = await raw('GET', `/v1/files/${outputs[1]?.file_id}/content`, headers);
    expect(Buffer.concat(png.chunks)).toEqual(squaresPng());
    expect(png.headers['content-type']).toBe('image/png');
    const path = `/v1/files/${outputs[0]?.file_id}/content`;
    expect((await raw('GET', path, { 'anthropic-version': '2023-06-01' })).status).toBe(401);
    expect((await raw('GET', path, anthropicHeaders('code.c2'))).status).toBe(400);
    expect((await raw('GET', '/v1/files/file_none/content', headers)).status).toBe(404);
    // The metadata names each file, with the same checks.
    const metadata = await raw('GET', `/v1/files/${outputs[1]?.file_id}`, {
      ...headers,
      'anthropic-beta': 'code-execution-2025-08-25, files-api-2025-04-14',
    });
    expect(metadata.status).toBe(200);
    expect(metadata.json).toEqual({
      id: outputs[1]?.file_id,
      type: 'file',
      filename: 'squares.png',
      mime_type: 'image/png',
      size_bytes: squaresPng().length,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      downloadable: true,
    });
    expect((await raw('GET', `/v1/files/${outputs[0]?.file_id}`, anthropicHeaders('code.c2'))).status).toBe(
      400,
    );
    expect((await raw('GET', '/v1/files/file_none', headers)).status).toBe(404);
    // A browser without the direct-access header gets no CORS headers.
    const refused = await raw('GET', path, {
      ...anthropicHeaders('code.c2'),
      'anthropic-beta': 'files-api-2025-04-14',
      origin: 'http://localhost:5173',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reports return_code 1 with the traceback on stderr, and no files, under code-failed', async () => {
    const response = await claude('code-failed.c3', { tools });
    const message = response.json as Message;
    expect(message.content[0]?.input).toEqual({ command: command(failingCode) });
    expect(message.content[1]?.content).toEqual({
      type: 'bash_code_execution_result',
      stdout: '',
      stderr: failingTraceback,
      return_code: 1,
      content: [],
    });
    expect(message.content[2]).toEqual({ type: 'text', text: failedAnswer });
  });

  it('answers a tool error in a 200 under code-unavailable', async () => {
    const response = await claude('code-unavailable.c4', { tools });
    expect(response.status).toBe(200);
    const message = response.json as Message;
    expect(message.content[1]).toEqual({
      type: 'bash_code_execution_tool_result',
      tool_use_id: message.content[0]?.id,
      content: { type: 'bash_code_execution_tool_result_error', error_code: 'unavailable' },
    });
    expect(message.content[2]).toEqual({ type: 'text', text: unavailableAnswer });
  });

  it('speaks the 20250522 shape: code_execution with {code}, code_execution_tool_result', async () => {
    const legacy = [{ type: 'code_execution_20250522', name: 'code_execution' }];
    const response = await claude(
      'code.c5',
      { tools: legacy, stream: true },
      { 'anthropic-beta': 'code-execution-2025-05-22' },
    );
    const starts = namedEvents(response.text).filter((event) => event.name === 'content_block_start');
    expect(starts[0]?.data.content_block).toMatchObject({ type: 'server_tool_use', name: 'code_execution' });
    const plain = (await claude('code-failed.c5', { tools: legacy })).json as Message;
    expect(plain.content[0]).toMatchObject({ name: 'code_execution', input: { code: failingCode } });
    expect(plain.content[1]).toEqual({
      type: 'code_execution_tool_result',
      tool_use_id: plain.content[0]?.id,
      content: {
        type: 'code_execution_result',
        stdout: '',
        stderr: failingTraceback,
        return_code: 1,
        content: [],
      },
    });
    const failed = (await claude('code-unavailable.c5', { tools: legacy })).json as Message;
    expect(failed.content[1]?.content).toEqual({
      type: 'code_execution_tool_result_error',
      error_code: 'unavailable',
    });
  });

  it('accepts the turn sent back, whole or as text, in the container it names', async () => {
    const first = (await claude('code.c6', { tools })).json as Message;
    const containerId = first.container?.id ?? '';
    for (const content of [first.content, [{ type: 'text', text: codeAnswer }]]) {
      const response = await claude('code.c6', {
        tools,
        container: containerId,
        messages: [...userTurn, { role: 'assistant', content }, { role: 'user', content: 'Again' }],
      });
      expect(response.status).toBe(200);
      expect((response.json as Message).container?.id).toBe(containerId);
    }
  });

  it('checks the tool name, and echoes without the tool', async () => {
    const wrong = await claude('code.c7', { tools: [{ type: 'code_execution_20250825', name: 'python' }] });
    expect(wrong.status).toBe(400);
    expect(errorMessage(wrong)).toBe(
      "tools.0.code_execution_20250825.name: Input should be 'code_execution'",
    );
    const plain = (await claude('code.c7', {})).json as Message;
    expect(plain.content).toEqual([{ type: 'text', text: geminiEcho }]);
    expect(plain.container).toBeUndefined();
  });
});

describe('Groq compound code execution', () => {
  const groq = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/openai/v1/chat/completions', openaiHeaders(key), {
      messages: [{ role: 'user', content: 'Hi' }],
      ...body,
    });
  interface Tool {
    index: number;
    type: string;
    arguments: string;
    output: string;
    code_results: { text?: string; png?: string }[];
  }
  interface Chunk {
    choices: { delta: { content?: string; reasoning?: string; executed_tools?: Tool[] } }[];
  }

  it('runs the program unasked: reasoning, the run whole in executed_tools with its plot, then the answer', async () => {
    const chunks = dataPayloads<Chunk>(
      (await groq('code.q1', { model: 'groq/compound', stream: true })).text,
    );
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta ?? {});
    const tools = deltas.flatMap((delta) => delta.executed_tools ?? []);
    expect(tools).toEqual([
      {
        index: 0,
        type: 'python',
        arguments: expect.any(String),
        output: '55\n',
        code_results: [{ png: plotBase64 }],
      },
    ]);
    expect(JSON.parse(tools[0]?.arguments ?? '')).toEqual({ code: squaresCode });
    expect(deltas.map((delta) => delta.reasoning ?? '').join('')).not.toBe('');
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(codeAnswer);
  });

  it('prints the traceback under code-failed, with no plot; not streamed on the message; another model echoes', async () => {
    const reply = await groq('code-failed.q2', { model: 'groq/compound-mini' });
    const message = (reply.json as { choices: { message: { content: string; executed_tools: Tool[] } }[] })
      .choices[0]?.message;
    expect(message?.content).toBe(failedAnswer);
    expect(message?.executed_tools).toEqual([
      expect.objectContaining({ type: 'python', output: failingTraceback, code_results: [] }),
    ]);
    const plain = await groq('code.q3', { model: 'llama-3.3-70b-versatile' });
    expect(JSON.stringify(plain.json)).not.toMatch(/executed_tools/);
  });
});
