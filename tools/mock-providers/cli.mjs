#!/usr/bin/env node
// @ts-check
/** `node tools/mock-providers/cli.mjs [--port 4319] [--token-delay 20] [--max-lifetime 3600] [--help]` */

import { parseArgs } from 'node:util';
import { scenarioHelp, startMockProviders } from './server.mjs';

const options = /** @type {const} */ ({
  port: { type: 'string', default: '4319' },
  'token-delay': { type: 'string', default: '20' },
  'max-lifetime': { type: 'string', default: '3600' },
  help: { type: 'boolean', short: 'h', default: false },
});

function scenarioLines() {
  return Object.entries(scenarioHelp).map(([name, help]) => `  ${name.padEnd(17)} ${help}`);
}

const usage = [
  'Usage: node tools/mock-providers/cli.mjs [options]',
  '',
  'A loopback server that behaves like the OpenAI, Azure OpenAI, Anthropic, Gemini and Groq APIs',
  'on their real paths, and like a keyless local OpenAI-compatible server (Ollama) under /local/<scenario>/v1.',
  '',
  'Options:',
  '  --port <n>           port to listen on (default 4319)',
  '  --token-delay <ms>   pause between streamed chunks (default 20)',
  '  --max-lifetime <s>   stop by itself after this long (default 3600)',
  '  -h, --help           print this help',
  '',
  "Scenarios: the API key picks one (the part before the first '.', e.g. ok.demo):",
  ...scenarioLines(),
  '',
  'Recorded requests: GET /__mock/requests?key=<key>, DELETE /__mock/requests.',
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

const mock = await startMockProviders({
  port: Number(values.port),
  tokenDelayMs: Number(values['token-delay']),
});
const lifetimeSeconds = Number(values['max-lifetime']);
console.log(`Mock providers listening on ${mock.url}`);
console.log(
  `Set the base URL of any provider to ${mock.url}. The API key picks a scenario (the part before the first '.', e.g. ok.demo):`,
);
for (const line of scenarioLines()) console.log(line);
console.log(
  'Any other key is refused as invalid. Recorded requests: GET /__mock/requests?key=<key>, DELETE /__mock/requests.',
);
console.log(`Stops on Ctrl+C, or by itself after ${lifetimeSeconds} s.`);

/** @param {string} reason */
async function stop(reason) {
  console.log(`Stopping mock providers (${reason}).`);
  await mock.close();
  process.exit(0);
}

process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
// A forgotten server stops by itself.
setTimeout(() => void stop(`max lifetime of ${lifetimeSeconds} s reached`), lifetimeSeconds * 1000).unref();
