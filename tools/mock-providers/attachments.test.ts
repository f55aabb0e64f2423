import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../tests/e2e/files.ts';
import { startMockProviders } from './server.mjs';

let mock: Awaited<ReturnType<typeof startMockProviders>>;

beforeAll(async () => {
  mock = await startMockProviders({ tokenDelayMs: 0 });
});
afterAll(async () => {
  await mock.close();
});

// ---- Tiny real files, built byte by byte ----

// PNGs come from the e2e suite's builder; the other formats' headers are written here.
/** SOI, a JFIF APP0, a quantisation table, a start-of-frame (SOF0, or SOF2 for progressive), EOI. */
function jpeg(width: number, height: number, frame = 0xc0): Buffer {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0,
  ];
  const dqt = [0xff, 0xdb, 0x00, 0x43, 0x00, ...Array.from({ length: 64 }, () => 1)];
  const sof = [0xff, frame, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03];
  const components = [0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01];
  return Buffer.from([0xff, 0xd8, ...app0, ...dqt, ...sof, ...components, 0xff, 0xd9]);
}
/** A 1-pixel GIF89a with its logical screen set to width × height. */
function gif(width: number, height: number): Buffer {
  const bytes = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}
function riff(chunk: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  const body = Buffer.concat([Buffer.from(`WEBP${chunk}`, 'latin1'), size, data]);
  const total = Buffer.alloc(4);
  total.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), total, body]);
}
function webpVP8X(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}
function webpVP8L(width: number, height: number): Buffer {
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff('VP8L', data);
}
function webpVP8(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff('VP8 ', data);
}
function pdf(pages = 1): Buffer {
  const kids = Array.from({ length: pages }, (_, n) => `${n + 3} 0 R`).join(' ');
  const pageObjects = Array.from(
    { length: pages },
    (_, n) => `${n + 3} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj`,
  );
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      `2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj`,
      ...pageObjects,
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
  );
}
const b64 = (bytes: Buffer) => bytes.toString('base64');
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${b64(bytes)}`;
/** Bytes that start as the type claims and are then padding, to reach a size. */
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length)]);

// ---- Requests and replies ----

interface Reply {
  status: number;
  text: string;
  json: unknown;
}

async function post(path: string, headers: Record<string, string>, body: unknown): Promise<Reply> {
  const response = await fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const claudeHeaders = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' });
const geminiPath = (method = 'generateContent') => `/v1beta/models/gemini-2.5-flash:${method}`;
const azurePath = '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21';

const openai = (body: unknown, key = 'ok.a') => post('/v1/chat/completions', bearer(key), body);
const azure = (body: unknown, key = 'ok.a') => post(azurePath, { 'api-key': key }, body);
const groq = (body: unknown, key = 'ok.a') => post('/openai/v1/chat/completions', bearer(key), body);
const responses = (body: unknown, key = 'ok.a') => post('/v1/responses', bearer(key), body);
const claude = (body: unknown, key = 'ok.a') => post('/v1/messages', claudeHeaders(key), body);
const gemini = (body: unknown, key = 'ok.a', method = 'generateContent') =>
  post(
    method === 'generateContent' ? geminiPath() : `${geminiPath(method)}?alt=sse`,
    { 'x-goog-api-key': key },
    body,
  );

const user = (content: unknown) => ({ role: 'user', content });
const chatBody = (content: unknown, model = 'gpt-4o') => ({ model, messages: [user(content)] });
const claudeBody = (content: unknown) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [user(content)],
});
const geminiBody = (parts: unknown[]) => ({ contents: [{ role: 'user', parts }] });
const responsesBody = (content: unknown) => ({ model: 'gpt-5.4', input: [user(content)] });

/** The `data:` payloads of an SSE body. */
function payloads<T>(text: string): T[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((block) => /^data: (\{.*)$/m.exec(block)?.[1] ?? [])
    .map((json) => JSON.parse(json) as T);
}
interface ChatChunk {
  choices?: { delta?: { content?: string } }[];
}
interface ResponsesEvent {
  type: string;
  delta?: string;
}
interface ClaudeEvent {
  delta?: { type?: string; text?: string };
}
interface GeminiChunk {
  candidates?: { content?: { parts?: { text?: string }[] } }[];
}
const streamedChat = (text: string) =>
  payloads<ChatChunk>(text)
    .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '')
    .join('');
const streamedResponses = (text: string) =>
  payloads<ResponsesEvent>(text)
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => event.delta)
    .join('');
const streamedClaude = (text: string) =>
  payloads<ClaudeEvent>(text)
    .map((event) => (event.delta?.type === 'text_delta' ? (event.delta.text ?? '') : ''))
    .join('');
const streamedGemini = (text: string) =>
  payloads<GeminiChunk>(text)
    .flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
    .map((part) => part.text ?? '')
    .join('');
/** The message of a Chat Completions reply that was not streamed. */
const chatContent = (reply: Reply) =>
  (reply.json as { choices: { message: { content: string } }[] }).choices[0]?.message.content;

const errorOf = (reply: Reply) => (reply.json as { error: Record<string, unknown> }).error;

// ---- The attachments scenario ----

const question = 'What do these show?';
const notes = '<file name="notes.md">\n# Notes\n\nBuy milk.\n</file>';
const config = '<file name="config.json">{"a": 1}</file>';
/** The user's text: two file blocks around the question, as the app inlines text files. */
const textWithFiles = `${notes}\n\n${config}\n\n${question}`;

describe('attachments scenario', () => {
  const report = pdf(2);

  it('Chat Completions (OpenAI, Azure, Groq): images, a named PDF, text files, then the message', async () => {
    const content = [
      { type: 'text', text: textWithFiles },
      { type: 'image_url', image_url: { url: dataUrl('image/png', png(2, 1)), detail: 'high' } },
      { type: 'image_url', image_url: { url: dataUrl('image/jpeg', jpeg(640, 480)) } },
      { type: 'file', file: { filename: 'report.pdf', file_data: dataUrl('application/pdf', report) } },
    ];
    const expected = [
      'Received:',
      '- text notes.md',
      '- text config.json',
      '- image image/png 2×1',
      '- image image/jpeg 640×480',
      `- pdf report.pdf ${report.length} bytes`,
      `- message: ${question}`,
    ].join('\n');
    const earlier = [user([{ type: 'image_url', image_url: { url: dataUrl('image/gif', gif(9, 9)) } }])];
    const body = {
      model: 'gpt-4o',
      messages: [...earlier, { role: 'assistant', content: 'Seen.' }, user(content)],
      stream: true,
    };
    const openaiReply = await openai(body, 'attachments.chat');
    expect(openaiReply.status).toBe(200);
    expect(streamedChat(openaiReply.text)).toBe(expected);

    const azureReply = await azure(body, 'attachments.azure');
    expect(streamedChat(azureReply.text)).toBe(expected);

    // Groq: a vision model, and no file parts.
    const groqContent = content.filter((part) => part.type !== 'file');
    const groqReply = await groq(
      { ...chatBody(groqContent, 'meta-llama/llama-4-scout-17b-16e-instruct'), stream: true },
      'attachments.groq',
    );
    expect(groqReply.status).toBe(200);
    expect(streamedChat(groqReply.text)).toBe(expected.replace(/\n- pdf .*/, ''));
  });

  it('not streamed, the reply is the same text; a PDF without a filename is named by its type', async () => {
    const content = [
      { type: 'image_url', image_url: { url: dataUrl('image/jpeg', jpeg(3, 5, 0xc2)) } },
      { type: 'file', file: { file_data: dataUrl('application/pdf', report) } },
      { type: 'text', text: '  Summarise.  ' },
    ];
    const reply = await openai(chatBody(content), 'attachments.plain');
    const text = chatContent(reply);
    expect(text).toBe(
      `Received:\n- image image/jpeg 3×5\n- pdf application/pdf ${report.length} bytes\n- message: Summarise.`,
    );
  });

  it('Responses: input_text, input_image (a string URL) and input_file with its filename', async () => {
    const content = [
      { type: 'input_text', text: textWithFiles },
      { type: 'input_image', image_url: dataUrl('image/webp', webpVP8X(1920, 1080)), detail: 'original' },
      { type: 'input_file', filename: 'report.pdf', file_data: dataUrl('application/pdf', report) },
    ];
    const reply = await responses({ ...responsesBody(content), stream: true }, 'attachments.responses');
    expect(reply.status).toBe(200);
    expect(streamedResponses(reply.text)).toBe(
      [
        'Received:',
        '- text notes.md',
        '- text config.json',
        '- image image/webp 1920×1080',
        `- pdf report.pdf ${report.length} bytes`,
        `- message: ${question}`,
      ].join('\n'),
    );
  });

  it('Anthropic: image and document blocks, the PDF named by its title, a text document by its title', async () => {
    const content = [
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: b64(gif(320, 200)) } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: b64(report) },
        title: 'report.pdf',
      },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(report) } },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'hello' },
        title: 'hello.txt',
      },
      { type: 'text', text: textWithFiles },
    ];
    const reply = await claude({ ...claudeBody(content), stream: true }, 'attachments.claude');
    expect(reply.status).toBe(200);
    expect(streamedClaude(reply.text)).toBe(
      [
        'Received:',
        '- image image/gif 320×200',
        `- pdf report.pdf ${report.length} bytes`,
        `- pdf application/pdf ${report.length} bytes`,
        '- text hello.txt',
        '- text notes.md',
        '- text config.json',
        `- message: ${question}`,
      ].join('\n'),
    );
  });

  it('Gemini: inlineData parts (no file names on this wire), every WEBP header kind', async () => {
    const parts = [
      { text: textWithFiles },
      { inlineData: { mimeType: 'image/webp', data: b64(webpVP8L(100, 50)) } },
      { inlineData: { mimeType: 'image/webp', data: b64(webpVP8(33, 44)) } },
      { inline_data: { mime_type: 'image/png', data: b64(png(2, 1)) } },
      { inlineData: { mimeType: 'application/pdf', data: b64(report) } },
    ];
    const reply = await gemini(geminiBody(parts), 'attachments.gemini', 'streamGenerateContent');
    expect(reply.status).toBe(200);
    expect(streamedGemini(reply.text)).toBe(
      [
        'Received:',
        '- text notes.md',
        '- text config.json',
        '- image image/webp 100×50',
        '- image image/webp 33×44',
        '- image image/png 2×1',
        `- pdf application/pdf ${report.length} bytes`,
        `- message: ${question}`,
      ].join('\n'),
    );
  });

  it('a plain text message gives only the message line', async () => {
    const reply = await openai({ ...chatBody('Just text'), stream: true }, 'attachments.text');
    expect(streamedChat(reply.text)).toBe('Received:\n- message: Just text');
  });

  it('other scenarios echo only the text parts of a message with images', async () => {
    const content = [
      { type: 'text', text: 'Look' },
      { type: 'image_url', image_url: { url: dataUrl('image/png', png(2, 1)) } },
    ];
    const reply = await openai(chatBody(content), 'ok.echo');
    expect(chatContent(reply)).toBe('Echo: Look (1 message received)');
  });
});

// ---- Rejections ----

const openaiShape = (
  reply: Reply,
  status: number,
  message: string,
  param: string | null,
  code: string | null,
) => {
  expect(reply.status).toBe(status);
  expect(reply.json).toEqual({ error: { message, type: 'invalid_request_error', param, code } });
};
const imageExample = "(e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=')";
const unsupportedImage =
  "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

describe('OpenAI Chat Completions rejects', () => {
  const imagePart = (url: string) => ({ type: 'image_url', image_url: { url } });
  const at = 'messages[0].content[1]';
  const withImage = (url: string) => chatBody([{ type: 'text', text: 'Hi' }, imagePart(url)]);

  it('an unknown part type', async () => {
    const reply = await openai(
      chatBody([
        { type: 'text', text: 'Hi' },
        { type: 'input_image', image_url: 'x' },
      ]),
    );
    openaiShape(
      reply,
      400,
      "Invalid value: 'input_image'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.",
      `${at}.type`,
      'invalid_value',
    );
  });

  it.each([
    ['a value without the data: prefix', 'iVBORw0KGgo=', "a value without the 'data:' prefix"],
    [
      'a data URL of another type',
      dataUrl('application/pdf', pdf()),
      "unsupported MIME type 'application/pdf'",
    ],
    ['base64 that does not decode', 'data:image/png;base64,iVBOR*w0KGgo', 'an invalid base64-encoded value'],
    ['a data URL that is not base64', 'data:image/png,rawbytes', 'an invalid base64-encoded value'],
    ['empty base64', 'data:image/png;base64,', 'empty base64-encoded bytes'],
  ])('%s in image_url.url', async (_case, url, tail) => {
    const reply = await openai(withImage(url));
    openaiShape(
      reply,
      400,
      `Invalid image URL: '${at}.image_url.url'. Expected a base64-encoded data URL with an image MIME type ${imageExample}, but got ${tail}.`,
      `${at}.image_url.url`,
      'invalid_value',
    );
  });

  it.each([
    ['an unsupported image type', dataUrl('image/bmp', Buffer.from('BM\0\0\0\0'))],
    ['bytes of another image type', dataUrl('image/png', jpeg(2, 2))],
    ['bytes that are no image', dataUrl('image/gif', Buffer.from('not a gif at all'))],
  ])('%s', async (_case, url) => {
    openaiShape(await openai(withImage(url)), 400, unsupportedImage, null, 'invalid_image_format');
  });

  it('an image over 20 MB', async () => {
    const reply = await openai(withImage(dataUrl('image/png', padded(png(1, 1), 20 * 1024 * 1024 + 1))));
    openaiShape(
      reply,
      400,
      "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
      null,
      'invalid_image_format',
    );
  }, 30_000);

  it('more than 50 MB of images in a request (a body over 60 MB is read whole)', async () => {
    const image = dataUrl('image/png', padded(png(1, 1), 17 * 1024 * 1024));
    const body = chatBody([imagePart(image), imagePart(image), imagePart(image)]);
    expect(JSON.stringify(body).length).toBeGreaterThan(60 * 1024 * 1024);
    openaiShape(
      await openai(body),
      400,
      `Too much image data: the images in this request total ${3 * 17 * 1024 * 1024} bytes, more than the 52428800 bytes (50 MB) allowed per request.`,
      'messages',
      'invalid_value',
    );
  }, 60_000);

  it('an unknown detail', async () => {
    const reply = await openai(
      chatBody([{ type: 'image_url', image_url: { url: dataUrl('image/png', png(1, 1)), detail: 'ultra' } }]),
    );
    openaiShape(
      reply,
      400,
      "Invalid value: 'ultra'. Supported values are: 'auto', 'low', and 'high'.",
      'messages[0].content[0].image_url.detail',
      'invalid_value',
    );
  });

  it('image_url given as a string', async () => {
    const reply = await openai(chatBody([{ type: 'image_url', image_url: dataUrl('image/png', png(1, 1)) }]));
    openaiShape(
      reply,
      400,
      "Invalid type for 'messages[0].content[0].image_url': expected an object, but got string instead.",
      'messages[0].content[0].image_url',
      'invalid_type',
    );
  });

  it('an image in a system or assistant message, but takes their text parts', async () => {
    const image = imagePart(dataUrl('image/png', png(1, 1)));
    const system = await openai({
      model: 'gpt-4o',
      messages: [{ role: 'system', content: [image] }, user('Hi')],
    });
    openaiShape(
      system,
      400,
      "Invalid 'messages[0]'. Image URLs are only allowed for messages with role 'user', but this message with role 'system' contains an image URL.",
      'messages[0]',
      'invalid_value',
    );
    const texts = await openai({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        user('Hi'),
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
        user([image, { type: 'text', text: 'And this?' }]),
      ],
    });
    expect(texts.status).toBe(200);
  });

  it.each([
    [
      'a non-PDF file',
      dataUrl('text/markdown', Buffer.from('# Hi')),
      "unsupported MIME type 'text/markdown'",
    ],
    ['a PDF that is not one', dataUrl('application/pdf', Buffer.from('hello')), 'data that is not a PDF'],
    ['file data that does not decode', 'data:application/pdf;base64,%%%', 'an invalid base64-encoded value'],
  ])('%s in a file part', async (_case, fileData, tail) => {
    const reply = await openai(
      chatBody([{ type: 'file', file: { filename: 'a.pdf', file_data: fileData } }]),
    );
    openaiShape(
      reply,
      400,
      `Invalid file data: 'messages[0].content[0].file.file_data'. Expected a base64-encoded data URL with an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got ${tail}.`,
      'messages[0].content[0].file.file_data',
      'invalid_value',
    );
  });

  it('Azure rejects the same way, in the same shape', async () => {
    const reply = await azure(withImage(dataUrl('image/webp', png(1, 1))));
    openaiShape(reply, 400, unsupportedImage, null, 'invalid_image_format');
  });

  it('takes http(s) image URLs and file ids as they come', async () => {
    const reply = await openai(
      chatBody([
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        { type: 'file', file: { file_id: 'file-abc123' } },
      ]),
      'attachments.refs',
    );
    expect(chatContent(reply)).toBe(
      'Received:\n- image https://example.com/cat.png\n- file file-abc123\n- message: ',
    );
  });
});

describe('Groq rejects', () => {
  const vision = 'meta-llama/llama-4-scout-17b-16e-instruct';
  const image = { type: 'image_url', image_url: { url: dataUrl('image/png', png(2, 1)) } };

  it('an image sent to a model without vision, naming the content as its param', async () => {
    const reply = await groq({ model: 'llama-3.3-70b-versatile', messages: [user('Hi'), user([image])] });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      error: {
        message: 'messages[1].content must be a string',
        type: 'invalid_request_error',
        param: 'messages[1].content',
      },
    });
  });

  it('a file part, even on a vision model', async () => {
    const file = { type: 'file', file: { filename: 'a.pdf', file_data: dataUrl('application/pdf', pdf()) } };
    const reply = await groq(chatBody([{ type: 'text', text: 'Hi' }, file], vision));
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      error: {
        message:
          "'messages.0' : for 'role:user' the following must be satisfied[('messages.0.content.1.type' : value is not one of the allowed values ['text', 'image_url'])]",
        type: 'invalid_request_error',
      },
    });
  });

  it.each([
    ['base64 that does not decode', 'data:image/png;base64,@@@@'],
    ['bytes that are not the declared type', dataUrl('image/jpeg', png(1, 1))],
    ['an unsupported type', dataUrl('image/tiff', Buffer.from('II*\0'))],
  ])('%s on a vision model, in its own shape', async (_case, url) => {
    const reply = await groq(chatBody([{ type: 'image_url', image_url: { url } }], vision));
    expect(reply.status).toBe(400);
    expect(Object.keys(errorOf(reply))).toEqual(['message', 'type']);
    expect(errorOf(reply).message).toContain('messages[0].content[0].image_url.url');
  });

  it('takes an image on a vision model', async () => {
    expect((await groq(chatBody([image], vision))).status).toBe(200);
  });
});

describe('OpenAI Responses rejects', () => {
  const at = 'input[0].content[0]';

  it('an input_image of another MIME type, in the Responses wording', async () => {
    const reply = await responses(
      responsesBody([{ type: 'input_image', image_url: dataUrl('application/pdf', pdf()) }]),
    );
    openaiShape(
      reply,
      400,
      `Invalid '${at}.image_url'. Expected a base64-encoded data URL with an image MIME type ${imageExample}, but got unsupported MIME type 'application/pdf'.`,
      `${at}.image_url`,
      'invalid_value',
    );
  });

  it('image_url given as an object, the Chat Completions way', async () => {
    const reply = await responses(
      responsesBody([{ type: 'input_image', image_url: { url: dataUrl('image/png', png(1, 1)) } }]),
    );
    openaiShape(
      reply,
      400,
      `Invalid type for '${at}.image_url': expected a string, but got object instead.`,
      `${at}.image_url`,
      'invalid_type',
    );
  });

  it('an input_image whose bytes are not the declared type', async () => {
    const reply = await responses(
      responsesBody([{ type: 'input_image', image_url: dataUrl('image/webp', gif(1, 1)) }]),
    );
    openaiShape(reply, 400, unsupportedImage, null, 'invalid_image_format');
  });

  it.each([
    ['file data that does not decode', 'data:application/pdf;base64,a', 'an invalid base64-encoded value'],
    ['an image as a file', dataUrl('image/png', png(1, 1)), "unsupported MIME type 'image/png'"],
    ['a PDF that is not one', dataUrl('application/pdf', Buffer.from('plain')), 'data that is not a PDF'],
  ])('%s in input_file', async (_case, fileData, tail) => {
    const reply = await responses(
      responsesBody([{ type: 'input_file', filename: 'a.pdf', file_data: fileData }]),
    );
    openaiShape(
      reply,
      400,
      `Invalid file data: '${at}.file_data'. Expected a base64-encoded data URL with a valid file MIME type (e.g. 'data:text/plain;base64,SGVsbG8sIFdvcmxkIQ=='), but got ${tail}. Please see https://platform.openai.com/docs/assistants/tools/file-search#supported-files for supported file types.`,
      `${at}.file_data`,
      'invalid_value',
    );
  });

  it('takes a text file as input_file', async () => {
    const part = {
      type: 'input_file',
      filename: 'notes.txt',
      file_data: dataUrl('text/plain', Buffer.from('hi')),
    };
    const reply = await responses(responsesBody([part]), 'attachments.txt');
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('- file notes.txt 2 bytes');
  });
});

describe('Anthropic rejects', () => {
  const imageBlock = (mediaType: string, data: string) => ({
    type: 'image',
    source: { type: 'base64', media_type: mediaType, data },
  });
  const anthropicShape = (reply: Reply, message: string) => {
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message },
      request_id: expect.stringMatching(/^req_/) as unknown,
    });
  };

  it('a base64 image over 5 MB, with the exact message', async () => {
    const data = b64(padded(png(1, 1), 4 * 1024 * 1024));
    const reply = await claude(claudeBody([{ type: 'text', text: 'Hi' }, imageBlock('image/png', data)]));
    anthropicShape(
      reply,
      `messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > 5242880 bytes`,
    );
  }, 30_000);

  it.each([
    [
      'an unsupported media type',
      imageBlock('image/bmp', b64(Buffer.from('BM'))),
      "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    ],
    [
      'empty data',
      imageBlock('image/png', ''),
      'messages.0.content.0.image.source.base64: image cannot be empty',
    ],
    [
      'base64 that does not decode',
      imageBlock('image/png', `data:image/png;base64,${b64(png(1, 1))}`),
      'messages.0.content.0.image.source.base64: invalid base64 data',
    ],
    [
      'bytes of another image type',
      imageBlock('image/png', b64(jpeg(4, 4))),
      'messages.0.content.0.image.source.base64: The image was specified using the image/png media type, but the image appears to be a image/jpeg image',
    ],
    [
      'bytes that are no image',
      imageBlock('image/png', b64(Buffer.from('hello world!'))),
      'messages.0.content.0.image.source.base64.data: Image does not match the provided media type image/png',
    ],
    [
      'an image over 8000 pixels',
      imageBlock('image/png', b64(png(8001, 1))),
      'messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels',
    ],
    [
      'a PDF that is not one',
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: b64(Buffer.from('hello')) },
      },
      'messages.0.content.0.pdf.source.base64.data: The PDF specified was not valid.',
    ],
    [
      'a document of another media type',
      {
        type: 'document',
        source: { type: 'base64', media_type: 'text/plain', data: b64(Buffer.from('hi')) },
      },
      "messages.0.content.0.document.source.base64.media_type: Input should be 'application/pdf'",
    ],
    [
      'more than 100 PDF pages',
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(pdf(101)) } },
      'A maximum of 100 PDF pages may be provided.',
    ],
  ])('%s', async (_case, block, message) => {
    anthropicShape(await claude(claudeBody([block, { type: 'text', text: 'Hi' }])), message);
  });

  it('more than 20 images larger than 2000 pixels', async () => {
    const small = imageBlock('image/png', b64(png(10, 10)));
    const large = imageBlock('image/png', b64(png(2001, 1)));
    const reply = await claude(claudeBody([...Array.from({ length: 20 }, () => small), large]));
    anthropicShape(
      reply,
      'messages.0.content.20.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    );
  });

  it('a body over 32 MB with a 413 request_too_large', async () => {
    const reply = await claude(claudeBody('x'.repeat(32 * 1024 * 1024)));
    expect(reply.status).toBe(413);
    expect(reply.json).toEqual({
      error: { type: 'request_too_large', message: 'Request exceeds the maximum size' },
    });
  }, 30_000);
});

describe('Gemini rejects', () => {
  const googleShape = (reply: Reply, message: string) => {
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({ code: 400, message, status: 'INVALID_ARGUMENT' });
  };

  it('a data: prefix on inlineData, as Base64 decoding failed', async () => {
    const parts = [
      { text: 'Hi' },
      { inlineData: { mimeType: 'image/png', data: dataUrl('image/png', png(1, 1)) } },
    ];
    const reply = await gemini(geminiBody(parts));
    const message =
      'Invalid value at \'contents[0].parts[1].inline_data.data\' (TYPE_BYTES), Base64 decoding failed for "data:image/png;base64"';
    googleShape(reply, message);
    expect(errorOf(reply).details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'contents[0].parts[1].inline_data.data', description: message }],
      },
    ]);
  });

  it.each([
    [
      'image bytes of another type',
      { mimeType: 'image/jpeg', data: b64(png(1, 1)) },
      'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    ],
    [
      'a PDF that is not one',
      { mimeType: 'application/pdf', data: b64(Buffer.from('hello')) },
      'The document has no pages.',
    ],
    [
      'an unsupported MIME type',
      { mimeType: 'image/bmp', data: b64(Buffer.from('BM')) },
      'Unsupported MIME type: image/bmp',
    ],
  ])('%s', async (_case, inlineData, message) => {
    googleShape(await gemini(geminiBody([{ inlineData }])), message);
  });

  it('takes URL-safe, unpadded base64 (proto JSON bytes)', async () => {
    const data = b64(png(3, 2)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const reply = await gemini(
      geminiBody([{ inlineData: { mimeType: 'image/png', data } }]),
      'attachments.safe',
    );
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('- image image/png 3×2');
  });

  it('a body over 50 MB', async () => {
    const data = b64(padded(png(1, 1), 38 * 1024 * 1024));
    googleShape(
      await gemini(geminiBody([{ inlineData: { mimeType: 'image/png', data } }])),
      'Request payload size exceeds the limit: 52428800 bytes.',
    );
  }, 30_000);
});
