import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import {
  maxBlocks,
  maxImageBytes,
  maxResultImageBytes,
  maxResultText,
  offeredTools,
  sanitizeToolName,
  toolOutcome,
} from './results.ts';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

describe('offeredTools', () => {
  it('makes names valid and unique within the server, and maps them back', () => {
    const { tools, names } = offeredTools('srv', [
      tool('get.weather'),
      tool('get_weather'),
      tool('get weather'),
      tool('日本'),
      tool('x'.repeat(80)),
      tool('x'.repeat(70)),
    ]);
    const offered = tools.map((item) => item.definition.name);
    // A name already valid keeps it, whatever comes first.
    expect(offered).toEqual([
      'get_weather_2',
      'get_weather',
      'get_weather_3',
      '__',
      'x'.repeat(64),
      `${'x'.repeat(62)}_2`,
    ]);
    for (const name of offered) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names.get('get_weather_2')).toBe('get.weather');
    expect(names.get('get_weather')).toBe('get_weather');
    expect(names.get('__')).toBe('日本');
    expect(names.get(`${'x'.repeat(62)}_2`)).toBe('x'.repeat(70));
    expect(sanitizeToolName('')).toBe('tool');
  });

  it('keeps hints as hints: destructive only when explicitly true', () => {
    const { tools } = offeredTools('srv', [
      tool('a', { annotations: { destructiveHint: false, readOnlyHint: true, title: 'A' } }),
      tool('b', { title: 'Bee', annotations: { title: 'ignored', destructiveHint: true } }),
      tool('c'),
    ]);
    expect(tools.map((item) => item.hints)).toEqual([
      { title: 'A', readOnly: true },
      { title: 'Bee', destructive: true },
      {},
    ]);
  });

  it('gives every tool an object schema, and leaves out one it cannot read', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { tools } = offeredTools('srv', [
      tool('a', { inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
      tool('b', { inputSchema: undefined as unknown as Tool['inputSchema'] }),
      tool('c', {
        inputSchema: { type: 'object', properties: { big: { description: 'x'.repeat(70_000) } } },
      }),
    ]);
    expect(tools.map((item) => item.definition.parameters)).toEqual([
      { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      { type: 'object', properties: {} },
    ]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('bounds descriptions and the number of tools', () => {
    const many = Array.from({ length: 200 }, (_, i) => tool(`t${i}`, { description: 'd'.repeat(10_000) }));
    const { tools } = offeredTools('srv', many);
    expect(tools).toHaveLength(128);
    expect(tools[0]?.definition.description.length).toBeLessThanOrEqual(4001);
  });
});

describe('toolOutcome', () => {
  it('maps each kind of content', async () => {
    const outcome = toolOutcome({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'image', data: png, mimeType: 'image/svg+xml' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        { type: 'image', data: btoa('<svg onload=alert(1)>'), mimeType: 'image/png' },
        { type: 'image', data: png, mimeType: 'image/jpeg' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', description: 'A file' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inside b' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA', mimeType: 'application/zip' } },
      ],
    });
    const texts = outcome.content.map((piece) => (piece.type === 'text' ? piece.text : piece.mimeType));
    const blobs = outcome.content.flatMap((piece) => (piece.type === 'image' ? [piece.blob.type] : []));
    expect(blobs).toEqual(['image/png', 'image/png']);
    expect(texts).toEqual([
      'hello',
      'image/png',
      '[An image of type image/svg+xml was omitted: only PNG, JPEG, GIF and WebP are shown.]',
      '[An image whose data is not valid base64 was omitted.]',
      '[An image said to be image/png was omitted: its data is not a PNG, JPEG, GIF or WebP image.]',
      // Said JPEG, is PNG: shown as what it is.
      'image/png',
      '[The tool returned audio (audio/wav), which is not shown.]',
      '[Resource link: a.txt <file:///a.txt>]\nA file',
      '[Resource file:///b.txt]\ninside b',
      '[The tool returned the resource file:///c.bin (application/zip) as binary data, which is not shown.]',
    ]);
    expect(outcome.isError).toBeUndefined();
  });

  it('leaves out an image over the limit without decoding it', () => {
    const huge = 'A'.repeat(Math.ceil((maxImageBytes * 4) / 3) + 100);
    const [piece] = toolOutcome({ content: [{ type: 'image', data: huge, mimeType: 'image/png' }] }).content;
    expect(piece).toEqual({
      type: 'text',
      text: '[An image of about 10 MB was omitted: the limit is 10 MB.]',
    });
  });

  it('leaves out the images past the budget of one result', () => {
    const bytes = new Uint8Array(9 * 1024 * 1024);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const data = Buffer.from(bytes).toString('base64');
    const image = { type: 'image', data, mimeType: 'image/png' };
    const pieces = toolOutcome({ content: [image, image, image] }).content;
    expect(pieces.map((piece) => (piece.type === 'text' ? piece.text : piece.type))).toEqual([
      'image',
      'image',
      `[An image was omitted: the images of one result are limited to ${maxResultImageBytes / 1024 / 1024} MB together.]`,
    ]);
  });

  it('shows structured content as JSON when there is no content, and passes isError', () => {
    expect(toolOutcome({ content: [], structuredContent: { sum: 5 }, isError: true })).toEqual({
      content: [{ type: 'text', text: '{\n  "sum": 5\n}' }],
      isError: true,
    });
    expect(toolOutcome({ content: [] })).toEqual({
      content: [{ type: 'text', text: '(The tool returned nothing.)' }],
    });
  });

  it('bounds the text and the number of pieces', () => {
    const many = Array.from({ length: 100 }, () => ({ type: 'text' as const, text: 'x'.repeat(10_000) }));
    const { content } = toolOutcome({ content: many });
    const total = content.reduce((sum, piece) => sum + (piece.type === 'text' ? piece.text.length : 0), 0);
    expect(total).toBeLessThan(maxResultText + 200);
    expect(content.length).toBeLessThanOrEqual(maxBlocks + 2);
    expect(content.at(-2)).toEqual({
      type: 'text',
      text: `[The result was cut at ${maxResultText} characters.]`,
    });
    expect(content.at(-1)).toEqual({ type: 'text', text: '[68 more pieces of the result were omitted.]' });
  });

  it('survives content that is not what the schema says', () => {
    const { content } = toolOutcome({ content: [null, 42, { type: 'video' }] } as never);
    expect(content.map((piece) => piece.type === 'text' && piece.text)).toEqual([
      '[A piece of the result that is not an object was omitted.]',
      '[A piece of the result that is not an object was omitted.]',
      '[A piece of the result of type video was omitted.]',
    ]);
  });
});
