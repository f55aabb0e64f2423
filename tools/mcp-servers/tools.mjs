// @ts-check
/** The one tool set every test server offers, whatever its transport, era or auth. */

import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { quadrantsPng } from '../png.mjs';
import { registerTestPrompts } from './prompts.mjs';

/**
 * @template T
 * @typedef {import('@modelcontextprotocol/server').StandardSchemaWithJSON<T, T>} Schema
 */
/** @typedef {import('@modelcontextprotocol/server').ServerContext} ServerContext */

/**
 * One tool call as the server saw it, for tests to assert what happened on the server's side.
 * @typedef {object} ToolCall
 * @property {string} server the serving McpServer's name
 * @property {string} tool
 * @property {unknown} args
 * @property {'running' | 'ok' | 'error' | 'cancelled' | 'vanished'} outcome
 * @property {string} startedAt ISO timestamp
 * @property {string} [endedAt]
 *
 * @typedef {object} ToolHooks
 * @property {(call: ToolCall) => void} record receives each call when it starts; mutated when it ends
 * @property {(ctx: ServerContext) => void} vanish drops the connection that would carry this call's answer
 */

/** The tool names, in the order tools/list gives them. */
export const toolNames = /** @type {const} */ ([
  'echo',
  'add',
  'make_image',
  'fail',
  'slow',
  'delete_file',
  'read_only_lookup',
  'vanish',
]);

/** The longest `slow` wait, so a typo cannot park a call for hours. */
const maxWaitMs = 120_000;

/**
 * A JSON Schema object, validated by the SDK's default (Ajv) validator.
 * @param {Record<string, object>} properties
 * @param {string[]} [required]
 */
function objectSchema(properties, required = []) {
  return fromJsonSchema({ type: 'object', properties, required, additionalProperties: false });
}

/** A tiny real picture, so a rendered result is visible. */
const pngBase64 = quadrantsPng(16).toString('base64');

/**
 * Resolves after `ms`, or rejects as soon as `signal` aborts (the client cancelled the call).
 * @param {number} ms @param {AbortSignal} signal
 */
function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** @param {string} text @returns {import('@modelcontextprotocol/server').CallToolResult} */
const textResult = (text) => ({ content: [{ type: 'text', text }] });

/**
 * A fresh McpServer with the test tool set, and the test prompts (prompts.mjs): one per session,
 * per request or per SSE stream, as the SDK's serving modes expect.
 * @param {string} name the serverInfo name clients display
 * @param {ToolHooks} hooks
 */
export function createToolServer(name, hooks) {
  const server = new McpServer(
    { name, version: '1.0.0' },
    { instructions: `A test server (${name}) with harmless tools; nothing it says it does really happens.` },
  );
  registerTestPrompts(server);

  /**
   * Wraps a handler so every call is recorded with its outcome.
   * @template A
   * @param {string} tool
   * @param {(args: A, ctx: ServerContext, call: ToolCall) => Promise<import('@modelcontextprotocol/server').CallToolResult>} run
   * @returns {(args: A, ctx: ServerContext) => Promise<import('@modelcontextprotocol/server').CallToolResult>}
   */
  const recorded = (tool, run) => async (args, ctx) => {
    /** @type {ToolCall} */
    const call = { server: name, tool, args, outcome: 'running', startedAt: new Date().toISOString() };
    hooks.record(call);
    try {
      const result = await run(args, ctx, call);
      call.outcome = result.isError ? 'error' : 'ok';
      return result;
    } catch (error) {
      if (call.outcome === 'running') call.outcome = ctx.mcpReq.signal.aborted ? 'cancelled' : 'error';
      throw error;
    } finally {
      call.endedAt = new Date().toISOString();
    }
  };

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the given text unchanged.',
      inputSchema: /** @type {Schema<{ text: string }>} */ (
        objectSchema({ text: { type: 'string', description: 'The text to return.' } }, ['text'])
      ),
    },
    recorded('echo', async ({ text }) => textResult(text)),
  );

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers; the sum comes as text and as structured content.',
      inputSchema: /** @type {Schema<{ a: number, b: number }>} */ (
        objectSchema({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b'])
      ),
      outputSchema: /** @type {Schema<{ sum: number }>} */ (
        objectSchema({ sum: { type: 'number' } }, ['sum'])
      ),
    },
    recorded('add', async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    })),
  );

  server.registerTool(
    'make_image',
    {
      title: 'Make image',
      description: 'Returns a small PNG image (four coloured squares).',
      inputSchema: /** @type {Schema<Record<string, never>>} */ (objectSchema({})),
    },
    recorded('make_image', async () => ({
      content: [{ type: 'image', data: pngBase64, mimeType: 'image/png' }],
    })),
  );

  server.registerTool(
    'fail',
    {
      title: 'Fail',
      description: 'Always fails, as a tool error (isError) the model can read, not a protocol error.',
      inputSchema: /** @type {Schema<{ message?: string }>} */ (
        objectSchema({ message: { type: 'string', description: 'What the error says.' } })
      ),
    },
    recorded('fail', async ({ message }) => ({
      content: [{ type: 'text', text: message ?? 'The tool failed on purpose.' }],
      isError: true,
    })),
  );

  server.registerTool(
    'slow',
    {
      title: 'Slow',
      description:
        'Waits, then answers; reports progress every 500 ms when asked to. Cancelling the call stops the wait.',
      inputSchema: /** @type {Schema<{ ms?: number }>} */ (
        objectSchema({
          ms: {
            type: 'integer',
            minimum: 0,
            maximum: maxWaitMs,
            default: 3000,
            description: 'How long to wait.',
          },
        })
      ),
    },
    recorded('slow', async ({ ms = 3000 }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      const started = Date.now();
      for (let waited = 0; waited < ms; waited = Date.now() - started) {
        await wait(Math.min(500, ms - waited), ctx.mcpReq.signal);
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: Math.min(ms, Date.now() - started), total: ms },
          });
        }
      }
      return textResult(`Waited ${ms} ms.`);
    }),
  );

  server.registerTool(
    'delete_file',
    {
      title: 'Delete file',
      description: 'Pretends to delete a file. Marked destructive, so a client should ask before calling it.',
      inputSchema: /** @type {Schema<{ path: string }>} */ (
        objectSchema({ path: { type: 'string', description: 'The file to delete.' } }, ['path'])
      ),
      // destructiveHint defaults to true already; said explicitly as a real server would.
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    recorded('delete_file', async ({ path }) =>
      textResult(`Deleted ${path} (not really: this is a test server).`),
    ),
  );

  server.registerTool(
    'read_only_lookup',
    {
      title: 'Look up',
      description: 'Looks a word up in a tiny built-in glossary. Read-only.',
      inputSchema: /** @type {Schema<{ query: string }>} */ (
        objectSchema({ query: { type: 'string' } }, ['query'])
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    recorded('read_only_lookup', async ({ query }) => {
      /** @type {Record<string, string>} */
      const glossary = {
        mcp: 'Model Context Protocol',
        sse: 'Server-Sent Events',
        pkce: 'Proof Key for Code Exchange',
      };
      return textResult(glossary[query.trim().toLowerCase()] ?? `No entry for "${query}".`);
    }),
  );

  server.registerTool(
    'vanish',
    {
      title: 'Vanish',
      description:
        'Drops the connection mid-call without answering, as a server that crashes or loses its network.',
      inputSchema: /** @type {Schema<{ after_ms?: number }>} */ (
        objectSchema({ after_ms: { type: 'integer', minimum: 0, maximum: maxWaitMs, default: 100 } })
      ),
    },
    recorded('vanish', async ({ after_ms = 100 }, ctx, call) => {
      await wait(after_ms, ctx.mcpReq.signal);
      call.outcome = 'vanished';
      hooks.vanish(ctx);
      throw new Error('The server vanished.');
    }),
  );

  return server;
}
