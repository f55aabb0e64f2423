// @ts-check
/* global indexedDB */
/**
 * Case 8: an automatic backup of 1000 stored conversations (~52 MB of text, the cold-start
 * case's profile), and restoring it. Each run, on its own browser launch of a copy of the profile,
 * once its first start has upgraded the database (and its backup from before is dropped):
 *   1. the Import tab's 'Back up now': from the click until its status says the backup is taken
 *      (the worker reads the database, writes the export gzipped and stores it); long tasks on the
 *      page's main thread meanwhile, and the backup's size against the text it holds;
 *   2. 'Restore' on it: from the click until the toast says it is restored (the whole export is
 *      read back and replaces everything, as an import does), and the long tasks meanwhile.
 */

import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchPersistent, watchErrors } from '../browser.mjs';
import { atMost } from '../report.mjs';
import { pluck } from '../stats.mjs';
import { prepareColdProfile, removeColdProfile } from './cold-start.mjs';
import { longTaskProbeInit, longTasksBetween } from '../probes.mjs';

/** @param {import('@playwright/test').Page} page */
const now = (page) => page.evaluate(() => performance.now());

/**
 * @param {import('../report.mjs').CaseContext} ctx @param {{ coldSizes: { many: number } }} settings
 */
export async function backupCase(ctx, settings) {
  const env = { appUrl: ctx.appUrl, mockUrl: ctx.mockUrl, errors: ctx.errors };
  const size = settings.coldSizes.many;
  ctx.progress(`case 8: seeding ${size} conversations`);
  const profile = await prepareColdProfile(env, size);
  ctx.onCleanup(() => removeColdProfile(profile));
  /** @type {{ backupMs: number, backupTasks: number, backupLongest: number, megabytes: number, restoreMs: number, restoreTasks: number, restoreLongest: number }[]} */
  const results = [];
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.progress(`case 8, run ${run}/${ctx.runs}`);
    // A copy, so every run starts without backups and with the same conversations.
    const dir = await mkdtemp(join(tmpdir(), 'ai-chat-bench-backup-'));
    await cp(profile.dir, dir, { recursive: true });
    const context = await launchPersistent(dir);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      watchErrors(page, env.errors);
      await context.addInitScript(longTaskProbeInit);
      // The seeded database is of an earlier version: its first start upgrades it, after a backup
      // of it. That one is dropped, so the backup timed here is taken from scratch.
      await page.goto(`${env.appUrl}/`);
      await page.getByTestId('conversation-row').first().waitFor({ timeout: 120_000 });
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const request = indexedDB.deleteDatabase('ai-chat-backups');
            request.onsuccess = request.onerror = request.onblocked = resolve;
          }),
      );
      await page.reload();
      await page.getByTestId('conversation-row').first().waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Import / Export' }).click();
      await page.getByRole('tab', { name: 'Import' }).click();
      await page.getByText('No backups yet.').waitFor({ timeout: 30_000 });

      const backupStart = await now(page);
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByRole('status').filter({ hasText: 'Backup taken.' }).waitFor({ timeout: 180_000 });
      const backupEnd = await now(page);
      const backupTasks = await longTasksBetween(page, backupStart, backupEnd);
      const bytes = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const open = indexedDB.open('ai-chat-backups');
            open.onsuccess = () => {
              const request = open.result.transaction('backups').objectStore('backups').getAll();
              request.onsuccess = () => resolve(request.result[0]?.bytes ?? 0);
            };
          }),
      );

      const restoreStart = await now(page);
      await page
        .getByRole('list', { name: 'Backups' })
        .getByRole('button', { name: 'Restore' })
        .first()
        .click();
      await page
        .locator('[data-sonner-toast]')
        .filter({ hasText: 'Backup restored' })
        .waitFor({ timeout: 180_000 });
      const restoreEnd = await now(page);
      const restoreTasks = await longTasksBetween(page, restoreStart, restoreEnd);
      results.push({
        backupMs: backupEnd - backupStart,
        backupTasks: backupTasks.count,
        backupLongest: backupTasks.longest,
        megabytes: Number(bytes) / 1e6,
        restoreMs: restoreEnd - restoreStart,
        restoreTasks: restoreTasks.count,
        restoreLongest: restoreTasks.longest,
      });
    } finally {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  ctx.report.table(`Case 8: a backup of ${size} conversations (${profile.megabytes.toFixed(0)} MB of text)`, [
    {
      key: 'backup.takenMs',
      label: "'Back up now' until taken",
      values: pluck(results, (r) => r.backupMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'backup.longTasks',
      label: '  long tasks on the page meanwhile',
      values: pluck(results, (r) => r.backupTasks),
      digits: 0,
      target: atMost(0),
    },
    {
      key: 'backup.longestMs',
      label: '  the longest of them',
      values: pluck(results, (r) => r.backupLongest),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'backup.megabytes',
      label: '  stored (gzipped), MB',
      values: pluck(results, (r) => r.megabytes),
      digits: 1,
    },
    {
      key: 'backup.restoreMs',
      label: "'Restore' until restored",
      values: pluck(results, (r) => r.restoreMs),
      digits: 0,
      unit: ' ms',
    },
    {
      key: 'backup.restoreLongTasks',
      label: '  long tasks on the page meanwhile',
      values: pluck(results, (r) => r.restoreTasks),
      digits: 0,
    },
    {
      key: 'backup.restoreLongestMs',
      label: '  the longest of them',
      values: pluck(results, (r) => r.restoreLongest),
      digits: 0,
      unit: ' ms',
    },
  ]);
}
