import { describe, expect, it } from 'vitest';
import {
  boundBlockCount,
  limitContainerNesting,
  markdownBudget,
  planBlock,
  textMark,
} from './markdown-budget.ts';

const notAFence = () => false;

describe('limitContainerNesting', () => {
  const t = textMark;
  it('makes the eleventh marker of a line text and leaves the ten before it', () => {
    expect(limitContainerNesting(`${'- '.repeat(12)}x`)).toBe(`${'- '.repeat(10)}${t}- - x`);
    expect(limitContainerNesting(`${'> '.repeat(11)}x`)).toBe(`${'> '.repeat(10)}${t}> x`);
    expect(limitContainerNesting('>>>>>>>>>>>>x')).toBe(`>>>>>>>>>>${t}>>x`);
    expect(limitContainerNesting(`${'1. '.repeat(11)}x`)).toBe(`${'1. '.repeat(10)}${t}1. x`);
    expect(limitContainerNesting(`${'- > 1) '.repeat(4)}x`)).toBe(`${'- > 1) '.repeat(3)}- ${t}> 1) x`);
  });

  it('leaves ordinary lines, thematic breaks and text that only looks like markers alone', () => {
    const ordinary = '# Title\n\n- a\n  - b\n    > c\n1. d\n\n-not a list\n2024. a year';
    expect(limitContainerNesting(ordinary)).toBe(ordinary);
    const rule = '- '.repeat(30);
    expect(limitContainerNesting(rule)).toBe(rule);
    expect(limitContainerNesting(`${'-a '.repeat(30)}`)).toBe(`${'-a '.repeat(30)}`);
  });

  it('limits every line it must, keeping the others and the line breaks', () => {
    const deep = `${'* '.repeat(11)}x`;
    expect(limitContainerNesting(`a\n${deep}\nb\n${deep}`)).toBe(
      `a\n${'* '.repeat(10)}${t}* x\nb\n${'* '.repeat(10)}${t}* x`,
    );
  });

  it('takes linear time on a megabyte of markers', () => {
    const started = performance.now();
    limitContainerNesting('- '.repeat(500_000));
    limitContainerNesting(`${'> '.repeat(500_000)}x`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('planBlock', () => {
  it('parses small, plain blocks on the page', () => {
    expect(planBlock('Some **bold** text and a [link](https://x.y).', notAFence)).toBe('page');
    expect(planBlock('x'.repeat(markdownBudget.pageChars), notAFence)).toBe('page');
  });

  it('sends blocks with many delimiters, lines or indentation to the worker', () => {
    expect(planBlock('*a'.repeat(markdownBudget.pageDelimiters + 1), notAFence)).toBe('worker');
    expect(planBlock('-\n'.repeat(markdownBudget.pageLines), notAFence)).toBe('worker');
    const indented = Array.from({ length: 50 }, (_, level) => `${' '.repeat(2 * level)}- x`).join('\n');
    expect(planBlock(indented, notAFence)).toBe('worker');
    expect(planBlock('x'.repeat(markdownBudget.pageChars + 1), notAFence)).toBe('worker');
  });

  it('draws a large closed fence without the parser, and shows what is beyond every budget as text', () => {
    expect(planBlock('x'.repeat(10_000), () => true)).toBe('fence');
    expect(planBlock('x'.repeat(markdownBudget.parseChars + 1), notAFence)).toBe('plain');
  });
});

describe('boundBlockCount', () => {
  it('joins the blocks past the limit into the last one', () => {
    const blocks = Array.from({ length: markdownBudget.blocks + 5 }, (_, index) => `p${index}`);
    const bounded = boundBlockCount(blocks);
    expect(bounded).toHaveLength(markdownBudget.blocks);
    expect(bounded.slice(0, -1)).toEqual(blocks.slice(0, markdownBudget.blocks - 1));
    expect(bounded.at(-1)).toBe(blocks.slice(markdownBudget.blocks - 1).join('\n\n'));
    expect(boundBlockCount(['a', 'b'])).toEqual(['a', 'b']);
  });
});
