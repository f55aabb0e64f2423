// @ts-check
/* global window, document, requestAnimationFrame, HTMLElement */
/**
 * Case 12: the sidebar with 50 projects and 5,000 conversations (3,000 of them in the projects,
 * 60 each; 2,000 outside), against 10 conversations and no project. Each profile is seeded once
 * (small conversations: 4 messages, about 6 KB), loaded once so the app upgrades its database,
 * and then given its projects (bench/seed.mjs addProjects). Measured:
 *   - cold start, as case 3 measures it (cases/cold-start.mjs): navigation until the sidebar has
 *     a row and the active conversation (in a project) is painted; the ratio many / few;
 *   - switch: a click on a conversation row inside a project (the second project: the first is
 *     folded) until its last message is in view and painted, as case 2 measures it;
 *   - unfold: a click on the folded first project until its first conversation row is painted.
 */

import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchPersistent, watchErrors } from '../browser.mjs';
import { installSwitchProbe } from '../probes.mjs';
import { atMost } from '../report.mjs';
import { addProjects, appStorage, seed } from '../seed.mjs';
import { pluck, sleep } from '../stats.mjs';
import { activeId, activeName, marker, measureColdStart } from './cold-start.mjs';

const projectCount = 50;
const perProject = 60;
const outside = 2000;
const switchName = 'Switch target in a project';
const switchMarker = 'END-OF-SWITCH-TARGET';

/** @param {number} index */
const projectId = (index) => `bench-project-${index + 1}`;
/** @param {number} index */
const projectName = (index) => `Project ${String(index + 1).padStart(2, '0')}`;

/**
 * The conversations of a profile: `projects` projects of `perProject` each, then the rest, the
 * active one (in the first project) and the switch target (the second's newest) created last;
 * without projects, the same two among the rest.
 * @param {number} size @param {number} projects
 * @returns {import('../seed.mjs').ConversationPlan[]}
 */
function plans(size, projects) {
  const inProjects = projects * perProject;
  /** @type {import('../seed.mjs').ConversationPlan[]} */
  const list = Array.from({ length: size - 2 }, (_, index) => ({
    id: `bench-projects-${index}`,
    name: `Stored conversation ${index + 1}`,
    messageCount: 4,
    seed: index,
    ...(index < inProjects && { projectId: projectId(index % projects) }),
  }));
  list.push({
    id: activeId,
    name: activeName,
    messageCount: 4,
    seed: 0,
    marker,
    ...(projects > 0 && { projectId: projectId(0) }),
  });
  list.push({
    id: 'bench-switch',
    name: switchName,
    messageCount: 40,
    seed: 1,
    marker: switchMarker,
    ...(projects > 0 && { projectId: projectId(1) }),
  });
  return list;
}

/**
 * A profile on disk: seeded, loaded once (the database upgraded), then given its projects, the
 * first folded.
 * @param {import('../report.mjs').CaseContext} ctx @param {number} size @param {number} projects
 */
async function prepare(ctx, size, projects) {
  const dir = await mkdtemp(join(tmpdir(), `ai-chat-bench-projects-${size}-`));
  ctx.onCleanup(() => rm(dir, { recursive: true, force: true }));
  const context = await launchPersistent(dir);
  try {
    const { chars } = await seed(context, ctx.appUrl, {
      localStorage: appStorage(ctx.mockUrl, 'ok.bench', activeId),
      conversations: plans(size, projects),
    });
    const page = await context.newPage();
    watchErrors(page, ctx.errors);
    await page.goto(`${ctx.appUrl}/`);
    await page.getByTestId('conversation-row').first().waitFor({ timeout: 120_000 });
    const list = Array.from({ length: projects }, (_, index) => ({
      id: projectId(index),
      name: projectName(index),
      folded: index === 0,
    }));
    await page.evaluate(addProjects, list);
    return { dir, megabytes: chars / 1e6 };
  } finally {
    await context.close();
  }
}

/**
 * Opens a copy of the profile (the clicks change the active conversation and unfold a project),
 * then clicks the switch target's row, then (`unfold`) the folded first project.
 * @param {import('../report.mjs').CaseContext} ctx @param {string} profile @param {boolean} unfold
 * @returns {Promise<{ switchMs: number, unfoldMs: number }>}
 */
async function clicks(ctx, profile, unfold) {
  const dir = `${profile}-clicks`;
  await cp(profile, dir, { recursive: true });
  const context = await launchPersistent(dir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watchErrors(page, ctx.errors);
    await page.goto(`${ctx.appUrl}/`);
    await page.getByText(marker).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await sleep(1000);

    await page.evaluate(installSwitchProbe, { marker: switchMarker });
    await page
      .getByTestId('conversation-row')
      .filter({ hasText: switchName })
      .getByRole('button')
      .first()
      .click();
    await page.waitForFunction(
      () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchSwitch?.paintedAt != null,
      undefined,
      { polling: 100, timeout: 20_000 },
    );
    const probe = await page.evaluate(
      () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchSwitch,
    );
    const switchMs = (probe?.paintedAt ?? Number.NaN) - (probe?.clickAt ?? Number.NaN);

    if (!unfold) return { switchMs, unfoldMs: Number.NaN };
    await sleep(500);
    const first = projectName(0);
    const unfoldMs = await page.evaluate(
      (name) =>
        new Promise((resolve) => {
          const button = [
            ...document.querySelectorAll('[data-testid=project-row] button[aria-expanded]'),
          ].find((element) => element.textContent?.includes(name));
          if (!(button instanceof HTMLElement)) return resolve(Number.NaN);
          const start = performance.now();
          const check = () => {
            // The first project's rows come right after its own row.
            const row = button.closest('li')?.nextElementSibling;
            if (row?.getAttribute('data-testid') !== 'conversation-row') return requestAnimationFrame(check);
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.now() - start);
            channel.port2.postMessage(null);
          };
          button.click();
          requestAnimationFrame(check);
        }),
      first,
    );
    return { switchMs, unfoldMs: Number(unfoldMs) };
  } finally {
    await context.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** @param {import('../report.mjs').CaseContext} ctx */
export async function projectsCase(ctx) {
  const env = { appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  const many = projectCount * perProject + outside;
  ctx.progress(`case 12: seeding ${many} conversations in ${projectCount} projects`);
  const manyProfile = await prepare(ctx, many, projectCount);
  ctx.progress('case 12: seeding 10 conversations');
  const fewProfile = await prepare(ctx, 10, 0);
  /** @type {{ startMs: number }[]} */
  const few = [];
  /** @type {{ startMs: number }[]} */
  const manyStarts = [];
  /** @type {{ switchMs: number, unfoldMs: number }[]} */
  const clicked = [];
  /** @type {{ switchMs: number, unfoldMs: number }[]} */
  const fewClicked = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 12, run ${run}/${ctx.runs}`);
    few.push(await measureColdStart(env, { size: 10, ...fewProfile }));
    manyStarts.push(await measureColdStart(env, { size: many, ...manyProfile }));
    fewClicked.push(await clicks(ctx, fewProfile.dir, false));
    clicked.push(await clicks(ctx, manyProfile.dir, true));
  }
  ctx.report.table(
    `Case 12: ${projectCount} projects and ${many} conversations (${manyProfile.megabytes.toFixed(0)} MB of text) vs 10 conversations`,
    [
      {
        key: 'projects.coldFewMs',
        label: 'cold start: navigation to sidebar + active shown, 10',
        values: pluck(few, (r) => r.startMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'projects.coldManyMs',
        label: `cold start, ${projectCount} projects and ${many}`,
        values: pluck(manyStarts, (r) => r.startMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'projects.coldRatio',
        label: `cold start, ${many} in projects / 10`,
        values: manyStarts.map((r, index) => r.startMs / (few[index]?.startMs ?? Number.NaN)),
        digits: 2,
        target: atMost(1.5),
      },
      {
        key: 'projects.switchMs',
        label: 'click on a row in a project to its latest message painted',
        values: pluck(clicked, (r) => r.switchMs),
        digits: 0,
        unit: ' ms',
        target: atMost(150, ' ms'),
      },
      {
        key: 'projects.switchFewMs',
        label: '  the same click with 10 conversations and no project',
        values: pluck(fewClicked, (r) => r.switchMs),
        digits: 0,
        unit: ' ms',
      },
      {
        key: 'projects.unfoldMs',
        label: `click on a folded project (${perProject} conversations) to its rows painted`,
        values: pluck(clicked, (r) => r.unfoldMs),
        digits: 0,
        unit: ' ms',
        target: atMost(100, ' ms'),
      },
    ],
  );
}
