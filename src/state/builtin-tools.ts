import { builtinServer } from '../domain/tools.ts';
import type { OfferedTool, ToolOutcome, ToolSource } from '../tools/tool-source.ts';

/** 'Run JavaScript' stops a run after this long. */
export const javascriptTimeLimitMs = 10_000;

export const runJavaScriptTool: OfferedTool = {
  server: builtinServer,
  definition: {
    name: 'run_javascript',
    description:
      'Runs JavaScript in a sandboxed worker and returns what it printed with console.log and the value it returned. The code is the body of an async function: use `return` for the result and `await` freely. It has no network, no DOM and no storage, and it is stopped after 10 seconds.',
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The body of an async function.' } },
      required: ['code'],
      additionalProperties: false,
    },
  },
  hints: { title: 'Run JavaScript' },
};

/** The built-in tools' list and calls (builtin-source.ts is their source, loading these on use). */
export const builtinToolsImpl: Pick<ToolSource, 'list' | 'call'> = {
  list: () => Promise.resolve([runJavaScriptTool]),
  async call(name, args, signal): Promise<ToolOutcome> {
    if (name !== runJavaScriptTool.definition.name)
      return { content: [{ type: 'text', text: `There is no built-in tool named ${name}.` }], isError: true };
    const code = args.code;
    if (typeof code !== 'string')
      return { content: [{ type: 'text', text: 'The argument `code` must be a string.' }], isError: true };
    const { runJavaScript } = await import('../lib/js-sandbox.ts');
    const run = await runJavaScript(code, { timeoutMs: javascriptTimeLimitMs, signal });
    const lines = [...run.logs];
    if (run.result !== undefined) lines.push(`Returned: ${run.result}`);
    if (run.error !== undefined) lines.push(`Error: ${run.error}`);
    return {
      content: [
        {
          type: 'text',
          text: lines.length > 0 ? lines.join('\n') : 'Done: nothing was printed or returned.',
        },
      ],
      ...(run.error !== undefined && { isError: true }),
    };
  },
};
