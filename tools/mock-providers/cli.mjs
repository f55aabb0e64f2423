#!/usr/bin/env node
// @ts-check
/** `node tools/mock-providers/cli.mjs [--port 4319] [--token-delay 20] [--max-lifetime 3600]` */

import { parseArgs } from 'node:util';
import { scenarioHelp, startMockProviders } from './server.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4319' },
    'token-delay': { type: 'string', default: '20' },
    'max-lifetime': { type: 'string', default: '3600' },
  },
});

const mock = await startMockProviders({
  port: Number(values.port),
  tokenDelayMs: Number(values['token-delay']),
});
const lifetimeSeconds = Number(values['max-lifetime']);
console.log(`Mock providers listening on ${mock.url}`);
console.log(
  `Set the base URL of any provider to ${mock.url}. The API key picks a scenario (the part before the first '.', e.g. ok.demo):`,
);
for (const [name, help] of Object.entries(scenarioHelp)) console.log(`  ${name.padEnd(12)} ${help}`);
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
