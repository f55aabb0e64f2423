import {
  fromJsonSchema,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readBody, sendWebResponse, toWebRequest } from '../../../tools/mcp-servers/http.mjs';
import { createMcpSource, type McpStatus } from './index.ts';

/** A server whose tools change while connected: the list follows (2025-11-25, its GET stream). */

const emptyObject = fromJsonSchema({ type: 'object', properties: {} });
const mcp = new McpServer({ name: 'changing', version: '1.0.0' });
mcp.registerTool('first', { description: 'The first tool.', inputSchema: emptyObject }, async () => ({
  content: [{ type: 'text', text: 'first' }],
}));
const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
let http: Server;
let url = '';

beforeAll(async () => {
  await mcp.connect(transport);
  http = createServer((req, res) => {
    void (async () => {
      const target = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const body = await readBody(req);
      await sendWebResponse(res, await transport.handleRequest(toWebRequest(req, res, target, body)));
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
});

afterAll(async () => {
  await mcp.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

it('refreshes the tools when the server says its list changed', async () => {
  const source = createMcpSource(
    { id: 'changing', name: 'Changing', url, auth: 'none' },
    {
      secrets: { headers: async () => ({}) },
      oauthStore: { read: async () => undefined, write: async () => {} },
    },
  );
  const statuses: McpStatus[] = [];
  source.subscribe((status) => statuses.push(status));
  expect(await source.connect()).toMatchObject({ state: 'connected', tools: 1, era: 'legacy' });
  mcp.registerTool('second', { description: 'Added later.', inputSchema: emptyObject }, async () => ({
    content: [{ type: 'text', text: 'second' }],
  }));
  await expect
    .poll(async () => (await source.list()).map((tool) => tool.definition.name))
    .toEqual(['first', 'second']);
  expect(statuses.at(-1)).toMatchObject({ state: 'connected', tools: 2 });
  await source.disconnect();
});
