import { describe, expect, it } from 'vitest';
import { parseOpenFence, splitMarkdownBlocks } from './split-blocks.ts';

describe('splitMarkdownBlocks', () => {
  it('splits paragraphs and headings at blank lines', () => {
    expect(splitMarkdownBlocks('# Title\n\nFirst para\nstill first\n\nSecond')).toEqual([
      '# Title',
      'First para\nstill first',
      'Second',
    ]);
  });

  it('never splits inside a code fence, even at blank lines', () => {
    const text = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(splitMarkdownBlocks(text)).toEqual(['Intro', '```js\nconst a = 1;\n\nconst b = 2;\n```', 'After']);
  });

  it('keeps an unterminated fence (still streaming) as one growing block', () => {
    expect(splitMarkdownBlocks('Intro\n\n```py\nx = 1\n\ny = 2')).toEqual(['Intro', '```py\nx = 1\n\ny = 2']);
  });

  it('gives a fence at the margin a block of its own, even without blank lines around it', () => {
    expect(splitMarkdownBlocks('Here:\n```js\nx();\n```\nThen this.\n~~~\ny\n~~~')).toEqual([
      'Here:',
      '```js\nx();\n```',
      'Then this.',
      '~~~\ny\n~~~',
    ]);
  });

  it('keeps an indented fence inside its list item, and a fence inside raw HTML with the HTML', () => {
    expect(splitMarkdownBlocks('- step\n  ```sh\n  make\n  ```\n- next')).toEqual([
      '- step\n  ```sh\n  make\n  ```\n- next',
    ]);
    expect(splitMarkdownBlocks('<div>\n```\nx\n```\n</div>')).toEqual(['<div>\n```\nx\n```\n</div>']);
    expect(splitMarkdownBlocks('Para\n  <div>\n```\nx\n```\n</div>')).toEqual([
      'Para\n  <div>\n```\nx\n```\n</div>',
    ]);
  });

  it('takes a line of inline code in triple backticks for text, not a fence', () => {
    expect(splitMarkdownBlocks('Run this:\n```npm install``` then restart.\nDone')).toEqual([
      'Run this:\n```npm install``` then restart.\nDone',
    ]);
  });

  it('closes a fence only with the same character, at least as long, and nothing after it', () => {
    expect(splitMarkdownBlocks('```\ncode\n```\u00a0\nmore\n```')).toEqual([
      '```\ncode\n```\u00a0\nmore\n```',
    ]);
    expect(splitMarkdownBlocks('````\n```\n~~~~\n```` not a close\n````\n\nEnd')).toEqual([
      '````\n```\n~~~~\n```` not a close\n````',
      'End',
    ]);
  });

  it('keeps loose list items together', () => {
    expect(splitMarkdownBlocks('- a\n\n- b\n\n  more of b\n\nEnd')).toEqual([
      '- a\n\n- b\n\n  more of b',
      'End',
    ]);
  });

  it('joins the blocks back to the same rendering text', () => {
    const text = '## A\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n1. one\n2. two';
    expect(splitMarkdownBlocks(text).join('\n\n')).toBe(text);
  });

  it('splits a long block of raw HTML and fences in linear time (a reply is hostile input)', () => {
    // Looking back over the block for HTML at every fence took 11 s here; one pass takes 50 ms.
    const text = `${'line\n'.repeat(20_000)}<div>\n${'```\n```\n'.repeat(20_000)}`;
    const start = performance.now();
    expect(splitMarkdownBlocks(text)).toEqual([text.slice(0, -1)]);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe('parseOpenFence', () => {
  it('reads the language and the code of a fence still being written', () => {
    expect(parseOpenFence('```Python title="x"\nx = 1\n\ny = 2')).toEqual({
      language: 'python',
      code: 'x = 1\n\ny = 2',
    });
    expect(parseOpenFence('~~~\nplain')).toEqual({ language: undefined, code: 'plain' });
    expect(parseOpenFence('```ts\n')).toEqual({ language: 'ts', code: '' });
  });

  it('strips as many leading spaces from the code as the fence had', () => {
    expect(parseOpenFence('  ```\n    four\n one\nnone')).toEqual({
      language: undefined,
      code: '  four\none\nnone',
    });
  });

  it('is null for a closed fence, a non-fence and an info string it does not read', () => {
    expect(parseOpenFence('```js\nx\n```')).toBeNull();
    expect(parseOpenFence('```js\nx\n  ```  ')).toBeNull();
    expect(parseOpenFence('Text\n```js\nx')).toBeNull();
    expect(parseOpenFence('``not')).toBeNull();
    expect(parseOpenFence('    ```\nindented code')).toBeNull();
    expect(parseOpenFence('```{.js}\nx')).toBeNull();
    expect(parseOpenFence('``` a`b\nx')).toBeNull();
    expect(parseOpenFence('```')).toBeNull();
    expect(parseOpenFence('```ts')).toBeNull();
    expect(parseOpenFence('```\u00a0js\nx')).toBeNull();
    expect(parseOpenFence('  ```py\n\tx')).toBeNull();
  });

  it('does not close a fence with a shorter or different marker', () => {
    expect(parseOpenFence('````\n```\n~~~~')).toEqual({ language: undefined, code: '```\n~~~~' });
  });
});
