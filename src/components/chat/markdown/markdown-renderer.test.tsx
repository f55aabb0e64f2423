import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import MarkdownRenderer, { MarkdownBlock, prepareMarkdown } from './markdown-renderer.tsx';

// Replies shaped like real ones: splitting them into blocks must not change what is shown.
const samples = [
  '# Title\n\nIntro paragraph with `code` and **bold**.\n\n- one\n- two\n\n  still two\n\n1. first\n2. second',
  'Here is the code:\n```python\ndef f(x):\n\n    return x\n```\nAnd after it, text.\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  '> quoted\n```js\nconst a = 1;\n```\n- item\n```\nplain fence\n```\n~~~~rust\nfn main() {}\n~~~~',
  '- step one\n  ```sh\n  make build\n  ```\n- step two\n\n<div>\n```\nnot a fence here\n```\n</div>\n\nEnd.',
  '````md\n```js\nnested\n```\n````\n\nText\n\n```ts\nunclosed at the end',
  'Run this:\n```npm install``` then restart.\nPara\n<div>\n```\nx\n```\n</div>\n\n```\ncode\n```\u00a0\nmore\n```',
];

const whole = (text: string) =>
  renderToStaticMarkup(
    <div className="markdown">
      <MarkdownBlock text={text} growing />
    </div>,
  );
// Rendered whole, the parser keeps the line breaks between blocks: whitespace the page ignores.
const withoutBreaksBetweenBlocks = (html: string) =>
  html.replace(/(<\/?(?:p|div|ul|ol|li|table|thead|tbody|tr|blockquote|h[1-6])>|<hr\/>)\n+/g, '$1');

describe('MarkdownRenderer', () => {
  it.each(samples)('renders a reply prepared ahead (parsed blocks kept) as it renders fresh: %#', (text) => {
    const fresh = renderToStaticMarkup(<MarkdownRenderer text={`${text}\n\nfresh`} />);
    prepareMarkdown([`${text}\n\nprepared`]);
    const prepared = renderToStaticMarkup(<MarkdownRenderer text={`${text}\n\nprepared`} />);
    // Twice: the second rendering mounts the kept elements again.
    expect(renderToStaticMarkup(<MarkdownRenderer text={`${text}\n\nprepared`} />)).toBe(prepared);
    expect(prepared.replace('prepared', 'fresh')).toBe(fresh);
  });

  it.each(samples)('renders a reply split into blocks as it renders whole: %#', (text) => {
    const split = renderToStaticMarkup(<MarkdownRenderer text={text} />);
    expect(withoutBreaksBetweenBlocks(split)).toBe(withoutBreaksBetweenBlocks(whole(text)));
  });

  it('shows a streaming reply whose last block is an open fence with the same text and structure', () => {
    const withoutSpans = (html: string) => html.replace(/<\/?span[^>]*>/g, '');
    for (const text of ['Intro\n\n```python\nx = 1\n\n  y = [1, 2]\nprint(', 'A\n```\n<b>not html</b>']) {
      const live = renderToStaticMarkup(<MarkdownRenderer text={text} live />);
      expect(live).toContain('class="markdown markdown-skip-offscreen"');
      expect(withoutSpans(live.replace(' markdown-skip-offscreen', ''))).toBe(
        withoutSpans(renderToStaticMarkup(<MarkdownRenderer text={text} />)),
      );
      expect(live).not.toContain('<b>');
    }
  });
});
