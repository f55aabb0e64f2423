import { describe, expect, it } from 'vitest';
import { citationNumber, withCitationMarkers } from './citation-markers.ts';
import type { WebResearch } from './web-search.ts';

const research = (citations: WebResearch['citations']): WebResearch => ({
  searches: [{ query: 'tallest mountain' }],
  sources: [{ url: 'https://a.example/everest', title: 'Everest' }, { url: 'https://b.example/k2' }],
  citations,
});

describe('citation markers', () => {
  it('puts each source after its span, numbered from 1, once per place', () => {
    const text = 'Everest is the tallest. K2 is second.';
    expect(
      withCitationMarkers(
        text,
        research([
          { at: 23, source: 0 },
          { at: 23, source: 0 },
          { at: 37, source: 1 },
          { at: 37, source: 0 },
        ]),
      ),
    ).toBe('Everest is the tallest.[1](#cite-1) K2 is second.[1](#cite-1)[2](#cite-2)');
  });

  it('never splits a word, and leaves a code block whole', () => {
    expect(withCitationMarkers('Everest is tall.', research([{ at: 3, source: 0 }]))).toBe(
      'Everest[1](#cite-1) is tall.',
    );
    const code = 'Run:\n```sh\nls -la\n```\nDone.';
    expect(withCitationMarkers(code, research([{ at: 14, source: 1 }]))).toBe(
      'Run:\n```sh\nls -la\n```\n[2](#cite-2)Done.',
    );
    expect(withCitationMarkers('```\ncode\n```', research([{ at: 6, source: 0 }]))).toBe(
      '```\ncode\n```\n[1](#cite-1)',
    );
  });

  it('on hostile text, moves a marker no further than a real word, and finds code blocks among thousands', () => {
    const word = 'x'.repeat(200_000);
    const blocks = '```\nc\n```\n'.repeat(20_000);
    const text = `${word}\n${blocks}end`;
    // Inside the 10,001st block (each is 10 characters), on the line of its code.
    const inBlock = word.length + 1 + 10 * 10_000 + 5;
    const marked = withCitationMarkers(
      text,
      research([
        ...Array.from({ length: 1000 }, (_, index) => ({ at: index + 1, source: 0 })),
        { at: inBlock, source: 1 },
      ]),
    );
    // Inside a 'word' of 200,000 letters each marker stays where it was cited.
    expect(marked.startsWith('x[1](#cite-1)x[1](#cite-1)')).toBe(true);
    // The one in a code block goes after that block, at the start of the next line.
    expect(marked).toContain('c\n```\n[2](#cite-2)```\nc\n');
  });

  it('ignores citations of sources that do not exist and keeps offsets within the text', () => {
    expect(
      withCitationMarkers(
        'Short.',
        research([
          { at: 99, source: 0 },
          { at: 2, source: 7 },
        ]),
      ),
    ).toBe('Short.[1](#cite-1)');
    expect(withCitationMarkers('No research.', undefined)).toBe('No research.');
  });

  it('reads a marker address back', () => {
    expect(citationNumber('#cite-12')).toBe(12);
    expect(citationNumber('https://example.com/#cite-1')).toBeNull();
    expect(citationNumber(undefined)).toBeNull();
  });
});
