import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyFilesContext } from '../reply-files-context.ts';
import { markdownBudget } from './markdown-budget.ts';
import MarkdownRenderer, { MarkdownBlock, prepareMarkdown, safeUrl } from './markdown-renderer.tsx';

// These compare renderings: every block is parsed on the page, whatever the machine's speed.
const pageBudget = markdownBudget.pageParseMsPerTask;
beforeAll(() => {
  markdownBudget.pageParseMsPerTask = Infinity;
});
afterAll(() => {
  markdownBudget.pageParseMsPerTask = pageBudget;
});

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

describe("a sandbox: link (a file the reply's code wrote)", () => {
  const text = 'Saved: [the table](sandbox:/mnt/data/squares.csv) and [raw](<sandbox:/x.csv>).';
  it("downloads the reply's file of that name, and never becomes an href", () => {
    const files = new Map([
      ['squares.csv', { id: 'f1', name: 'squares.csv', mimeType: 'text/csv', size: 6 }],
    ]);
    const html = renderToStaticMarkup(
      <ReplyFilesContext.Provider value={files}>
        <MarkdownRenderer text={text} />
      </ReplyFilesContext.Provider>,
    );
    expect(html).toContain('<button type="button" title="Download squares.csv"');
    expect(html).toContain('>the table</button>');
    // No file of that name: its text alone.
    expect(html).toContain('<span>raw</span>');
    expect(html).not.toContain('sandbox:');
  });

  it('is text alone outside a reply that made files', () => {
    const html = renderToStaticMarkup(<MarkdownRenderer text={text} />);
    expect(html).toContain('<span>the table</span>');
    expect(html).not.toContain('sandbox:');
  });
});

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

describe('bounded work on hostile replies', () => {
  const render = (text: string) => renderToStaticMarkup(<MarkdownRenderer text={text} />);
  const plainNote = 'This part is too large or intricate to format, so it is shown as plain text.';

  it('nests lists and quotes ten levels deep at most; the rest of the line is text', () => {
    const lists = render(`${'- '.repeat(1000)}x`);
    expect(lists.split('<ul>').length - 1).toBe(10);
    expect(lists).toContain(`${'- '.repeat(990)}x`);
    const quotes = render(`${'> '.repeat(100)}x **bold**`);
    expect(quotes.split('<blockquote>').length - 1).toBe(10);
  });

  it('shows code that only looks like deep nesting as written', () => {
    const line = `${'>'.repeat(30)} PDB set_trace`;
    const html = render(`\`\`\`\n${line}\n\`\`\`\n\n${'- '.repeat(12)}x`);
    expect(html).toContain(`${'&gt;'.repeat(30)} PDB set_trace`);
    expect(html).toContain('- - x');
    expect(html).not.toContain('\uE000');
  });

  it('flattens raw HTML nested deeper than the element bound into its text', () => {
    const html = render(`<div>${'<div>'.repeat(200)}deep${'</div>'.repeat(200)}</div> **x**`);
    expect(html).toContain('deep');
    expect(html.split('<div').length - 1).toBeLessThanOrEqual(34);
  });

  it('leaves a block too large or intricate for the page as plain text until the worker has it', () => {
    const intricate = `${'*a'.repeat(3000)} **end**`;
    const html = render(intricate);
    expect(html).not.toContain('<em>');
    expect(html).toContain(intricate);
    expect(html).not.toContain(plainNote);
  });

  it('shows a block beyond every budget as plain text, with a note', () => {
    const huge = `${'['.repeat(300_000)} **end**`;
    const html = render(huge);
    expect(html).toContain(plainNote);
    expect(html.replace(/<[^>]*>/g, '')).toContain(huge);
  });

  it('draws a long closed fence without the parser', () => {
    const code = Array.from({ length: 2000 }, (_, line) => `let x${line} = ${line}; // [link](x) *a*`).join(
      '\n',
    );
    const html = render(`\`\`\`js\n${code}\n\`\`\``);
    expect(html).toContain('<pre');
    expect(html).toContain('x1999');
    expect(html).not.toContain('<a ');
  });

  it('sends the blocks after the page budget of a task to the worker', () => {
    markdownBudget.pageParseMsPerTask = 0;
    try {
      expect(render('Just **bold** here.')).not.toContain('<strong>');
    } finally {
      markdownBudget.pageParseMsPerTask = Infinity;
    }
    expect(render('Just **bold** here.')).toContain('<strong>bold</strong>');
  });

  it('keeps only the allowed schemes in addresses (docs/behaviour.md#safe-rendering)', () => {
    expect(safeUrl('https://example.com/a:b')).toBe('https://example.com/a:b');
    expect(safeUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeUrl('IRCS://x')).toBe('IRCS://x');
    expect(safeUrl('docs/page:1')).toBe('docs/page:1');
    expect(safeUrl('?q=a:b')).toBe('?q=a:b');
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('data:text/html,x')).toBe('');
    expect(safeUrl('vbscript:x')).toBe('');
  });
});
