import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import {
  codeAnswer,
  failedAnswer,
  failingCode,
  failingTraceback,
  imageAnswer,
  squaresCode,
  squaresCsv,
  squaresCsvName,
  squaresOutput,
  squaresPng,
  unavailableAnswer,
} from '../../tools/mock-providers/code-images.mjs';
import { mockConfigs } from './__fixtures__/configs.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage, ChatRequest, DrawnImage, StreamPart } from './types.ts';

/**
 * The providers' own code execution and pictures over real HTTP against the loopback mock
 * (tools/mock-providers, code-images.mjs): what each client sends, the mock accepts; what it
 * answers, the client reads, the files a run wrote downloaded from the provider.
 */

const mock = mockProvidersForThisFile();
const configFor = mockConfigs(() => mock().url);

const question: ChatMessage[] = [{ role: 'user', content: 'Sum the first five squares and plot them.' }];

async function ask(config: Config, request: Partial<ChatRequest> = {}) {
  const result = await drain(createChatProvider(config).chat({ messages: question, ...request }));
  const requests = mock().requests.filter((sent) => sent.key === config.apiKey);
  return { ...result, requests };
}

const of = <T extends StreamPart['type']>(parts: readonly StreamPart[], type: T) =>
  parts.filter((part): part is Extract<StreamPart, { type: T }> => part.type === type);

/** Each file's name, type, run and bytes (base64). */
async function filesOf(parts: readonly StreamPart[]) {
  return Promise.all(
    of(parts, 'file').map(async ({ name, mimeType, runId, partial, data }) => ({
      name,
      mimeType,
      ...(runId !== undefined && { runId }),
      ...(partial && { partial }),
      bytes: Buffer.from(await data.arrayBuffer()).toString('base64'),
    })),
  );
}

const png = squaresPng().toString('base64');
const csv = Buffer.from(squaresCsv).toString('base64');
const csvLink = `[${squaresCsvName}](sandbox:/mnt/data/${squaresCsvName})`;

/** The code of a run: its deltas joined, or the code its result repeats. */
const codeOf = (parts: readonly StreamPart[], id: string) =>
  of(parts, 'code-result').find((result) => result.id === id)?.code ??
  of(parts, 'code-delta')
    .filter((delta) => delta.id === id)
    .map(({ delta }) => delta)
    .join('');

describe.each([true, false])('streamed %s', (stream) => {
  it.each(['gpt-4o', 'gpt-5.4'])(
    'OpenAI %s: the code interpreter runs, its plot inline, the file it wrote downloaded from its container',
    async (model) => {
      const { error, text, parts, requests } = await ask(configFor('openai', 'code', { model }), {
        codeExecution: true,
        stream,
      });
      expect(error).toBeUndefined();
      expect(text).toBe(`${codeAnswer} ${csvLink}`);
      const [start] = of(parts, 'code-start');
      const run = start?.id ?? '';
      expect(start).toEqual({ type: 'code-start', id: expect.stringMatching(/^ci_/), language: 'python' });
      expect(codeOf(parts, run)).toBe(squaresCode);
      expect(of(parts, 'code-result')).toEqual([
        { type: 'code-result', id: run, code: squaresCode, output: squaresOutput },
      ]);
      expect(await filesOf(parts)).toEqual([
        { name: 'plot-1.png', mimeType: 'image/png', runId: run, bytes: png },
        { name: squaresCsvName, mimeType: 'text/csv', runId: run, bytes: csv },
      ]);
      expect(
        requests.map(({ method, path }) => `${method} ${path.replace(/cntr_\w+|cfile_\w+/g, '…')}`),
      ).toEqual(['POST /v1/responses', 'GET /v1/containers/…/files/…/content']);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    },
  );

  it('OpenAI: a failed program is a run whose logs hold the traceback, with no files', async () => {
    const { error, text, parts } = await ask(configFor('openai', 'code-failed'), {
      codeExecution: true,
      stream,
    });
    expect(error).toBeUndefined();
    expect(text).toBe(failedAnswer);
    expect(of(parts, 'code-result')).toEqual([
      // The call's status stays completed: the program ran, and failed.
      { type: 'code-result', id: expect.any(String), code: failingCode, output: failingTraceback },
    ]);
    expect(of(parts, 'file')).toEqual([]);
  });

  it('OpenAI: draws with the image tool, previews first when streamed, then the picture with its call id', async () => {
    const { error, text, parts } = await ask(configFor('openai', 'image', { model: 'gpt-5.4' }), {
      imageOutput: true,
      stream,
    });
    expect(error).toBeUndefined();
    expect(text).toBe(imageAnswer);
    const files = await filesOf(parts);
    expect(files.filter((file) => file.partial)).toHaveLength(stream ? 2 : 0);
    expect(files.at(-1)).toEqual({ name: 'image-1.png', mimeType: 'image/png', bytes: png });
    const final = of(parts, 'file').at(-1);
    expect(final?.providerData).toEqual({
      provider: 'openai',
      model: 'gpt-5.4',
      data: { imageCallId: final?.id ?? '' },
    });
    expect(new Set(of(parts, 'file').map(({ id }) => id)).size).toBe(1);
  });

  it('Claude: a bash run, its output, and the two files it wrote from the Files API, named by their metadata', async () => {
    const { error, text, parts, requests } = await ask(configFor('claude', 'code'), {
      codeExecution: true,
      stream,
    });
    expect(error).toBeUndefined();
    expect(text).toBe(codeAnswer);
    const [start] = of(parts, 'code-start');
    const run = start?.id ?? '';
    expect(start).toEqual({ type: 'code-start', id: expect.stringMatching(/^srvtoolu_/), language: 'bash' });
    expect(of(parts, 'code-delta')).toEqual([
      { type: 'code-delta', id: run, delta: `python3 - <<'EOF'\n${squaresCode}EOF` },
    ]);
    expect(of(parts, 'code-result')).toEqual([{ type: 'code-result', id: run, output: squaresOutput }]);
    expect(await filesOf(parts)).toEqual([
      { name: squaresCsvName, mimeType: 'text/csv', runId: run, bytes: csv },
      { name: 'squares.png', mimeType: 'image/png', runId: run, bytes: png },
    ]);
    expect(requests.map(({ method, path }) => `${method} ${path.replace(/file_\w+/g, '…')}`)).toEqual([
      'POST /v1/messages',
      'GET /v1/files/…',
      'GET /v1/files/…/content',
      'GET /v1/files/…',
      'GET /v1/files/…/content',
    ]);
    expect(requests[0]?.headers['anthropic-beta']).toBe('code-execution-2025-08-25');
    for (const download of requests.slice(1))
      expect(download.headers['anthropic-beta']).toBe('files-api-2025-04-14');
  });

  it('Claude: a failed program exits with 1, its traceback on stderr; an unavailable tool fails the run', async () => {
    const failed = await ask(configFor('claude', 'code-failed'), { codeExecution: true, stream });
    expect(failed.error).toBeUndefined();
    expect(failed.text).toBe(failedAnswer);
    expect(of(failed.parts, 'code-result')).toEqual([
      {
        type: 'code-result',
        id: expect.any(String),
        output: '',
        stderr: failingTraceback,
        failed: 'exit code 1',
      },
    ]);
    const unavailable = await ask(configFor('claude', 'code-unavailable'), { codeExecution: true, stream });
    expect(unavailable.text).toBe(unavailableAnswer);
    expect(of(unavailable.parts, 'code-result')).toEqual([
      { type: 'code-result', id: expect.any(String), output: '', failed: 'unavailable' },
    ]);
    expect(of(unavailable.parts, 'file')).toEqual([]);
  });

  it.each(['gemini-2.5-flash', 'gemini-3.5-flash'])(
    'Gemini %s: the run, its output and its plot',
    async (model) => {
      const { error, text, parts } = await ask(configFor('gemini', 'code', { model }), {
        codeExecution: true,
        stream,
      });
      expect(error).toBeUndefined();
      expect(text).toBe(codeAnswer);
      expect(of(parts, 'code-start')).toEqual([
        { type: 'code-start', id: 'gemini-code-1', language: 'python' },
      ]);
      expect(codeOf(parts, 'gemini-code-1')).toBe(squaresCode);
      expect(of(parts, 'code-result')).toEqual([
        { type: 'code-result', id: 'gemini-code-1', output: squaresOutput },
      ]);
      expect(await filesOf(parts)).toEqual([
        { name: 'plot-1.png', mimeType: 'image/png', runId: 'gemini-code-1', bytes: png },
      ]);
    },
  );

  it('Gemini: a failed program is a failed run with no plot', async () => {
    const { text, parts } = await ask(configFor('gemini', 'code-failed'), { codeExecution: true, stream });
    expect(text).toBe(failedAnswer);
    expect(of(parts, 'code-result')).toEqual([
      { type: 'code-result', id: 'gemini-code-1', output: failingTraceback, failed: 'failed' },
    ]);
    expect(of(parts, 'file')).toEqual([]);
  });

  it.each([
    ['gemini-3-pro-image', true],
    ['gemini-2.5-flash-image', false],
  ] as const)('Gemini %s draws unasked (signed: %s)', async (model, signed) => {
    const { error, text, parts } = await ask(configFor('gemini', 'image', { model }), { stream });
    expect(error).toBeUndefined();
    expect(text).toBe(imageAnswer);
    expect(await filesOf(parts)).toEqual([{ name: 'image-1.png', mimeType: 'image/png', bytes: png }]);
    const [file] = of(parts, 'file');
    if (signed)
      expect(file?.providerData).toEqual({
        provider: 'gemini',
        model,
        data: { thoughtSignature: expect.any(String) },
      });
    else expect(file?.providerData).toBeUndefined();
  });

  it('Groq compound: runs the program unasked, its output and plot', async () => {
    const { error, text, parts } = await ask(configFor('groq', 'code', { model: 'groq/compound' }), {
      stream,
    });
    expect(error).toBeUndefined();
    expect(text).toBe(codeAnswer);
    expect(of(parts, 'code-start')).toEqual([{ type: 'code-start', id: 'groq-code-0', language: 'python' }]);
    expect(codeOf(parts, 'groq-code-0')).toBe(squaresCode);
    expect(of(parts, 'code-result')).toEqual([
      { type: 'code-result', id: 'groq-code-0', output: squaresOutput },
    ]);
    expect(await filesOf(parts)).toEqual([
      { name: 'plot-1.png', mimeType: 'image/png', runId: 'groq-code-0', bytes: png },
    ]);
  });
});

describe('with other tools, and switched off', () => {
  it('Claude takes web search and code execution in one request', async () => {
    const { error, parts, requests } = await ask(configFor('claude', 'code'), {
      codeExecution: true,
      webSearch: true,
    });
    expect(error).toBeUndefined();
    expect(of(parts, 'code-result')).toHaveLength(1);
    const body = requests[0]?.body as { tools: { type: string }[] };
    expect(body.tools.map(({ type }) => type)).toEqual(['web_search_20250305', 'code_execution_20250825']);
  });

  it('OpenAI runs code and may draw in one request', async () => {
    const { error, parts } = await ask(configFor('openai', 'code', { model: 'gpt-5.4' }), {
      codeExecution: true,
      imageOutput: true,
      webSearch: true,
    });
    expect(error).toBeUndefined();
    expect(of(parts, 'code-result')).toHaveLength(1);
  });

  it.each(['openai', 'claude', 'gemini'] as const)(
    '%s: off, the mock sees no code tool and echoes',
    async (id) => {
      const { parts, error } = await ask(configFor(id, 'code'));
      expect(error).toBeUndefined();
      expect(parts.filter((part) => part.type.startsWith('code') || part.type === 'file')).toEqual([]);
    },
  );

  it('Azure answers as ever (Chat Completions, no code)', async () => {
    const config = configFor('azure', 'code', { endpoint: mock().url, deploymentName: 'gpt-4o' });
    const { error, parts } = await ask(config, { codeExecution: true, imageOutput: true });
    expect(error).toBeUndefined();
    expect(of(parts, 'code-start')).toEqual([]);
  });
});

describe('a later turn sends the drawn picture back for an edit, and the API takes it', () => {
  async function drawThenEdit(config: Config, request: Partial<ChatRequest>) {
    const first = await ask(config, request);
    expect(first.error).toBeUndefined();
    const final = of(first.parts, 'file')
      .filter((file) => !file.partial)
      .at(-1);
    if (!final) throw new Error('nothing was drawn');
    const drawn: DrawnImage = {
      kind: 'image',
      name: final.name,
      mimeType: final.mimeType,
      data: Buffer.from(await final.data.arrayBuffer()).toString('base64'),
      ...(final.providerData && { providerData: final.providerData }),
    };
    const history: ChatMessage[] = [
      ...question,
      { role: 'assistant', content: first.text, drawnImages: [drawn] },
      { role: 'user', content: 'Make the squares round.' },
    ];
    const second = await ask(config, { ...request, messages: history });
    expect(second.error).toBeUndefined();
    return { final, body: second.requests.at(-1)?.body as Record<string, unknown>, second };
  }

  it('OpenAI: as an image_generation_call item with its id', async () => {
    const { final, body, second } = await drawThenEdit(configFor('openai', 'image', { model: 'gpt-5.4' }), {
      imageOutput: true,
    });
    expect(body.input).toContainEqual({
      type: 'image_generation_call',
      id: final.id,
      status: 'completed',
      result: png,
    });
    expect(of(second.parts, 'file').length).toBeGreaterThan(0);
  });

  it('Gemini 3 image: as inline data with its thought signature, before the text', async () => {
    const { final, body } = await drawThenEdit(
      configFor('gemini', 'image', { model: 'gemini-3-pro-image' }),
      {},
    );
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    const model = contents.find(({ role }) => role === 'model');
    expect(model?.parts[0]).toEqual({
      inlineData: { mimeType: 'image/png', data: png },
      thoughtSignature: final.providerData?.data.thoughtSignature,
    });
    expect(model?.parts[1]).toEqual({ text: imageAnswer });
  });
});
