// @ts-check
/* global window */
/**
 * Case 3: cold start with many stored conversations against few. Each size gets its own browser
 * profile on disk, seeded once (about 52 KB per conversation: 18 messages with markdown replies)
 * and loaded once to warm up (so a storage migration by the app, if any, is not timed). Each timed
 * run launches the browser on that profile and loads the app: from navigation start until the
 * sidebar has a row and a message of the active conversation is painted (probes.mjs
 * coldStartProbeInit, checked once per animation frame); also until its last message is in view,
 * shown apart so that a scroll-position problem does not read as a slow start.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchPersistent, watchErrors } from '../browser.mjs';
import { coldStartProbeInit } from '../probes.mjs';
import { atMost } from '../report.mjs';
import { appStorage, seed } from '../seed.mjs';
import { pluck } from '../stats.mjs';

/**
 * @typedef {object} ColdEnv
 * @property {string} appUrl
 * @property {string} mockUrl
 * @property {string[]} errors
 *
 * @typedef {{ size: number, dir: string, megabytes: number }} ColdProfile
 * @typedef {{ startMs: number, rowsMs: number, lastMs: number }} ColdResult
 *   lastMs: NaN when the last message never came into view.
 */

/** The active conversation: what the probe waits for (projects.mjs seeds one too). */
export const marker = 'END-OF-ACTIVE-CONVERSATION';
export const activeId = 'bench-cold-active';
export const activeName = 'Active conversation';

/**
 * Launches the profile, loads the app and waits for the probe.
 * @param {ColdEnv} env @param {string} dir
 * @returns {Promise<ColdResult>}
 */
async function load(env, dir) {
  const context = await launchPersistent(dir);
  try {
    await context.addInitScript(coldStartProbeInit, { name: activeName, marker });
    const page = context.pages()[0] ?? (await context.newPage());
    watchErrors(page, env.errors);
    await page.goto(`${env.appUrl}/`);
    await page.waitForFunction(
      () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchCold?.paintedAt != null,
      undefined,
      { polling: 100, timeout: 120_000 },
    );
    const lastShown = await page
      .waitForFunction(
        () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchCold?.lastAt != null,
        undefined,
        { polling: 100, timeout: 10_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (!lastShown)
      env.errors.push('cold start: the active conversation opened without its last message in view');
    const probe = await page.evaluate(
      () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchCold,
    );
    if (!probe || probe.paintedAt === null || probe.rowsAt === null)
      throw new Error('The cold start was not observed');
    return { startMs: probe.paintedAt, rowsMs: probe.rowsAt, lastMs: probe.lastAt ?? Number.NaN };
  } finally {
    await context.close();
  }
}

/**
 * Creates and seeds a profile holding `size` conversations, the active one created last.
 * @param {ColdEnv} env @param {number} size
 * @returns {Promise<ColdProfile>}
 */
export async function prepareColdProfile(env, size) {
  const dir = await mkdtemp(join(tmpdir(), `ai-chat-bench-cold-${size}-`));
  /** @type {import('../seed.mjs').ConversationPlan[]} */
  const conversations = Array.from({ length: size - 1 }, (_, index) => ({
    id: `bench-cold-${index}`,
    name: `Stored conversation ${index + 1}`,
    messageCount: 18,
    sections: 2,
    seed: index,
  }));
  conversations.push({
    id: activeId,
    name: activeName,
    messageCount: 18,
    sections: 2,
    seed: 0,
    marker,
  });
  try {
    const context = await launchPersistent(dir);
    const { chars } = await seed(context, env.appUrl, {
      localStorage: appStorage(env.mockUrl, 'ok.bench', activeId),
      conversations,
    }).finally(() => context.close());
    await load(env, dir);
    return { size, dir, megabytes: chars / 1e6 };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** @param {ColdEnv} env @param {ColdProfile} profile */
export const measureColdStart = (env, profile) => load(env, profile.dir);

/** @param {ColdProfile} profile */
export const removeColdProfile = (profile) => rm(profile.dir, { recursive: true, force: true });

/**
 * The runs (few and many alternate) and the table.
 * @param {import('../report.mjs').CaseContext} ctx @param {{ coldSizes: { few: number, many: number } }} settings
 */
export async function coldStartCase(ctx, settings) {
  const env = { appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  const { few, many } = settings.coldSizes;
  ctx.progress(`case 3: seeding ${many} conversations`);
  const manyProfile = await prepareColdProfile(env, many);
  ctx.onCleanup(() => removeColdProfile(manyProfile));
  ctx.progress(`case 3: seeding ${few} conversations`);
  const fewProfile = await prepareColdProfile(env, few);
  ctx.onCleanup(() => removeColdProfile(fewProfile));
  /** @type {ColdResult[]} */
  const fewResults = [];
  /** @type {ColdResult[]} */
  const manyResults = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 3, run ${run}/${ctx.runs}`);
    fewResults.push(await measureColdStart(env, fewProfile));
    manyResults.push(await measureColdStart(env, manyProfile));
  }
  ctx.report.table(
    `Case 3: cold start with ${many} conversations (${manyProfile.megabytes.toFixed(0)} MB of text) vs ${few}`,
    [
      {
        key: 'cold.fewMs',
        label: `navigation to sidebar + active shown: ${few}`,
        values: pluck(fewResults, (r) => r.startMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'cold.manyMs',
        label: `navigation to sidebar + active shown: ${many}`,
        values: pluck(manyResults, (r) => r.startMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'cold.fewLastMs',
        label: `  latest message in view: ${few}`,
        values: pluck(fewResults, (r) => r.lastMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'cold.manyLastMs',
        label: `  latest message in view: ${many}`,
        values: pluck(manyResults, (r) => r.lastMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'cold.manyRowsMs',
        label: `  first sidebar row in DOM: ${many}`,
        values: pluck(manyResults, (r) => r.rowsMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'cold.ratio',
        label: `cold start, ${many} / ${few}`,
        values: manyResults.map((r, index) => r.startMs / (fewResults[index]?.startMs ?? Number.NaN)),
        digits: 2,
        target: atMost(1.5),
      },
    ],
  );
}
