import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { markdownReply } from './markdown.mjs';
import { namedEvents, openaiHeaders, rawRequests, type SseEvent } from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 0 });
const raw = rawRequests(() => mock().url);

const question = [{ role: 'user', content: 'Write the benchmark reply.' }];
/** The tools the app offers with 'Search the web' and 'Create images' on. */
const researching = {
  tools: [{ type: 'web_search' }, { type: 'image_generation', partial_images: 2 }],
  include: ['web_search_call.action.sources'],
};
const longText = markdownReply(6000);
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface UrlCitation {
  type: string;
  start_index: number;
  end_index: number;
  title: string;
  url: string;
}

const responses = (key: string, body: Record<string, unknown>) =>
  raw('POST', '/v1/responses', openaiHeaders(key), {
    model: 'gpt-4o-mini',
    input: question,
    stream: true,
    ...body,
  });
const itemsDone = (events: SseEvent[]) =>
  events
    .filter((event) => event.name === 'response.output_item.done')
    .map((event) => event.data.item as Record<string, unknown>);
const streamedText = (events: SseEvent[]) =>
  events
    .filter((event) => event.name === 'response.output_text.delta')
    .map((event) => String(event.data.delta))
    .join('');

/** A PNG's width, height and pixel bytes (8-bit RGB, filter 0 rows as tools/png.mjs writes). */
function pngOf(base64: string) {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.subarray(0, 8)).toEqual(pngSignature);
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT')
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return { bytes, width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

describe('long-researched on the Responses API, with web search and image generation offered', () => {
  it('streams one search, the long text in two messages with the picture drawn between them, 30 citations of 30 pages', async () => {
    const response = await responses('long-researched.t1', researching);
    expect(response.status).toBe(200);
    const events = namedEvents(response.text);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.every((event) => event.data.type === event.name)).toBe(true);
    expect(events.at(-1)?.name).toBe('response.completed');

    const items = itemsDone(events);
    expect(items.map((item) => item.type)).toEqual([
      'reasoning',
      'web_search_call',
      'message',
      'image_generation_call',
      'message',
    ]);

    // The text: the `long` scenario's, unchanged, and the same pieces.
    const text = streamedText(events);
    expect(text).toBe(longText);
    const plain = namedEvents((await responses('long.t1', {})).text);
    expect(text).toBe(streamedText(plain));
    expect(events.filter((event) => event.name === 'response.output_text.delta')).toHaveLength(
      plain.filter((event) => event.name === 'response.output_text.delta').length,
    );

    // The citations: each added after the delta completing its span, indexes in its own part.
    const parts = new Map<string, { start: number; text: string }>();
    const cited: (UrlCitation & { at: number; span: string })[] = [];
    const perPart = new Map<string, number>();
    let streamed = 0;
    for (const event of events) {
      const key = String(event.data.item_id);
      if (event.name === 'response.output_text.delta') {
        const part = parts.get(key) ?? { start: streamed, text: '' };
        parts.set(key, part);
        part.text += String(event.data.delta);
        streamed += String(event.data.delta).length;
      }
      if (event.name !== 'response.output_text.annotation.added') continue;
      const part = parts.get(key);
      const annotation = event.data.annotation as UrlCitation;
      expect(part).toBeDefined();
      expect(annotation.end_index).toBeLessThanOrEqual(part?.text.length ?? 0);
      const index = perPart.get(key) ?? 0;
      expect(event.data.annotation_index).toBe(index);
      perPart.set(key, index + 1);
      cited.push({
        ...annotation,
        at: (part?.start ?? 0) + annotation.end_index,
        span: part?.text.slice(annotation.start_index, annotation.end_index) ?? '',
      });
    }
    expect(cited).toHaveLength(30);
    expect(cited.every((each) => each.type === 'url_citation')).toBe(true);
    expect(new Set(cited.map((each) => each.url)).size).toBe(30);
    expect(new Set(cited.map((each) => each.title)).size).toBe(30);
    for (const each of cited) {
      expect(each.url).toMatch(/^https:\/\/[a-z.]+\/\S+\?utm_source=openai$/);
      expect(each.span.trim()).toBe(each.span);
      expect(each.span.length).toBeGreaterThan(10);
      // Prose of the text, not a code line, nor the final sentence the bench waits for.
      expect(longText.slice(each.at - each.span.length, each.at)).toBe(each.span);
      expect(each.span).not.toContain('That is all.');
    }
    // Spread through the text: in order, every fifth of it holds at least four.
    const ats = cited.map((each) => each.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    for (let fifth = 0; fifth < 5; fifth++) {
      const from = (fifth * longText.length) / 5;
      const to = ((fifth + 1) * longText.length) / 5;
      expect(ats.filter((at) => at > from && at <= to).length).toBeGreaterThanOrEqual(4);
    }

    // The search: one call, its sources the 30 cited pages.
    const search = items[1] as { action: { type: string; query: string; sources: { url: string }[] } };
    expect(search.action).toMatchObject({ type: 'search', query: expect.any(String) });
    expect(search.action.sources.map((source) => `${source.url}?utm_source=openai`)).toEqual(
      cited.map((each) => each.url),
    );

    // The picture: two previews, then the whole ~2 MB PNG, after the first third of the text.
    const image = items[3] as Record<string, unknown>;
    const imageId = image.id;
    const own = events.filter(
      (event) =>
        event.data.item_id === imageId || (event.data.item as { id?: string } | undefined)?.id === imageId,
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
    const previews = own.filter((event) => event.name === 'response.image_generation_call.partial_image');
    expect(previews.map((event) => event.data.partial_image_index)).toEqual([0, 1]);
    for (const preview of previews) {
      expect(preview.data).toMatchObject({ size: '1024x1024', output_format: 'png' });
      expect(pngOf(String(preview.data.partial_image_b64)).width).toBeGreaterThan(0);
    }
    expect(image).toMatchObject({
      type: 'image_generation_call',
      status: 'completed',
      output_format: 'png',
      size: '1024x1024',
    });
    const png = pngOf(String(image.result));
    expect(png.bytes.length).toBeGreaterThanOrEqual(1_900_000);
    expect(png.bytes.length).toBeLessThan(2_600_000);
    expect([png.width, png.height]).toEqual([1024, 1024]);
    expect(png.pixels.length).toBe(1024 * (1 + 1024 * 3));
    const before = streamedText(events.slice(0, events.indexOf(own[0] as SseEvent)));
    expect(before.length / longText.length).toBeGreaterThan(0.25);
    expect(before.length / longText.length).toBeLessThan(0.42);

    // The completed response: the same items, each message with its own annotations.
    const completed = events.at(-1)?.data.response as {
      output: { type: string; content?: { text: string; annotations: UrlCitation[] }[] }[];
    };
    expect(completed.output.map((item) => item.type)).toEqual(items.map((item) => item.type));
    const messages = completed.output.filter((item) => item.type === 'message');
    expect(messages.map((message) => message.content?.[0]?.text).join('')).toBe(longText);
    expect(messages.flatMap((message) => message.content?.[0]?.annotations ?? [])).toEqual(
      cited.map(({ type, start_index, end_index, title, url }) => ({
        type,
        end_index,
        start_index,
        title,
        url,
      })),
    );
  });

  it('not streamed: the same output items', async () => {
    const response = await responses('long-researched.t2', { ...researching, stream: false });
    const body = response.json as { output: { type: string; result?: string }[] };
    expect(body.output.map((item) => item.type)).toEqual([
      'reasoning',
      'web_search_call',
      'message',
      'image_generation_call',
      'message',
    ]);
    expect(Buffer.from(body.output[3]?.result ?? '', 'base64').length).toBeGreaterThanOrEqual(1_900_000);
  });

  it('without both tools, as long: no search, no picture', async () => {
    for (const body of [{}, { tools: [{ type: 'web_search' }] }, { tools: [{ type: 'image_generation' }] }]) {
      const response = await responses('long-researched.t3', body);
      expect(response.text).not.toMatch(/web_search_call|image_generation_call|url_citation/);
      expect(streamedText(namedEvents(response.text))).toBe(longText);
    }
  });
});
