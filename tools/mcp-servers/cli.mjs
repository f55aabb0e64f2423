#!/usr/bin/env node
// @ts-check
/** `node tools/mcp-servers/cli.mjs [--port 4329] [--host 127.0.0.1] [--max-lifetime 3600] [--help]` */

import { parseArgs } from 'node:util';
import { startMcpServers } from './start.mjs';

const options = /** @type {const} */ ({
  port: { type: 'string', default: '4329' },
  host: { type: 'string', default: '127.0.0.1' },
  'max-lifetime': { type: 'string', default: '3600' },
  help: { type: 'boolean', short: 'h', default: false },
});

const usage = [
  'Usage: node tools/mcp-servers/cli.mjs [options]',
  '',
  'Real MCP servers (official SDK) on one loopback port, for the tests: see tools/mcp-servers/README.md.',
  '',
  'Options:',
  '  --port <n>           port to listen on (default 4329; 0 picks a free one)',
  '  --host <address>     loopback address to bind (default 127.0.0.1)',
  '  --max-lifetime <s>   stop by itself after this long (default 3600)',
  '  -h, --help           print this help',
].join('\n');

/** @type {ReturnType<typeof parseArgs<{ options: typeof options }>>['values']} */
let values;
try {
  ({ values } = parseArgs({ options }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const servers = await startMcpServers({ port: Number(values.port), host: values.host });
const lifetimeSeconds = Number(values['max-lifetime']);
console.log(`MCP test servers listening on http://${values.host}:${servers.port}`);
for (const [name, url] of Object.entries(servers.urls)) console.log(`  ${name.padEnd(23)} ${url}`);
console.log(`Stops on Ctrl+C, when its parent process exits, or by itself after ${lifetimeSeconds} s.`);

/** @param {string} reason */
async function stop(reason) {
  console.log(`Stopping MCP test servers (${reason}).`);
  await servers.stop();
  process.exit(0);
}

process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
// A forgotten server stops by itself: after its lifetime, or once whatever started it is gone
// (an orphan is re-parented, so its parent pid changes).
setTimeout(() => void stop(`max lifetime of ${lifetimeSeconds} s reached`), lifetimeSeconds * 1000).unref();
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stop('its parent process exited');
}, 1000).unref();
