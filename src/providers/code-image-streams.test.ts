import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import {
  anthropicCodeStream,
  anthropicFailedRunStream,
  anthropicFiles,
  bashCommand,
  codePieces,
  geminiCodeStream,
  geminiFailedRunStream,
  geminiImageSignature,
  geminiImageStream,
  groqCodeStream,
  openaiCodeReply,
  openaiCodeStream,
  openaiCodeText,
  openaiFailedRunStream,
  openaiImageStream,
  pictureBase64,
  previewBase64,
  runCode,
  runOutput,
  secondPreviewBase64,
  tableCsv,
} from './__fixtures__/code-image-streams.ts';
import {
  chunkSizes,
  drain,
  fakeFetch,
  jsonResponse,
  streamResponse,
  type RecordedRequest,
} from './__fixtures__/fake-fetch.ts';
import {
  base64Bytes,
  base64Size,
  createFileBudget,
  dataUrlParts,
  downloadedFile,
  downloadFailedNotice,
  fileLimits,
  fileName,
  inlineFile,
  numberedName,
  tooLargeNotice,
  tooManyFilesNotice,
} from './code-image-wire.ts';
import { forgetUnverifiedKeys, imageFailedNotice } from './openai-responses.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';
import type { ChatRequest, StreamPart } from './types.ts';

/**
 * What each API's code runs and pictures read as (docs/providers.md#code-execution,
 * docs/providers.md#images-out): the exact parts, the same at every byte size the body arrives
 * in; the files a run wrote fetched with the chat call's own headers; and the bounds that keep a
 * hostile reply from taking the tab down.
 */

beforeEach(() => {
  forgetRefusedFields();
  forgetUnverifiedKeys();
});

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A file part with its bytes as base64, to compare; its Blob's type must be its media type. */
type Readable =
  | Exclude<StreamPart, { type: 'file' }>
  | (Omit<Extract<StreamPart, { type: 'file' }>, 'data'> & { data: string });

async function readable(parts: readonly StreamPart[]): Promise<Readable[]> {
  const read: Readable[] = [];
  for (const part of parts) {
    if (part.type !== 'file') {
      read.push(part);
      continue;
    }
    expect(part.data.type).toBe(part.mimeType);
    read.push({ ...part, data: Buffer.from(await part.data.arrayBuffer()).toString('base64') });
  }
  return read;
}

function configFor(provider: ProviderId, model?: string): Config {
  return { ...testConfigs[provider], ...(model && { model }) };
}

type Answer = (request: RecordedRequest) => Response | undefined;

/** Files as the providers serve them: OpenAI's container files, Anthropic's Files API. */
const serveFiles: Answer = (request) => {
  if (request.url.includes('/containers/'))
    return new Response(tableCsv, { headers: { 'content-type': 'application/octet-stream' } });
  const file = /\/v1\/files\/([^/]+)(\/content)?$/.exec(request.url);
  if (!file) return undefined;
  const known = anthropicFiles[file[1] as keyof typeof anthropicFiles];
  if (!known)
    return jsonResponse(
      { type: 'error', error: { type: 'not_found_error', message: 'File not found' } },
      { status: 404 },
    );
  if (!file[2])
    return jsonResponse({ id: file[1], type: 'file', ...known, size_bytes: 10, downloadable: true });
  const bytes = known.mime_type === 'image/png' ? Buffer.from(known.body, 'base64') : Buffer.from(known.body);
  return new Response(bytes, { headers: { 'content-type': known.mime_type } });
};

async function read(
  config: Config,
  stream: string,
  size: number,
  request: Partial<ChatRequest> = {},
  answer: Answer = serveFiles,
) {
  const { fetch, requests } = fakeFetch((sent) => answer(sent) ?? streamResponse(stream, size));
  const result = await drain(
    createChatProvider(config, { fetch }).chat({ messages: conversation, ...request }),
  );
  return { parts: await readable(result.parts), error: result.error, requests };
}

/** The same parts whatever the byte size the body arrives in (1: split at every byte boundary). */
async function readSplit(
  config: Config,
  stream: string,
  request: Partial<ChatRequest> = {},
  answer?: Answer,
) {
  const results = [];
  for (const size of chunkSizes) results.push(await read(config, stream, size, request, answer));
  const [first] = results;
  for (const result of results) expect(result.parts).toEqual(first?.parts);
  return first ?? { parts: [], error: undefined, requests: [] };
}

const finishOf = (parts: readonly Readable[]) => parts.at(-1);

describe('the shared wire pieces', () => {
  it('size base64 before decoding it, and decode only within the bound', () => {
    expect([b64(''), b64('a'), b64('ab'), b64('abc'), 'YWJj', 'YWI'].map(base64Size)).toEqual([
      0, 1, 2, 3, 3, 2,
    ]);
    expect(Buffer.from(base64Bytes(b64('Zürich 🌧')) ?? []).toString()).toBe('Zürich 🌧');
    // URL-safe base64 reads too; what is not base64 is nothing.
    expect(Array.from(base64Bytes('-_8') ?? [])).toEqual([251, 255]);
    expect(base64Bytes('not base64!')).toBeUndefined();
    expect(base64Bytes('')).toBeUndefined();
    expect(base64Bytes(b64('12345'), 4)).toBeUndefined();
    expect(base64Bytes(b64('1234'), 4)).toHaveLength(4);
  });

  it('read data: URLs, and only base64 ones', () => {
    expect(dataUrlParts(`data:image/PNG;base64,${pictureBase64}`)).toEqual({
      mimeType: 'image/png',
      base64: pictureBase64,
    });
    expect(dataUrlParts('data:;base64,AAAA')).toEqual({
      mimeType: 'application/octet-stream',
      base64: 'AAAA',
    });
    expect(dataUrlParts('data:text/plain,hello')).toBeUndefined();
    expect(dataUrlParts('https://files.example/plot.png')).toBeUndefined();
    expect(dataUrlParts(`data:${'x'.repeat(300)};base64,AAAA`)).toBeUndefined();
  });

  it('make names safe: the last path segment, no control characters, at most 200 characters', () => {
    expect(fileName('../../etc/passwd', 'f')).toBe('passwd');
    expect(fileName('C:\\Users\\me\\plot.png', 'f')).toBe('plot.png');
    expect(fileName(' tab\u0000le\u0007.csv ', 'f')).toBe('table.csv');
    expect(fileName('x'.repeat(500), 'f')).toHaveLength(fileLimits.name);
    expect(['', '..', '.', 'dir/', undefined].map((name) => fileName(name, 'fallback'))).toEqual(
      Array(5).fill('fallback'),
    );
    expect([
      numberedName('plot', 1, 'image/png'),
      numberedName('image', 2, 'image/jpeg'),
      numberedName('image', 3, 'image/webp'),
      numberedName('file', 4, 'application/x-unknown'),
    ]).toEqual(['plot-1.png', 'image-2.jpg', 'image-3.webp', 'file-4.bin']);
  });

  it('keep a file over 20 MB out with a notice, checked before decoding; skip malformed ones', () => {
    const budget = createFileBudget();
    const file = { id: 'f', name: 'big.png', mimeType: 'image/png' };
    // 28 million base64 characters: 21 MB of bytes, never decoded.
    const huge = 'A'.repeat(28_000_000);
    expect(inlineFile({ ...file, base64: huge }, budget)).toEqual([
      { type: 'notice', text: tooLargeNotice('big.png') },
    ]);
    expect(inlineFile({ ...file, base64: huge, partial: true }, budget)).toEqual([]);
    for (const malformed of [42, null, '', '%%%', { data: 'AAAA' }])
      expect(inlineFile({ ...file, base64: malformed }, budget)).toEqual([]);
    expect(budget.hasRoom()).toBe(true);
  });

  it('yield at most 20 files a request, saying once that the rest were left out; previews do not count', () => {
    const budget = createFileBudget();
    const parts = Array.from({ length: 23 }, (_, index) =>
      inlineFile({ id: `f${index}`, name: 'p.png', mimeType: 'image/png', base64: pictureBase64 }, budget),
    ).flat();
    expect(parts.filter((part) => part.type === 'file')).toHaveLength(fileLimits.files);
    expect(parts.filter((part) => part.type === 'notice')).toEqual([
      { type: 'notice', text: tooManyFilesNotice },
    ]);
    const preview = inlineFile(
      { id: 'p', name: 'p.png', mimeType: 'image/png', base64: pictureBase64, partial: true },
      budget,
    );
    expect(preview).toMatchObject([{ type: 'file', partial: true }]);
  });
});

describe('downloads', () => {
  const request = (fetch: typeof globalThis.fetch, signal?: AbortSignal) => ({
    provider: 'openai' as const,
    fetch,
    url: 'https://api.openai.com/v1/containers/c/files/f/content',
    headers: { Authorization: 'Bearer sk-test' },
    signal,
  });
  const download = async (
    respond: () => Response | Promise<Response>,
    limit?: number,
    signal?: AbortSignal,
  ) => {
    const { fetch } = fakeFetch(respond);
    const budget = createFileBudget();
    const file = { id: 'f', name: 'data.csv', request: request(fetch, signal), ...(limit && { limit }) };
    const { parts, error } = await drain(downloadedFile(file, budget));
    return { parts: await readable(parts), error, budget };
  };

  it('read the bytes, their type from the name when the server says octet-stream', async () => {
    const { parts } = await download(
      () => new Response(tableCsv, { headers: { 'content-type': 'application/octet-stream' } }),
    );
    expect(parts).toEqual([
      { type: 'file', id: 'f', name: 'data.csv', mimeType: 'text/csv', data: b64(tableCsv) },
    ]);
  });

  it('stop reading past the bound, by the declared length or while reading, and say so', async () => {
    const declared = await download(
      () => new Response('tiny', { headers: { 'content-length': String(fileLimits.bytes + 1) } }),
    );
    expect(declared.parts).toEqual([{ type: 'notice', text: tooLargeNotice('data.csv') }]);
    let pulls = 0;
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulls += 1;
            controller.enqueue(new Uint8Array(1000));
          },
        }),
      );
    const read = await download(endless, 5000);
    expect(read.parts).toEqual([{ type: 'notice', text: tooLargeNotice('data.csv') }]);
    expect(pulls).toBeLessThan(10);
    expect(read.budget.hasRoom()).toBe(true);
  });

  it('turn a refused download into a notice, and an aborted one into the abort', async () => {
    const refused = await download(() =>
      jsonResponse({ error: { message: 'File not found.', type: 'invalid_request_error' } }, { status: 404 }),
    );
    expect(refused.parts).toEqual([
      { type: 'notice', text: downloadFailedNotice('data.csv', 'File not found.') },
    ]);
    expect(downloadFailedNotice('data.csv', 'File not found.')).toBe(
      'The file data.csv could not be downloaded (File not found).',
    );
    const controller = new AbortController();
    controller.abort();
    const aborted = await download(() => new Response(''), undefined, controller.signal);
    expect(isProviderError(aborted.error) && aborted.error.kind).toBe('aborted');
  });
});

describe('OpenAI Responses', () => {
  const config = configFor('openai', 'gpt-5.4');
  const run = 'ci_1';
  const codeParts: Readable[] = [
    { type: 'code-start', id: run, language: 'python' },
    ...codePieces.map((delta): Readable => ({ type: 'code-delta', id: run, delta })),
    { type: 'code-result', id: run, code: runCode, output: runOutput },
    {
      type: 'file',
      id: `${run}-plot-1`,
      name: 'plot-1.png',
      mimeType: 'image/png',
      data: pictureBase64,
      runId: run,
    },
  ];
  const csv: Readable = {
    type: 'file',
    id: 'cfile_1',
    name: 'Tabelle.csv',
    mimeType: 'text/csv',
    data: b64(tableCsv),
    runId: run,
  };
  const finish: Readable = {
    type: 'finish',
    reason: 'stop',
    rawReason: 'completed',
    usage: { inputTokens: 300, outputTokens: 120, totalTokens: 420 },
  };

  it('reads a run: its code as it streams, its logs and plot, then the file the answer cites, fetched before the finish', async () => {
    const { parts, error, requests } = await readSplit(config, openaiCodeStream, { codeExecution: true });
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      ...codeParts,
      { type: 'text-delta', text: 'Die Wurzel ist 12. ' },
      { type: 'text-delta', text: openaiCodeText.slice(19) },
      csv,
      finish,
    ]);
    const download = requests[1];
    expect(download?.url).toBe('https://api.openai.com/v1/containers/cntr_1/files/cfile_1/content');
    expect(download?.method).toBe('GET');
    expect(download?.headers.authorization).toBe('Bearer sk-test');
    expect(requests).toHaveLength(2);
  });

  it('reads an unstreamed reply the same way', async () => {
    const { fetch } = fakeFetch((sent) => serveFiles(sent) ?? jsonResponse(openaiCodeReply));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({
        messages: conversation,
        codeExecution: true,
        stream: false,
      }),
    );
    expect(await readable(result.parts)).toEqual([
      { type: 'code-start', id: run, language: 'python' },
      ...codeParts.slice(4),
      { type: 'text-delta', text: openaiCodeText },
      csv,
      finish,
    ]);
  });

  it('finishes the reply with a notice when the cited file cannot be downloaded', async () => {
    const { parts, error } = await read(
      config,
      openaiCodeStream,
      Infinity,
      { codeExecution: true },
      (sent) =>
        sent.url.includes('/containers/')
          ? jsonResponse(
              { error: { message: 'Container expired.', type: 'invalid_request_error' } },
              { status: 404 },
            )
          : undefined,
    );
    expect(error).toBeUndefined();
    expect(parts.slice(-2)).toEqual([
      { type: 'notice', text: 'The file Tabelle.csv could not be downloaded (Container expired).' },
      finish,
    ]);
  });

  it('reads a failed run: status failed, its traceback as the output', async () => {
    const { parts } = await readSplit(config, openaiFailedRunStream, { codeExecution: true });
    expect(parts).toEqual([
      { type: 'code-start', id: 'ci_2', language: 'python' },
      { type: 'code-delta', id: 'ci_2', delta: 'print(1 / 0)\n' },
      {
        type: 'code-result',
        id: 'ci_2',
        code: 'print(1 / 0)\n',
        output: 'ZeroDivisionError: division by zero\n',
        failed: 'failed',
      },
      { type: 'text-delta', text: 'Das ging schief.' },
      finish,
    ]);
  });

  it('reads a picture: two previews, then the picture with its call id to send back', async () => {
    const { parts } = await readSplit(config, openaiImageStream, { imageOutput: true });
    const image = { type: 'file', id: 'ig_1', name: 'image-1.webp', mimeType: 'image/webp' } as const;
    expect(parts).toEqual([
      { ...image, data: previewBase64, partial: true },
      { ...image, data: secondPreviewBase64, partial: true },
      {
        ...image,
        data: pictureBase64,
        providerData: { provider: 'openai', model: 'gpt-5.4', data: { imageCallId: 'ig_1' } },
      },
      { type: 'text-delta', text: 'Hier ist das Bild 🌈.' },
      finish,
    ]);
  });

  it('says so when a picture failed, and skips items with nothing to show', async () => {
    const reply = {
      status: 'completed',
      output: [
        { id: 'ig_f', type: 'image_generation_call', status: 'failed', result: null },
        { id: 'ig_m', type: 'image_generation_call', status: 'completed', result: 12 },
        { type: 'code_interpreter_call', status: 'completed', outputs: [] },
        {
          id: 'ci_x',
          type: 'code_interpreter_call',
          status: 'incomplete',
          outputs: [{ type: 'image', url: 'https://x.example/p.png' }],
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({
        messages: conversation,
        imageOutput: true,
        stream: false,
      }),
    );
    expect(result.parts.slice(0, -1)).toEqual([
      { type: 'notice', text: imageFailedNotice },
      { type: 'code-start', id: 'ci_x', language: 'python' },
      { type: 'code-result', id: 'ci_x', output: '', failed: 'incomplete' },
    ]);
  });
});

describe('parts out of order', () => {
  it('OpenAI: a preview after its picture is dropped; a run whose start went missing begins with its code', async () => {
    const stream = [
      openaiImageStream.replace(/event: response\.completed[\s\S]*$/, ''),
      'event: response.image_generation_call.partial_image\n',
      `data: ${JSON.stringify({
        type: 'response.image_generation_call.partial_image',
        item_id: 'ig_1',
        partial_image_b64: previewBase64,
      })}\n\n`,
      'event: response.code_interpreter_call_code.delta\n',
      `data: ${JSON.stringify({ type: 'response.code_interpreter_call_code.delta', item_id: 'ci_9', delta: 'x = 1' })}\n\n`,
      openaiImageStream.slice(openaiImageStream.indexOf('event: response.completed')),
    ].join('');
    const { parts } = await readSplit(configFor('openai', 'gpt-5.4'), stream, { imageOutput: true });
    expect(
      parts.filter((part) => part.type === 'file').map((part) => part.type === 'file' && part.partial),
    ).toEqual([true, true, undefined]);
    expect(parts.filter((part) => part.type.startsWith('code'))).toEqual([
      { type: 'code-start', id: 'ci_9', language: 'python' },
      { type: 'code-delta', id: 'ci_9', delta: 'x = 1' },
    ]);
  });

  it('Anthropic: a result whose run never started begins it', async () => {
    const reply = {
      content: [
        {
          type: 'code_execution_tool_result',
          tool_use_id: 'srvtoolu_z',
          content: { type: 'code_execution_result', stdout: '2\n', stderr: '', return_code: 0, content: [] },
        },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(configFor('claude'), { fetch }).chat({ messages: conversation, stream: false }),
    );
    expect(result.parts.slice(0, -1)).toEqual([
      { type: 'code-start', id: 'srvtoolu_z', language: 'python' },
      { type: 'code-result', id: 'srvtoolu_z', output: '2\n' },
    ]);
  });
});

describe('Anthropic', () => {
  const config = configFor('claude');
  const finish: Readable = {
    type: 'finish',
    reason: 'stop',
    rawReason: 'end_turn',
    usage: {
      inputTokens: 2000,
      outputTokens: 180,
      totalTokens: 2180,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    },
  };
  const codeParts: Readable[] = [
    { type: 'code-start', id: 'srvtoolu_e', language: 'text' },
    { type: 'code-delta', id: 'srvtoolu_e', delta: `create /tmp/wurzel.py\n${runCode}` },
    { type: 'code-result', id: 'srvtoolu_e', output: '' },
    { type: 'code-start', id: 'srvtoolu_b', language: 'bash' },
    { type: 'code-delta', id: 'srvtoolu_b', delta: bashCommand },
    { type: 'code-result', id: 'srvtoolu_b', output: runOutput },
    { type: 'text-delta', text: 'Die Wurzel ist 12.' },
    {
      type: 'file',
      id: 'file_011csv',
      name: 'Tabelle.csv',
      mimeType: 'text/csv',
      data: b64(tableCsv),
      runId: 'srvtoolu_b',
    },
    {
      type: 'file',
      id: 'file_011png',
      name: 'Regen.png',
      mimeType: 'image/png',
      data: pictureBase64,
      runId: 'srvtoolu_b',
    },
  ];

  it('reads runs: the code once its input is whole, their results, and the files they wrote from the Files API', async () => {
    const { parts, error, requests } = await readSplit(config, anthropicCodeStream, { codeExecution: true });
    expect(error).toBeUndefined();
    expect(parts).toEqual([...codeParts, finish]);
    expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST https://api.anthropic.com/v1/messages',
      'GET https://api.anthropic.com/v1/files/file_011csv',
      'GET https://api.anthropic.com/v1/files/file_011csv/content',
      'GET https://api.anthropic.com/v1/files/file_011png',
      'GET https://api.anthropic.com/v1/files/file_011png/content',
    ]);
    for (const download of requests.slice(1))
      expect(download.headers).toMatchObject({
        'x-api-key': 'sk-ant-test',
        'anthropic-version': '2023-06-01',
        'anthropic-dangerous-direct-browser-access': 'true',
        'anthropic-beta': 'files-api-2025-04-14',
      });
  });

  it('reads a run that exited with 1 and one the tool refused', async () => {
    const { parts } = await readSplit(config, anthropicFailedRunStream, { codeExecution: true });
    expect(parts).toEqual([
      { type: 'code-start', id: 'srvtoolu_f', language: 'bash' },
      { type: 'code-delta', id: 'srvtoolu_f', delta: 'python3 -c "print(1 / 0)"' },
      {
        type: 'code-result',
        id: 'srvtoolu_f',
        output: '',
        stderr: 'ZeroDivisionError: division by zero\n',
        failed: 'exit code 1',
      },
      { type: 'code-start', id: 'srvtoolu_u', language: 'python' },
      { type: 'code-delta', id: 'srvtoolu_u', delta: 'print(2)' },
      { type: 'code-result', id: 'srvtoolu_u', output: '', failed: 'execution_time_exceeded' },
      { type: 'text-delta', text: 'Das ging schief.' },
      {
        ...finish,
        usage: { ...(finish.type === 'finish' ? finish.usage : {}), outputTokens: 60, totalTokens: 2060 },
      },
    ]);
  });

  it('finishes the reply with a notice for a file whose metadata or bytes are refused', async () => {
    const { parts, error } = await read(
      config,
      anthropicCodeStream,
      Infinity,
      { codeExecution: true },
      (sent) =>
        sent.url.endsWith('file_011csv')
          ? jsonResponse(
              { type: 'error', error: { type: 'not_found_error', message: 'File not found: file_011csv' } },
              { status: 404 },
            )
          : serveFiles(sent),
    );
    expect(error).toBeUndefined();
    expect(
      parts
        .filter((part) => part.type === 'notice' || part.type === 'file')
        .map((part) => (part.type === 'file' ? part.name : part.text)),
    ).toEqual(['The file file_011csv could not be downloaded (File not found: file_011csv).', 'Regen.png']);
  });

  it('reads an unstreamed reply the same way', async () => {
    const blocks = [
      {
        type: 'server_tool_use',
        id: 'srvtoolu_b',
        name: 'bash_code_execution',
        input: { command: bashCommand },
      },
      {
        type: 'bash_code_execution_tool_result',
        tool_use_id: 'srvtoolu_b',
        content: {
          type: 'bash_code_execution_result',
          stdout: runOutput,
          stderr: '',
          return_code: 0,
          content: [{ type: 'code_execution_output', file_id: 'file_011csv' }],
        },
      },
      { type: 'text', text: 'Die Wurzel ist 12.' },
    ];
    const reply = {
      content: blocks,
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
      container: { id: 'container_1' },
    };
    const { fetch } = fakeFetch((sent) => serveFiles(sent) ?? jsonResponse(reply));
    const result = await drain(
      createChatProvider(config, { fetch }).chat({
        messages: conversation,
        codeExecution: true,
        stream: false,
      }),
    );
    expect((await readable(result.parts)).slice(0, -1)).toEqual([...codeParts.slice(3, 8)]);
  });
});

describe('Gemini', () => {
  const finish: Readable = {
    type: 'finish',
    reason: 'stop',
    rawReason: 'STOP',
    usage: { inputTokens: 10, outputTokens: 40, totalTokens: 50 },
  };

  it('reads runs: the code, the output, the plot after it as the run’s file, a run that ran out of time', async () => {
    const { parts, error } = await readSplit(configFor('gemini'), geminiCodeStream, { codeExecution: true });
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Ich rechne.' },
      { type: 'code-start', id: 'gemini-code-1', language: 'python' },
      { type: 'code-delta', id: 'gemini-code-1', delta: runCode },
      { type: 'code-result', id: 'gemini-code-1', output: runOutput },
      {
        type: 'file',
        id: 'gemini-code-1-plot-1',
        name: 'plot-1.png',
        mimeType: 'image/png',
        data: pictureBase64,
        runId: 'gemini-code-1',
      },
      { type: 'code-start', id: 'run-b', language: 'python' },
      { type: 'code-delta', id: 'run-b', delta: 'while True: pass\n' },
      { type: 'code-result', id: 'run-b', output: '', failed: 'deadline exceeded' },
      { type: 'text-delta', text: ' Die Wurzel ist 12.' },
      finish,
    ]);
  });

  it('reads a failed run', async () => {
    const { parts } = await readSplit(configFor('gemini'), geminiFailedRunStream, { codeExecution: true });
    expect(parts.slice(0, 3)).toEqual([
      { type: 'code-start', id: 'gemini-code-1', language: 'python' },
      { type: 'code-delta', id: 'gemini-code-1', delta: 'print(1 / 0)\n' },
      {
        type: 'code-result',
        id: 'gemini-code-1',
        output: 'ZeroDivisionError: division by zero\n',
        failed: 'failed',
      },
    ]);
  });

  it("reads an image model's reply: a draft as a preview, then the picture with its thought signature", async () => {
    const model = 'gemini-3-pro-image';
    const { parts } = await readSplit(configFor('gemini', model), geminiImageStream);
    expect(parts).toEqual([
      {
        type: 'file',
        id: 'gemini-image-1',
        name: 'image-1.png',
        mimeType: 'image/png',
        data: previewBase64,
        partial: true,
      },
      { type: 'text-delta', text: 'Hier ist der Regenbogen 🌈.' },
      {
        type: 'file',
        id: 'gemini-image-1',
        name: 'image-1.jpg',
        mimeType: 'image/jpeg',
        data: pictureBase64,
        providerData: { provider: 'gemini', model, data: { thoughtSignature: geminiImageSignature } },
      },
      finish,
    ]);
  });

  it('shows no inline data of a model that neither draws nor ran code before it, and skips malformed parts', async () => {
    const reply = {
      candidates: [
        {
          content: {
            parts: [
              { inlineData: { mimeType: 'image/png', data: pictureBase64 } },
              { executableCode: { language: 'PYTHON', code: 'print(1)' } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK' } },
              { inlineData: { mimeType: 'image/png', data: 42 } },
              { inlineData: 'nonsense' },
              { text: 'Fertig.' },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(configFor('gemini'), { fetch }).chat({ messages: conversation, stream: false }),
    );
    expect(result.error).toBeUndefined();
    expect(result.parts.slice(0, -1)).toEqual([
      { type: 'code-start', id: 'gemini-code-1', language: 'python' },
      { type: 'code-delta', id: 'gemini-code-1', delta: 'print(1)' },
      { type: 'code-result', id: 'gemini-code-1', output: '' },
      { type: 'text-delta', text: 'Fertig.' },
    ]);
  });

  it('keeps a picture over 20 MB out with a notice, the reply going on', async () => {
    const reply = {
      candidates: [
        {
          content: {
            parts: [
              { inlineData: { mimeType: 'image/png', data: 'A'.repeat(28_000_000) } },
              { text: 'Zu groß.' },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
        },
      ],
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(configFor('gemini', 'gemini-2.5-flash-image'), { fetch }).chat({
        messages: conversation,
        stream: false,
      }),
    );
    expect(result.parts.slice(0, 2)).toEqual([
      { type: 'notice', text: tooLargeNotice('image-1.png') },
      { type: 'text-delta', text: 'Zu groß.' },
    ]);
  });
});

describe('Groq compound', () => {
  it('reads a run it made on its own: once begun, once done, its plot once, however often it repeats', async () => {
    const { parts, error } = await readSplit(configFor('groq', 'groq/compound'), groqCodeStream);
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'Ich rechne es aus.' },
      { type: 'code-start', id: 'groq-code-0', language: 'python' },
      { type: 'code-delta', id: 'groq-code-0', delta: runCode },
      // The text result the print already holds is not repeated.
      { type: 'code-result', id: 'groq-code-0', output: `${runOutput}True` },
      {
        type: 'file',
        id: 'groq-code-0-plot-1',
        name: 'plot-1.png',
        mimeType: 'image/png',
        data: pictureBase64,
        runId: 'groq-code-0',
      },
      { type: 'text-delta', text: 'Die Wurzel ist 12.' },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'stop',
        usage: { inputTokens: 900, outputTokens: 40, totalTokens: 940 },
      },
    ]);
  });
});

describe('many pictures in one reply', () => {
  it('yields 20 and says once that the rest were left out', async () => {
    const reply = {
      status: 'completed',
      output: Array.from({ length: 25 }, (_, index) => ({
        id: `ig_${index}`,
        type: 'image_generation_call',
        status: 'completed',
        output_format: 'png',
        result: pictureBase64,
      })),
    };
    const { fetch } = fakeFetch(() => jsonResponse(reply));
    const result = await drain(
      createChatProvider(configFor('openai'), { fetch }).chat({
        messages: conversation,
        imageOutput: true,
        stream: false,
      }),
    );
    expect(result.parts.filter((part) => part.type === 'file')).toHaveLength(20);
    expect(result.parts.filter((part) => part.type === 'notice')).toEqual([
      { type: 'notice', text: tooManyFilesNotice },
    ]);
    expect(finishOf(await readable(result.parts))).toMatchObject({ type: 'finish', reason: 'stop' });
  });
});
