import {
  fromJsonSchema,
  McpServer,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readBody, sendWebResponse, toWebRequest } from '../../../tools/mcp-servers/http.mjs';
import { promptNames } from '../../../tools/mcp-servers/prompts.mjs';
import { startMcpServers } from '../../../tools/mcp-servers/start.mjs';
import { createMcpSource, type McpSource, type McpStatus } from './index.ts';
import { oneLine, promptLimits } from './prompts.ts';

/**
 * MCP servers' prompts (prompts/list, prompts/get) through the client: over the real test
 * servers (tools/mcp-servers/prompts.mjs) in each era and transport, and over servers made here
 * for what those do not do: no `prompts` capability, pages, hostile lists and texts, a list that
 * changes while connected.
 */

type Servers = Awaited<ReturnType<typeof startMcpServers>>;

let servers: Servers;
beforeAll(async () => {
  servers = await startMcpServers();
});
afterAll(async () => {
  await servers.stop();
});
beforeEach(() => {
  servers.requests.length = 0;
});

const opened: McpSource[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((source) => source.disconnect()));
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

function sourceAt(url: string, name = 'Docs server') {
  const source = createMcpSource(
    { id: `test-${randomUUID()}`, name, url, auth: 'none' },
    {
      secrets: { headers: async () => ({}) },
      oauthStore: { read: async () => undefined, write: async () => {} },
      timeouts: { connectMs: 10_000 },
    },
  );
  opened.push(source);
  return source;
}

function promptsOf(status: McpStatus) {
  if (status.state !== 'connected') throw new Error(`Not connected: ${JSON.stringify(status)}`);
  return status.prompts;
}

/** The params of each prompts/get the server at `path` received. */
function getsSent(path: string): unknown[] {
  return servers.requests
    .filter((entry) => entry.path === path && entry.rpc.includes('prompts/get'))
    .map((entry) => (entry.body as { params?: unknown }).params);
}

describe('the test servers’ prompts', () => {
  it.each(['legacy', 'modern', 'sse'] as const)('are listed on connecting (%s)', async (name) => {
    const prompts = promptsOf(await sourceAt(servers.urls[name]).connect());
    expect(prompts.map((prompt) => prompt.name)).toEqual([...promptNames]);
    expect(prompts[0]).toEqual({
      name: 'greeting',
      title: 'Greeting',
      description: 'Asks the assistant to introduce itself. No arguments.',
      arguments: [],
    });
    expect(prompts[1]?.arguments).toEqual([
      { name: 'topic', description: 'What to summarize.', required: true },
      { name: 'style', description: 'How: brief, detailed, for a child…', required: false },
    ]);
  });

  it('gets one without arguments', async () => {
    const source = sourceAt(servers.urls.legacy);
    await source.connect();
    expect(await source.getPrompt('greeting', {})).toEqual({
      text: 'Hello! Please introduce yourself in one sentence.',
    });
    expect(getsSent('/legacy/mcp')).toEqual([{ name: 'greeting' }]);
  });

  it.each(['legacy', 'modern'] as const)(
    'gets one with arguments: messages of both roles joined by a blank line, an empty one not sent (%s)',
    async (name) => {
      const source = sourceAt(servers.urls[name]);
      await source.connect();
      expect(await source.getPrompt('summarize', { topic: 'tides', style: '' })).toEqual({
        text: 'Summarize tides.\n\nOf course: a summary of tides follows (style: (not sent)).',
      });
      expect(await source.getPrompt('summarize', { topic: 'tides', style: 'brief' })).toEqual({
        text: 'Summarize tides in a brief style.\n\nOf course: a summary of tides follows (style: brief).',
      });
      expect(getsSent(`/${name}/mcp`)).toEqual([
        expect.objectContaining({ name: 'summarize', arguments: { topic: 'tides' } }),
        expect.objectContaining({ name: 'summarize', arguments: { topic: 'tides', style: 'brief' } }),
      ]);
    },
  );

  it('leaves pictures and resources out, and says so', async () => {
    const source = sourceAt(servers.urls.modern);
    await source.connect();
    expect(await source.getPrompt('describe_picture', {})).toEqual({
      text: 'Describe this picture.',
      note: 'Only the prompt’s text is inserted: 1 picture and 1 resource left out.',
    });
  });

  it('says in one sentence naming the server why a prompt could not be got', async () => {
    const source = sourceAt(servers.urls.legacy);
    await source.connect();
    await expect(source.getPrompt('summarize', { topic: '  ' })).rejects.toThrow(
      "The server Docs server answered with an error: Invalid arguments for prompt summarize: data must have required property 'topic'.",
    );
    await expect(source.getPrompt('nothing_here', {})).rejects.toThrow(
      'The server Docs server answered with an error: Prompt nothing_here not found.',
    );
  });
});

/** The JSON-RPC methods the servers made by `serve` received, in order. */
const received: string[] = [];
beforeEach(() => {
  received.length = 0;
});

/** A server made by `make` (one per session), over Streamable HTTP on loopback; its URL. */
async function serve(make: () => Server | McpServer): Promise<string> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const target = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const body = await readBody(req);
      try {
        const { method } = JSON.parse(body.toString('utf8')) as { method?: unknown };
        if (typeof method === 'string') received.push(method);
      } catch {
        // Not a JSON-RPC message (a GET, a DELETE).
      }
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (made) => void sessions.set(made, transport as never),
        });
        await make().connect(transport);
      }
      await sendWebResponse(res, await transport.handleRequest(toWebRequest(req, res, target, body)));
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  const address = http.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
}

const emptyObject = fromJsonSchema({ type: 'object', properties: {} });

/** A low-level server with only prompts (and one tool), answering prompts/list with `list`. */
function promptServer(
  list: (cursor: string | undefined) => { prompts: unknown[]; nextCursor?: string },
  get?: (name: string) => unknown,
) {
  const pages: (string | undefined)[] = [];
  const url = serve(() => {
    const server = new Server(
      { name: 'prompts', version: '1.0.0' },
      { capabilities: { prompts: {}, tools: {} } },
    );
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    server.setRequestHandler('prompts/list', (request) => {
      pages.push(request.params?.cursor);
      return list(request.params?.cursor) as never;
    });
    if (get) server.setRequestHandler('prompts/get', (request) => get(request.params.name) as never);
    return server;
  });
  return { url, pages };
}

describe('servers as they come', () => {
  it('lists none of a server without the prompts capability, asking nothing and warning of nothing', async () => {
    const warn = vi.spyOn(console, 'warn');
    const url = await serve(() => {
      const server = new McpServer({ name: 'tools only', version: '1.0.0' });
      server.registerTool('ping', { inputSchema: emptyObject }, async () => ({ content: [] }));
      return server;
    });
    const status = await sourceAt(url).connect();
    expect(status).toMatchObject({ state: 'connected', tools: 1, prompts: [] });
    expect(received).toContain('tools/list');
    expect(received).not.toContain('prompts/list');
    expect(warn).not.toHaveBeenCalled();
  });

  it('walks the pages, and stops once enough prompts are read', async () => {
    const prompt = (n: number) => ({ name: `p${n}`, description: `Prompt ${n}` });
    const { url, pages } = promptServer((cursor) => {
      const from = Number(cursor ?? 0);
      return {
        prompts: Array.from({ length: 90 }, (_, i) => prompt(from + i)),
        nextCursor: String(from + 90),
      };
    });
    const prompts = promptsOf(await sourceAt(await url).connect());
    expect(prompts).toHaveLength(promptLimits.prompts);
    expect(prompts.at(-1)?.name).toBe(`p${promptLimits.prompts - 1}`);
    expect(pages).toEqual([undefined, '90', '180']);
  });

  it('stops at a cursor seen before, and after a bounded number of pages, keeping what it read', async () => {
    const looping = promptServer(() => ({ prompts: [{ name: 'again' }], nextCursor: 'same' }));
    expect(promptsOf(await sourceAt(await looping.url).connect())).toEqual([
      { name: 'again', arguments: [] },
    ]);
    expect(looping.pages).toEqual([undefined, 'same']);

    let n = 0;
    const endless = promptServer(() => ({ prompts: [], nextCursor: `c${n++}` }));
    expect(promptsOf(await sourceAt(await endless.url).connect())).toEqual([]);
    expect(endless.pages).toHaveLength(promptLimits.pages);
  });

  it('bounds and checks a hostile list', async () => {
    const long = 'x'.repeat(10_000);
    const { url } = promptServer(() => ({
      prompts: [
        { name: long },
        { name: '   ' },
        {
          name: 'shown',
          title: `  Sum\u202e\nmarize\u0000 ${long}`,
          description: long,
          arguments: [
            { name: 'a', description: `first\nline ${long}`, required: true },
            { name: 'a', description: 'again' },
            { name: 'b' },
          ],
        },
        { name: 'shown', title: 'A second with that name' },
        { name: 'many', arguments: Array.from({ length: 51 }, (_, i) => ({ name: `a${i}` })) },
        { name: 'long argument', arguments: [{ name: long }] },
        { name: 'empty argument', arguments: [{ name: '' }] },
        { name: 'evil\u202e' },
        { name: 'line\nbreak' },
        { name: 'odd argument', arguments: [{ name: 'to\u2066pic' }] },
        { name: 'fifty', arguments: Array.from({ length: 50 }, (_, i) => ({ name: `a${i}` })) },
      ],
    }));
    const prompts = promptsOf(await sourceAt(await url).connect());
    expect(prompts.map((prompt) => prompt.name)).toEqual(['shown', 'fifty']);
    const [shown] = prompts;
    expect(shown?.title).toHaveLength(promptLimits.title);
    expect(shown?.title?.startsWith('Sum marize x')).toBe(true);
    expect(shown?.title?.endsWith('…')).toBe(true);
    expect(shown?.description).toHaveLength(promptLimits.description);
    expect(shown?.arguments).toEqual([
      { name: 'a', description: expect.stringMatching(/^first line x+…$/), required: true },
      { name: 'b', required: false },
    ]);
    expect(shown?.arguments[0]?.description).toHaveLength(promptLimits.argumentDescription);
  });

  it('keeps a hostile prompt’s text plain and bounded, and says what was cut', async () => {
    const huge = 'y'.repeat(300_000);
    const { url } = promptServer(
      () => ({ prompts: [{ name: 'huge' }, { name: 'odd' }] }),
      (name) =>
        name === 'huge'
          ? {
              messages: [
                { role: 'user', content: { type: 'text', text: 'start' } },
                { role: 'user', content: { type: 'text', text: huge } },
                { role: 'user', content: { type: 'text', text: 'never seen' } },
                { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
              ],
            }
          : {
              messages: [
                { role: 'user', content: { type: 'text', text: 'a\r\nb\u0000c\u0007\td' } },
                { role: 'user', content: { type: 'text', text: '   ' } },
                { role: 'assistant', content: { type: 'resource_link', uri: 'https://x', name: 'x' } },
                { role: 'user', content: { type: 'text', text: '<b>not markup</b>' } },
              ],
            },
    );
    const source = sourceAt(await url);
    await source.connect();
    const got = await source.getPrompt('huge', {});
    expect(got.text).toHaveLength(promptLimits.text);
    expect(got.text.startsWith('start\n\nyyy')).toBe(true);
    expect(got.note).toBe(
      'Only the prompt’s text is inserted: 1 sound left out, and the text cut at 100,000 characters.',
    );
    expect(await source.getPrompt('odd', {})).toEqual({
      text: 'a\nbc\td\n\n<b>not markup</b>',
      note: 'Only the prompt’s text is inserted: 1 resource left out.',
    });
  });

  it('follows notifications/prompts/list_changed', async () => {
    // One server per session (the probe before it makes one too): the last one made is connected.
    const made: McpServer[] = [];
    const url = await serve(() => {
      const mcp = new McpServer({ name: 'changing', version: '1.0.0' });
      mcp.registerPrompt('first', { description: 'The first prompt.' }, () => ({ messages: [] }));
      made.push(mcp);
      return mcp;
    });
    const source = sourceAt(url);
    const statuses: McpStatus[] = [];
    source.subscribe((status) => statuses.push(status));
    expect(promptsOf(await source.connect()).map((prompt) => prompt.name)).toEqual(['first']);
    made.at(-1)?.registerPrompt('second', { title: 'Second' }, () => ({ messages: [] }));
    await expect
      .poll(() => {
        const last = statuses.at(-1);
        return last ? promptsOf(last).map((prompt) => prompt.name) : [];
      })
      .toEqual(['first', 'second']);
  });
});

describe('oneLine', () => {
  it('keeps one line of a hostile text, bounded, without the marks that reorder text', () => {
    expect(oneLine(' a\u2066b\u2028c\td\u0085 ', 100)).toBe('a b c d');
    expect(oneLine('abcdef', 4)).toBe('abc…');
    // Half of a pair is not left at the cut.
    expect(oneLine('ab😀cd', 4)).toBe('ab…');
  });
});
