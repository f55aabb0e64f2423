import { describe, expect, it } from 'vitest';
import type { ToolResultPart } from '../../domain/tools.ts';
import { prettyJson, shortName, shownArguments, toolOutcome, toolSourceName } from './tool-format.ts';
import { countOffered } from './tool-count.ts';

const result = (text: string, isError = false): ToolResultPart => ({
  type: 'tool-result',
  callId: 'c',
  name: 'run_javascript',
  content: [{ type: 'text', text }],
  ...(isError && { isError: true as const }),
});

describe('prettyJson', () => {
  it('lays out an object or a list', () => {
    expect(prettyJson('{"a":1,"b":[true,null]}')).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}');
    expect(prettyJson(' [1]')).toBe('[\n  1\n]');
  });

  it('keeps anything else as it is', () => {
    expect(prettyJson('Returned: 42')).toBe('Returned: 42');
    expect(prettyJson('42')).toBe('42');
    expect(prettyJson('"text"')).toBe('"text"');
    expect(prettyJson('{"cut": ')).toBe('{"cut": ');
    expect(prettyJson('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });

  it('does not parse a very long text', () => {
    const long = `[${'1,'.repeat(150_000)}1]`;
    expect(prettyJson(long)).toBe(long);
  });
});

describe('shownArguments', () => {
  it('is empty for no arguments', () => {
    expect(shownArguments('')).toBe('');
    expect(shownArguments(' {} ')).toBe('');
    expect(shownArguments('{ }')).toBe('');
  });

  it('lays out JSON and keeps malformed text as the model wrote it', () => {
    expect(shownArguments('{"code":"return 6 * 7"}')).toBe('{\n  "code": "return 6 * 7"\n}');
    expect(shownArguments('{"code": "return')).toBe('{"code": "return');
  });
});

describe('toolOutcome', () => {
  it('is running while the reply streams without a result, else has none', () => {
    expect(toolOutcome(undefined, true)).toBe('running');
    expect(toolOutcome(undefined, false)).toBe('no-result');
  });

  it('reads the result', () => {
    expect(toolOutcome(result('Returned: 42'), false)).toBe('done');
    expect(toolOutcome(result('Error: boom', true), false)).toBe('failed');
    expect(toolOutcome(result('The user declined this call.', true), true)).toBe('declined');
    expect(toolOutcome(result('Not run: the user stopped the reply.', true), false)).toBe('not-run');
    // Words from a tool are not the loop's own.
    expect(toolOutcome(result('The user declined this call.'), false)).toBe('done');
  });
});

describe('names', () => {
  it("names the built-in source and an MCP server, and keeps an unknown server's id", () => {
    const servers = [{ id: 'mcp-1', name: 'Files' }];
    expect(toolSourceName('builtin', servers)).toBe('Built-in');
    expect(toolSourceName('mcp-1', servers)).toBe('Files');
    expect(toolSourceName('mcp-gone', servers)).toBe('mcp-gone');
    expect(toolSourceName(undefined, servers)).toBeUndefined();
  });

  it('bounds a long tool name', () => {
    expect(shortName('run_javascript')).toBe('run_javascript');
    expect(shortName('x'.repeat(300))).toBe(`${'x'.repeat(79)}…`);
  });
});

describe('countOffered', () => {
  const tool = (name: string) => ({
    server: 's',
    definition: { name, description: '', parameters: {} },
    hints: {},
  });
  it('counts the tools of the sources switched on, each name once', () => {
    expect(
      countOffered([
        { id: 'builtin', label: 'Built-in', on: true, tools: [tool('run_javascript')] },
        { id: 'a', label: 'A', on: true, tools: [tool('run_javascript'), tool('search')] },
        { id: 'b', label: 'B', on: false, tools: [tool('weather')] },
      ]),
    ).toBe(2);
    expect(countOffered([{ id: 'builtin', label: 'Built-in', on: false, tools: [tool('x')] }])).toBe(0);
  });
});
