import { describe, expect, it } from 'vitest';
import {
  describeEstimate,
  describeMeasure,
  estimateTokens,
  mayNotFit,
  roundEstimate,
  tokensPerImage,
} from './project-tokens.ts';

describe('estimateTokens', () => {
  it('is nothing for no files', () => {
    expect(estimateTokens([])).toBe(0);
  });

  it('takes text and PDFs at about four bytes a token, rounding up', () => {
    expect(estimateTokens([{ kind: 'text', size: 4_000 }])).toBe(1_000);
    expect(estimateTokens([{ kind: 'text', size: 5 }])).toBe(2);
    expect(estimateTokens([{ kind: 'pdf', size: 40_000 }])).toBe(10_000);
  });

  it('gives every image the same cost, whatever its bytes', () => {
    expect(estimateTokens([{ kind: 'image', size: 10 }])).toBe(tokensPerImage);
    expect(estimateTokens([{ kind: 'image', size: 3_000_000 }])).toBe(tokensPerImage);
  });

  it('adds the files up', () => {
    const files = [
      { kind: 'text', size: 400 },
      { kind: 'image', size: 1 },
      { kind: 'pdf', size: 800 },
    ] as const;
    expect(estimateTokens(files)).toBe(100 + tokensPerImage + 200);
  });
});

describe('roundEstimate', () => {
  it('rounds to tens below a thousand and hundreds above, never to zero', () => {
    expect(roundEstimate(0)).toBe(0);
    expect(roundEstimate(2)).toBe(10);
    expect(roundEstimate(347)).toBe(350);
    expect(roundEstimate(12_345)).toBe(12_300);
  });
});

describe('describeEstimate', () => {
  it('says it is an estimate, against the model’s window', () => {
    expect(describeEstimate(12_345, 'gpt-5', 200_000)).toBe(
      "About 12,300 tokens (estimated) of 200,000 in gpt-5's context window.",
    );
  });

  it('says when the window is not known, or there is no model', () => {
    expect(describeEstimate(500, 'my-model', undefined)).toBe(
      "About 500 tokens (estimated); my-model's context window is not known.",
    );
    expect(describeEstimate(500, '', undefined)).toBe('About 500 tokens (estimated).');
  });
});

describe('describeMeasure', () => {
  it("says who counted, and the window when it is the chosen model's", () => {
    const measure = { tokens: 12_345, model: 'claude-sonnet-4-6' };
    expect(describeMeasure(measure, { model: 'claude-sonnet-4-6', contextWindow: 200_000 })).toBe(
      'Measured by claude-sonnet-4-6: a new conversation here started at 12,345 input tokens of 200,000 in its context window (the instructions, files, its system prompt, tools and first question).',
    );
    expect(describeMeasure(measure, { model: 'gpt-5', contextWindow: 400_000 })).toBe(
      'Measured by claude-sonnet-4-6: a new conversation here started at 12,345 input tokens (the instructions, files, its system prompt, tools and first question).',
    );
  });
});

describe('mayNotFit', () => {
  it('warns only past a known window', () => {
    expect(mayNotFit(200_001, 200_000)).toBe(true);
    expect(mayNotFit(200_000, 200_000)).toBe(false);
    expect(mayNotFit(1e9, undefined)).toBe(false);
  });
});
