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
 * @property {string[]} errors
 */

const bigName = 'Conversation with many messages';
const marker = 'END-OF-BIG-CONVERSATION';

/**
 * @param {SwitchEnv} env
 * @returns {Promise<{ switchMs: number, domMs: number }>}
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
        { id: 'bench-big', name: bigName, messageCount: env.messages, seed: 3, marker },
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
    await page.evaluate(installSwitchProbe, { marker });
    await row.click();
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
    if (!probe || probe.clickAt === null) throw new Error('The click on the sidebar row was not seen');
    if (!shown || probe.paintedAt === null || probe.domAt === null) {
      env.errors.push('switch: the last message was not in view 20 s after the click');
      return { switchMs: Number.NaN, domMs: Number.NaN };
    }
    return { switchMs: probe.paintedAt - probe.clickAt, domMs: probe.domAt - probe.clickAt };
  } finally {
    await context.close();
  }
}

/**
 * The runs and the table.
 * @param {import('../report.mjs').CaseContext} ctx @param {{ switchMessages: number }} settings
 */
export async function switchCase(ctx, settings) {
  const env = {
    browser: ctx.browser,
    appUrl: ctx.appUrl,
    mockUrl: ctx.mockUrl,
    messages: settings.switchMessages,
    errors: ctx.errors,
  };
  /** @type {{ switchMs: number, domMs: number }[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 2, run ${run}/${ctx.runs}: switch to ${settings.switchMessages} messages`);
    results.push(await measureSwitch(env));
  }
  ctx.report.table(`Case 2: switching to a conversation of ${settings.switchMessages} messages`, [
    {
      key: 'switch.paintedMs',
      label: 'click to latest message painted',
      values: pluck(results, (r) => r.switchMs),
      digits: 0,
      unit: ' ms',
      target: atMost(150, ' ms'),
    },
    {
      key: 'switch.domMs',
      label: '  click to latest message in DOM (frame start)',
      values: pluck(results, (r) => r.domMs),
      digits: 0,
      unit: ' ms',
    },
  ]);
}
