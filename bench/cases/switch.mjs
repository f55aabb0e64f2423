// @ts-check
/* global window */
/**
 * Case 2: switching to a conversation of N messages. A fresh profile holds a small active
 * conversation (with a markdown reply, so the renderer chunk is loaded as it would be), the big
 * one and a few others. Measured in the page (probes.mjs installSwitchProbe): from the click
 * event's timeStamp on the big conversation's sidebar row until its last message (recognised by a
 * marker) is in the message list, inside its visible area, and that frame is painted.
 */

import { contextOptions, watchErrors } from '../browser.mjs';
import { installSwitchProbe } from '../probes.mjs';
import { appStorage, seed } from '../seed.mjs';
import { atMost } from '../report.mjs';
import { pluck, sleep } from '../stats.mjs';

/**
 * @typedef {object} SwitchEnv
 * @property {import('@playwright/test').Browser} browser
 * @property {string} appUrl
 * @property {string} mockUrl
 * @property {number} messages
 * @property {number} branchPoints 0 for a linear conversation
 * @property {string[]} errors
 */

const bigName = 'Conversation with many messages';
const marker = 'END-OF-BIG-CONVERSATION';
const otherMarker = 'OTHER-VERSION-OF-THE-LAST-ANSWER';

/**
 * Clicks `target` and waits for the probe to see `probeMarker` painted in the message list.
 * @param {import('@playwright/test').Page} page @param {import('@playwright/test').Locator} target
 * @param {string} probeMarker @param {string[]} errors @param {string} what
 * @returns {Promise<{ switchMs: number, domMs: number }>}
 */
async function clickUntilPainted(page, target, probeMarker, errors, what) {
  await page.evaluate(installSwitchProbe, { marker: probeMarker });
  await target.click();
  const shown = await page
    .waitForFunction(
      () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchSwitch?.paintedAt != null,
      undefined,
      { polling: 100, timeout: 20_000 },
    )
    .then(
      () => true,
      () => false,
    );
  const probe = await page.evaluate(
    () => /** @type {import('../probes.mjs').BenchWindow} */ (window).__benchSwitch,
  );
  if (!probe || probe.clickAt === null) throw new Error(`The click (${what}) was not seen`);
  if (!shown || probe.paintedAt === null || probe.domAt === null) {
    errors.push(`${what}: the expected message was not in view 20 s after the click`);
    return { switchMs: Number.NaN, domMs: Number.NaN };
  }
  return { switchMs: probe.paintedAt - probe.clickAt, domMs: probe.domAt - probe.clickAt };
}

/**
 * @param {SwitchEnv} env
 * @returns {Promise<{ switchMs: number, domMs: number, versionMs: number }>}
 */
export async function measureSwitch(env) {
  const context = await env.browser.newContext(contextOptions);
  try {
    const others = Array.from({ length: 8 }, (_, index) => ({
      id: `bench-other-${index}`,
      name: `Other conversation ${index + 1}`,
      messageCount: 6,
      seed: index,
    }));
    await seed(context, env.appUrl, {
      localStorage: appStorage(env.mockUrl, 'ok.bench', 'bench-small'),
      conversations: [
        ...others.slice(0, 4),
        {
          id: 'bench-big',
          name: bigName,
          messageCount: env.messages,
          seed: 3,
          marker,
          branchPoints: env.branchPoints,
          otherMarker,
        },
        ...others.slice(4),
        { id: 'bench-small', name: 'Small conversation', messageCount: 4, seed: 2, marker: 'END-OF-SMALL' },
      ],
    });
    const page = await context.newPage();
    watchErrors(page, env.errors);
    await page.goto(`${env.appUrl}/`);
    await page.getByText('END-OF-SMALL').first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await sleep(1000);

    const row = page.getByTestId('conversation-row').filter({ hasText: bigName }).getByRole('button').first();
    await row.scrollIntoViewIfNeeded();
    const opened = await clickUntilPainted(page, row, marker, env.errors, 'switch');
    if (!env.branchPoints || Number.isNaN(opened.switchMs)) return { ...opened, versionMs: Number.NaN };
    await sleep(500);
    const last = page.getByTestId('message').last();
    await last.hover();
    const previous = last.getByRole('button', { name: 'Previous version' });
    const version = await clickUntilPainted(page, previous, otherMarker, env.errors, 'version switch');
    return { ...opened, versionMs: version.switchMs };
  } finally {
    await context.close();
  }
}

/**
 * The runs and the table.
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {{ switchMessages: number, branchPoints: number }} settings
 */
export async function switchCase(ctx, settings) {
  const env = {
    browser: ctx.browser,
    appUrl: ctx.appUrl,
    mockUrl: ctx.mockUrl,
    messages: settings.switchMessages,
    errors: ctx.errors,
  };
  /** @type {{ switchMs: number, domMs: number, versionMs: number }[]} */
  const linear = [];
  /** @type {{ switchMs: number, domMs: number, versionMs: number }[]} */
  const branched = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 2, run ${run}/${ctx.runs}: switch to ${settings.switchMessages} messages`);
    linear.push(await measureSwitch({ ...env, branchPoints: 0 }));
    ctx.progress(`case 2, run ${run}/${ctx.runs}: the same with ${settings.branchPoints} branch points`);
    branched.push(await measureSwitch({ ...env, branchPoints: settings.branchPoints }));
  }
  ctx.report.table(`Case 2: switching to a conversation of ${settings.switchMessages} messages`, [
    {
      key: 'switch.paintedMs',
      label: 'click to latest message painted',
      values: pluck(linear, (r) => r.switchMs),
      digits: 0,
      unit: ' ms',
      target: atMost(150, ' ms'),
    },
    {
      key: 'switch.domMs',
      label: '  click to latest message in DOM (frame start)',
      values: pluck(linear, (r) => r.domMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'switch.branchedPaintedMs',
      label: `the same with ${settings.branchPoints} branch points`,
      values: pluck(branched, (r) => r.switchMs),
      digits: 0,
      unit: ' ms',
      target: atMost(150, ' ms'),
    },
    {
      key: 'switch.versionPaintedMs',
      label: 'click on Previous version to the other version painted',
      values: pluck(branched, (r) => r.versionMs),
      digits: 0,
      unit: ' ms',
      target: atMost(50, ' ms'),
    },
  ]);
}
