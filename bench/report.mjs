// @ts-check
/** Readable tables (median, min, max, target, pass/fail) and the machine-readable medians. */

import { summarize } from './stats.mjs';

/**
 * What every case gets from run.mjs.
 * @typedef {object} CaseContext
 * @property {Report} report
 * @property {number} runs
 * @property {(message: string) => void} progress
 * @property {string[]} errors Page errors and oddities, printed at the end.
 * @property {import('@playwright/test').Browser} browser
 * @property {string} appUrl
 * @property {string} mockUrl
 * @property {string} referenceUrl
 * @property {string} outDir The build.
 * @property {(step: () => Promise<unknown>) => void} onCleanup Runs at the end, also on failure.
 *
 * @typedef {object} Row
 * @property {string} key Name in the BENCH_JSON line.
 * @property {string} label
 * @property {number[]} values One per run.
 * @property {string} [unit]
 * @property {number} [scale] Display multiplier (100 for a share shown in %).
 * @property {number} [digits]
 * @property {{ text: string, pass: (median: number) => boolean }} [target]
 */

/**
 * Collects rows per case and prints them.
 */
export class Report {
  /** @type {Record<string, number>} */
  medians = {};
  /** @type {{ label: string, pass: boolean }[]} */
  verdicts = [];

  /**
   * @param {string} title @param {Row[]} rows @param {string[]} [notes]
   */
  table(title, rows, notes = []) {
    const header = ['Metric', 'median', 'min', 'max', 'target', 'result'];
    /** @type {string[][]} */
    const body = [];
    for (const row of rows) {
      const stats = summarize(row.values);
      const scale = row.scale ?? 1;
      const digits = row.digits ?? 1;
      const unit = row.unit ?? '';
      /** @param {number} value */
      const show = (value) => (Number.isFinite(value) ? `${(value * scale).toFixed(digits)}${unit}` : 'n/a');
      // A run without a figure (the awaited state never came) fails the target.
      const missing = row.values.length - stats.count;
      let result = missing > 0 ? `${missing} run(s) n/a` : '';
      if (row.target) {
        const pass = missing === 0 && Number.isFinite(stats.median) && row.target.pass(stats.median);
        result = `${pass ? 'PASS' : 'FAIL'}${missing > 0 ? ` (${result})` : ''}`;
        this.verdicts.push({ label: `${title.split(':')[0]}: ${row.label.trim()}`, pass });
      }
      this.medians[row.key] = Number.isFinite(stats.median)
        ? Number(stats.median.toPrecision(6))
        : Number.NaN;
      body.push([
        row.label,
        show(stats.median),
        show(stats.min),
        show(stats.max),
        row.target?.text ?? '',
        result,
      ]);
    }
    const widths = header.map((_, column) =>
      Math.max(...[header, ...body].map((line) => (line[column] ?? '').length)),
    );
    /** @param {string[]} line */
    const format = (line) =>
      line
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd();
    console.log(`\n${title}`);
    console.log(format(header));
    console.log(widths.map((width) => '-'.repeat(width)).join('  '));
    for (const line of body) console.log(format(line));
    for (const note of notes) console.log(`  ${note}`);
  }

  /**
   * A case that could not finish: counted as a missed target.
   * @param {string} title @param {unknown} error
   */
  failed(title, error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`\n${title}: FAILED\n  ${message.split('\n').slice(0, 6).join('\n  ')}`);
    this.verdicts.push({ label: `${title}: did not complete`, pass: false });
  }

  /** @param {Record<string, unknown>} extra */
  finish(extra) {
    const failed = this.verdicts.filter((verdict) => !verdict.pass);
    console.log(
      `\nTargets: ${this.verdicts.length - failed.length} of ${this.verdicts.length} met` +
        (failed.length > 0 ? `; missed: ${failed.map((verdict) => verdict.label).join('; ')}` : ''),
    );
    const medians = Object.fromEntries(
      Object.entries(this.medians).map(([key, value]) => [key, Number.isFinite(value) ? value : null]),
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({ ...extra, targetsMet: this.verdicts.length - failed.length, targets: this.verdicts.length, medians })}`,
    );
  }
}

/** @param {number} limit @returns {Row['target']} */
export const atMost = (limit, unit = '') => ({ text: `<= ${limit}${unit}`, pass: (value) => value <= limit });
/** @param {number} limit @returns {Row['target']} */
export const atLeast = (limit, unit = '') => ({
  text: `>= ${limit}${unit}`,
  pass: (value) => value >= limit,
});
