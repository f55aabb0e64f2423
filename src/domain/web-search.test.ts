import { describe, expect, it } from 'vitest';
import { addSource, keptSource, readWebResearch, sourceCaption, type WebResearch } from './web-search.ts';

describe('research read back', () => {
  it('drops a source alone: the citations of the others still point at them', () => {
    const read = readWebResearch(
      {
        searches: [],
        sources: [{ url: 'https://a.example/' }, { url: 'javascript:x' }, { url: 'https://c.example/' }],
        citations: [
          { at: 1, source: 0 },
          { at: 2, source: 1 },
          { at: 3, source: 2 },
        ],
      },
      10,
    );
    expect(read?.sources.map((source) => source.url)).toEqual(['https://a.example/', 'https://c.example/']);
    expect(read?.citations).toEqual([
      { at: 1, source: 0 },
      { at: 3, source: 1 },
    ]);
  });
});

describe('web sources', () => {
  it('keeps only http(s) addresses, within bounds', () => {
    expect(keptSource({ url: 'javascript:alert(1)' })).toBeNull();
    expect(keptSource({ url: 'data:text/html,<b>x</b>' })).toBeNull();
    expect(keptSource({ url: 'not a url' })).toBeNull();
    expect(keptSource({ url: `https://a.example/${'x'.repeat(3000)}` })).toBeNull();
    // Short as written, long once escaped.
    expect(keptSource({ url: `https://ja.example/wiki/${'東京'.repeat(150)}` })).toBeNull();
    expect(keptSource({ url: 'https://a.example/p', title: '  Page  ' })).toEqual({
      url: 'https://a.example/p',
      title: 'Page',
    });
  });

  it('adds each page once, a title found later filling one missing', () => {
    const empty: WebResearch = { searches: [], sources: [], citations: [] };
    const first = addSource(empty, { url: 'https://a.example/p' });
    expect(first.index).toBe(0);
    const again = addSource(first.research, { url: 'https://a.example/p', title: 'Page' });
    expect(again).toEqual({
      research: { ...empty, sources: [{ url: 'https://a.example/p', title: 'Page' }] },
      index: 0,
    });
    expect(addSource(again.research, { url: 'ftp://x' }).index).toBeUndefined();
  });

  it('names a source by its title, with its host only where that says more', () => {
    expect(sourceCaption({ url: 'https://www.example.com/a', title: 'A page' })).toEqual({
      name: 'A page',
      host: 'example.com',
    });
    // Gemini: the title is the domain, the address Google's redirect.
    expect(
      sourceCaption({
        url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/x',
        title: 'example.org',
      }),
    ).toEqual({ name: 'example.org' });
    expect(sourceCaption({ url: 'https://example.net/x' })).toEqual({ name: 'example.net' });
  });
});
