// @ts-check
/**
 * The performance benchmark of issue 5.
 *
 *   npm run bench                      3 runs per case: median, min and max
 *   npm run bench -- --quick           1 run, a ~1500-token reply, 50 prior messages
 *   npm run bench -- --runs=5          another number of runs
 *   npm run bench -- --only=stream,switch,cold,bundle,attach,search,import,backup,text,tools,artifact,projects,compare,sync
 *                                      some cases only
 *
 * It builds the app with vite into a temporary folder, serves it with `vite preview`, starts the
 * mock provider APIs (tools/mock-providers) at 50 chunks per second and a reference page, all on
 * 127.0.0.1 and free ports, drives headless Debian Chromium (CHROMIUM_PATH overrides
 * /usr/bin/chromium) and prints a table per case, then one line `BENCH_JSON {...}` with every
 * median, to compare commits. Everything it starts is stopped at the end, also on error, and a
 * watchdog ends a run that hangs. Progress goes to stderr, results to stdout.
 *
 * Cases (how each figure is measured is described at the top of each module):
 *   1. cases/streaming.mjs  a long markdown reply streamed into the app (0 and N prior messages;
 *                           thinking first; with formulas and diagrams; researched: web search
 *                           citations and a drawn picture; beside an open React artifact panel)
 *                           and into the reference page that only appends raw text to a <pre>;
 *                           cases/streaming-case.mjs runs it and prints the table
 *   2. cases/switch.mjs     switching to a conversation of 1000 messages
 *   3. cases/cold-start.mjs cold start with 1000 stored conversations (~50 MB) against 10
 *   4. cases/bundle.mjs     first-load JS and CSS (gzip) and the lazy chunks
 *   5. cases/attach.mjs     attaching a 12-megapixel photo: the main thread while it is resized
 *   6. cases/search.mjs     search over the 1000 conversations: index build, saved-index start, queries
 *   7. cases/import.mjs     importing a 200 MB ChatGPT export (ZIP): the main thread meanwhile
 *   8. cases/backup.mjs     a backup of the 1000 conversations, and restoring it
 *   9. cases/hostile-text.mjs  the text functions on hostile and large input (Node): the speed
 *                           targets the unit tests used to assert
 *  10. cases/tools.mjs      a reply with 10 tool calls and their results against plain text of the
 *                           same length: main-thread busy time, A/B, long tasks
 *  11. cases/artifact.mjs   opening a 400-line React artifact (artifact-source.mjs) in the panel:
 *                           click to the frame's first 'rendered', the panel's paint, transpile and
 *                           render in the frame, long tasks; a second open in the same page
 *  12. cases/projects.mjs   50 projects and 5,000 conversations in the sidebar: cold start against
 *                           10 conversations, a switch to a conversation in a project, unfolding one
 *  13. cases/compare.mjs    four replies streaming at once (Compare: OpenAI, Claude, Gemini, Groq side
 *                           by side) against one reply, the same run: main-thread busy, four / one,
 *                           long tasks, frames
 *  14. cases/sync.mjs       sync with a CouchDB server (pouchdb-server in memory): the first sync of
 *                           the 1000 conversations (time to 'Synced' and to all on the server, bytes,
 *                           requests, long tasks), then a reply a second (reply end to its revision on
 *                           the server, bytes and requests per reply, long tasks)
 * Shared: serve.mjs (servers), browser.mjs (Chromium, CDP), seed.mjs (IndexedDB records),
 * artifact-source.mjs (React artifacts),
 * probes.mjs (in-page instrumentation), reference-page.mjs, report.mjs, stats.mjs.
 * A case that fails is reported as such and the others still run; the exit code is then 1.
 *
 * The machine is shared: the notes under case 1 give its load average. Busy share is wall-clock
 * task time, which other processes inflate; the CPU-time rows beside it are steadier.
 */

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';
import { artifactCase } from './cases/artifact.mjs';
import { attachCase } from './cases/attach.mjs';
import { backupCase } from './cases/backup.mjs';
import { bundleCase } from './cases/bundle.mjs';
import { compareCase } from './cases/compare.mjs';
import { coldStartCase } from './cases/cold-start.mjs';
import { hostileTextCase } from './cases/hostile-text.mjs';
import { importCase } from './cases/import.mjs';
import { projectsCase } from './cases/projects.mjs';
import { searchCase } from './cases/search.mjs';
import { streamingCase } from './cases/streaming-case.mjs';
import { switchCase } from './cases/switch.mjs';
import { syncCase } from './cases/sync.mjs';
import { toolsCase } from './cases/tools.mjs';
import { Report } from './report.mjs';
import { buildApp, serveApp, serveMock, serveReference } from './serve.mjs';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const runsArg = argv.find((arg) => arg.startsWith('--runs='));
const onlyArg = argv.find((arg) => arg.startsWith('--only='));
const runs = runsArg ? Math.max(1, Number(runsArg.slice(7)) || 1) : quick ? 1 : 3;
const cases = new Set(
  (onlyArg
    ? onlyArg.slice(7)
    : 'stream,switch,cold,bundle,attach,search,import,backup,text,tools,artifact,projects,compare,sync'
  ).split(','),
);

const settings = {
  tokenDelayMs: 20,
  apiKey: quick ? 'markdown.bench' : 'long.bench',
  thinkingKey: 'long-thinking.bench',
  richKey: 'long-rich.bench',
  researchedKey: 'long-researched.bench',
  replyTokens: quick ? 1500 : 6000,
  prior: quick ? 50 : 200,
  switchMessages: 1000,
  branchPoints: 50,
  coldSizes: { few: 10, many: 1000 },
};

const root = fileURLToPath(new URL('..', import.meta.url));
/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
/** @type {string[]} */
const errors = [];

/** @param {string} message */
const progress = (message) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

async function cleanup() {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try {
      await step?.();
    } catch (error) {
      progress(`cleanup failed: ${String(error)}`);
    }
  }
}

const watchdogMinutes = quick ? 25 : 120;
setTimeout(() => {
  progress(`gave up after ${watchdogMinutes} minutes`);
  void cleanup().finally(() => process.exit(2));
}, watchdogMinutes * 60_000).unref();
process.once('unhandledRejection', (error) => {
  progress(`unexpected failure: ${String(error)}`);
  void cleanup().finally(() => process.exit(1));
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  const report = new Report();
  const work = await mkdtemp(join(tmpdir(), 'ai-chat-bench-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  const outDir = join(work, 'dist');

  progress('building the app (vite)');
  await buildApp(root, outDir);
  const app = await serveApp(root, outDir);
  cleanups.push(app.close);
  const mock = await serveMock(settings.tokenDelayMs);
  cleanups.push(mock.close);
  const reference = await serveReference({ mockUrl: mock.url, apiKey: settings.apiKey });
  cleanups.push(reference.close);
  progress(`app ${app.url}, mock ${mock.url}, reference ${reference.url}`);

  const browser = await launchBrowser();
  cleanups.push(() => browser.close());
  progress(`Chromium ${browser.version()}, ${runs} run(s)${quick ? ', quick' : ''}`);

  /** @type {import('./report.mjs').CaseContext} */
  const ctx = {
    report,
    runs,
    progress,
    errors,
    browser,
    appUrl: app.url,
    mockUrl: mock.url,
    referenceUrl: reference.url,
    outDir,
    onCleanup: (step) => cleanups.push(step),
  };
  /** @type {[string, string, () => Promise<void>][]} */
  const steps = [
    ['stream', 'Case 1 (streaming)', () => streamingCase(ctx, settings)],
    ['switch', 'Case 2 (switch)', () => switchCase(ctx, settings)],
    ['cold', 'Case 3 (cold start)', () => coldStartCase(ctx, settings)],
    ['bundle', 'Case 4 (bundle)', () => bundleCase(ctx)],
    ['attach', 'Case 5 (attach a photo)', () => attachCase(ctx)],
    ['search', 'Case 6 (search)', () => searchCase(ctx, settings)],
    ['import', 'Case 7 (import another app)', () => importCase(ctx)],
    ['backup', 'Case 8 (backup and restore)', () => backupCase(ctx, settings)],
    ['text', 'Case 9 (text functions)', () => hostileTextCase(ctx, root)],
    ['tools', 'Case 10 (tool calls)', () => toolsCase(ctx, settings)],
    ['artifact', 'Case 11 (open a React artifact)', () => artifactCase(ctx)],
    ['projects', 'Case 12 (projects in the sidebar)', () => projectsCase(ctx)],
    ['compare', 'Case 13 (four replies at once)', () => compareCase(ctx, settings)],
    ['sync', 'Case 14 (sync with CouchDB)', () => syncCase(ctx, settings)],
  ];
  for (const [name, title, step] of steps) {
    if (!cases.has(name)) continue;
    try {
      await step();
    } catch (error) {
      // One failing case does not cost the others' figures.
      process.exitCode = 1;
      report.failed(title, error);
    }
  }

  const notes = [...new Set(errors)];
  if (notes.length > 0) {
    console.log(`\nNotes from the pages (${notes.length} distinct, ${errors.length} in all; first 10):`);
    for (const note of notes.slice(0, 10)) console.log(`  ${note}`);
  }
  report.finish({
    mode: quick ? 'quick' : 'full',
    runs,
    commit: gitCommit(),
    date: new Date().toISOString(),
    replyTokens: settings.replyTokens,
    priorMessages: settings.prior,
  });
}

function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(error);
} finally {
  await cleanup();
}
