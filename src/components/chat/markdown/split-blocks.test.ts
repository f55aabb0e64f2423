import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from './split-blocks.ts';

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
});
