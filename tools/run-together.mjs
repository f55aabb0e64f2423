// @ts-check
/**
 * Runs npm scripts side by side and fails if any fails: `npm test` checks lint, types, unit tests
 * and the build at once (most of their time is waiting on the disk, sockets and timers, so two
 * cores take them together in about the time of the longest). Each script's output is printed
 * whole when it ends, so the logs do not interleave.
 *
 * Usage: node tools/run-together.mjs <script> [<script>…]
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('Usage: node tools/run-together.mjs <npm script> [<npm script>…]');
  process.exit(2);
}

/** @param {string} script @returns {Promise<{ script: string, code: number, seconds: number }>} */
function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      process.stdout.write(
        `\n── ${script} (${seconds} s, exit ${code}) ──\n${Buffer.concat(output).toString()}`,
      );
      resolve({ script, code: code ?? 1, seconds });
    });
  });
}

const results = await Promise.all(scripts.map(run));
const failed = results.filter(({ code }) => code !== 0);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map(({ script, code }) => `${script} (exit ${code})`).join(', ')}`);
  process.exit(1);
}
