import { describe, expect, it } from 'vitest';
import { messageText, type MessagePart } from '../../domain/conversation.ts';
import type { ToolCallPart, ToolResultPart } from '../../domain/tools.ts';
import type { WebResearch } from '../../domain/web-search.ts';
import { replySteps, stepResearch } from './reply-steps.ts';

const call = (callId: string, name = 'run_javascript'): ToolCallPart => ({
  type: 'tool-call',
  callId,
  name,
  server: 'builtin',
  arguments: '{"code":"return 1"}',
});
const result = (callId: string, text = 'Returned: 1'): ToolResultPart => ({
  type: 'tool-result',
  callId,
  name: 'run_javascript',
  content: [{ type: 'text', text }],
});

describe('replySteps', () => {
  it('groups thinking, text and calls into steps, each result with its call', () => {
    const parts: MessagePart[] = [
      { type: 'reasoning', text: 'I should run it.' },
      { type: 'text', text: 'Let me run ' },
      { type: 'text', text: 'that.' },
      call('a'),
      call('b'),
      result('a'),
      result('b', 'Returned: 2'),
      { type: 'reasoning', text: 'Now answer.' },
      { type: 'text', text: 'It is 1 and 2.' },
    ];
    expect(replySteps(parts)).toEqual([
      {
        reasoning: [parts[0]],
        text: 'Let me run that.',
        items: [
          { kind: 'tool', use: { call: parts[3], result: parts[5] } },
          { kind: 'tool', use: { call: parts[4], result: parts[6] } },
        ],
      },
      { reasoning: [parts[7]], text: 'It is 1 and 2.', items: [] },
    ]);
  });

  it('starts a step with calls alone, and a new one for text after tools', () => {
    const parts: MessagePart[] = [call('a'), result('a'), { type: 'text', text: 'Done.' }];
    expect(replySteps(parts)).toEqual([
      { reasoning: [], text: '', items: [{ kind: 'tool', use: { call: parts[0], result: parts[1] } }] },
      { reasoning: [], text: 'Done.', items: [] },
    ]);
  });

  it('keeps thinking after text in a step of its own', () => {
    const steps = replySteps([
      { type: 'text', text: 'First.' },
      { type: 'reasoning', text: 'More thought.' },
      call('a'),
    ]);
    expect(steps.map((step) => [step.text, step.reasoning.length, step.items.length])).toEqual([
      ['First.', 0, 0],
      ['', 1, 1],
    ]);
  });

  it('leaves a call without a result waiting, drops empty texts, and shows a drawn picture where it came', () => {
    const parts: MessagePart[] = [
      { type: 'text', text: '' },
      call('a'),
      { type: 'text', text: '' },
      {
        type: 'attachment',
        id: 'f',
        name: 'f.png',
        mimeType: 'image/png',
        size: 1,
        kind: 'image',
      },
    ];
    expect(replySteps(parts)).toEqual([
      {
        reasoning: [],
        text: '',
        items: [
          { kind: 'tool', use: { call: parts[1] } },
          { kind: 'picture', picture: parts[3] },
        ],
      },
    ]);
  });

  it('ignores a result for no call, a second result and a repeated call id', () => {
    const first = result('a', 'first');
    const steps = replySteps([result('x'), call('a'), call('a', 'other'), first, result('a', 'second')]);
    expect(steps).toEqual([
      { reasoning: [], text: '', items: [{ kind: 'tool', use: { call: call('a'), result: first } }] },
    ]);
  });

  it('puts a code run after the text before it, and text after it in a step of its own', () => {
    const run: MessagePart = {
      type: 'code-run',
      id: 'r',
      language: 'python',
      code: '1',
      output: '1',
      files: [],
    };
    const steps = replySteps([{ type: 'text', text: 'Computing.' }, run, { type: 'text', text: 'One.' }]);
    expect(steps).toEqual([
      { reasoning: [], text: 'Computing.', items: [{ kind: 'run', run }] },
      { reasoning: [], text: 'One.', items: [] },
    ]);
  });

  it('gives nothing for nothing', () => {
    expect(replySteps([])).toEqual([]);
    expect(replySteps([{ type: 'text', text: '' }])).toEqual([]);
  });
});

describe('stepResearch', () => {
  it("gives each step the citations of its text, at the text's own offsets", () => {
    const parts: MessagePart[] = [
      { type: 'text', text: 'Searching first.' },
      { type: 'tool-call', callId: 'c1', name: 'echo', arguments: '{}' },
      { type: 'tool-result', callId: 'c1', name: 'echo', content: [{ type: 'text', text: 'ok' }] },
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'Everest is tallest.' },
    ];
    const answer = messageText({ parts });
    const at = answer.indexOf('tallest.') + 'tallest.'.length;
    const web: WebResearch = {
      searches: [],
      sources: [{ url: 'https://a.example/' }, { url: 'https://b.example/' }],
      citations: [
        { at: 'Searching first.'.length, source: 1 },
        { at, source: 0 },
      ],
    };
    const steps = replySteps(parts);
    const shares = stepResearch(steps, web);
    expect(shares.map((share) => share?.citations)).toEqual([
      [{ at: 'Searching first.'.length, source: 1 }],
      [{ at: 'Everest is tallest.'.length, source: 0 }],
    ]);
    expect(shares[1]?.sources).toBe(web.sources);
    expect(stepResearch(steps, undefined)).toEqual([undefined, undefined]);
  });
});
