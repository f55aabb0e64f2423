import { describe, expect, it } from 'vitest';
import { addSource, keptSource, sourceCaption, type WebResearch } from './web-search.ts';

describe('web sources', () => {
  it('keeps only http(s) addresses, within bounds', () => {
    expect(keptSource({ url: 'javascript:alert(1)' })).toBeNull();
    expect(keptSource({ url: 'data:text/html,<b>x</b>' })).toBeNull();
    expect(keptSource({ url: 'not a url' })).toBeNull();
    expect(keptSource({ url: `https://a.example/${'x'.repeat(3000)}` })).toBeNull();
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
