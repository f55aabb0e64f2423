// @ts-check
/**
 * Case 9: the app's text functions on hostile and large input, in Node (the modules loaded from
 * src/ through Vite). Each shape is one that a super-linear version of the function (a regex with
 * a backreference, a scan from every opener) took seconds on: a reply's 50,000 `<think>` tags
 * (13 s once), 20,000 code fences that never close (2 s), 100,000 backticks (4.5 s), 50,000 math
 * openers, and an export of 20,000 conversations to validate. The unit tests check what each
 * returns on these inputs; the time it takes is measured here, where a busy machine shows as a
 * slow figure rather than a failed test. The fastest of three tries per run.
 */

import { createServer } from 'vite';
import { atMost } from '../report.mjs';

/** @param {() => unknown} work @returns {number} the fastest of three runs, in ms */
function fastest(work) {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * @param {import('../report.mjs').CaseContext} ctx
 * @param {string} root
 */
export async function hostileTextCase(ctx, root) {
  ctx.progress('case 9: loading the text functions');
  const vite = await createServer({
    root,
    logLevel: 'warn',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
  });
  try {
    const load = (/** @type {string} */ path) => vite.ssrLoadModule(path);
    const { cleanTitle } = await load('/src/domain/auto-title.ts');
    const { lastCodeBlock } = await load('/src/domain/conversation-rules.ts');
    const { normalizeMath, hasMath } = await load('/src/domain/math-source.ts');
    const { parseImport } = await load('/src/domain/export-format.ts');

    const messages = Array.from({ length: 20 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    const bigExport = JSON.stringify({
      conversations: Array.from({ length: 20_000 }, (_, index) => ({
        id: `id${index}`,
        name: 'n',
        messages,
      })),
    });
    const now = new Date('2026-01-01T00:00:00.000Z');
    /** @type {[string, string, () => unknown, number][]} */
    const shapes = [
      [
        'text.thinkTags',
        'a title from 50,000 unclosed <think> tags',
        () => cleanTitle('<think>'.repeat(50_000) + 'x'),
        500,
      ],
      [
        'text.openFences',
        'the last code block of 20,000 unclosed fences',
        () => lastCodeBlock('```a\n'.repeat(20_000)),
        500,
      ],
      [
        'text.backticks',
        'math found after 100,000 backticks',
        () => hasMath(normalizeMath('`'.repeat(100_000) + ' $x$')),
        500,
      ],
      [
        'text.mathOpeners',
        '50,000 math openers that never close',
        () => normalizeMath('\\('.repeat(50_000)),
        500,
      ],
      [
        'text.export20k',
        'an export of 20,000 conversations validated',
        () => parseImport(bigExport, { now }),
        5000,
      ],
    ];
    /** @type {Record<string, number[]>} */
    const values = Object.fromEntries(shapes.map(([key]) => [key, []]));
    for (let run = 1; run <= ctx.runs; run++) {
      ctx.progress(`case 9, run ${run}/${ctx.runs}`);
      for (const [key, , work] of shapes) values[key]?.push(fastest(work));
    }
    ctx.report.table(
      'Case 9: text functions on hostile and large input (Node, fastest of 3 per run)',
      shapes.map(([key, label, , limit]) => ({
        key,
        label,
        values: values[key] ?? [],
        digits: 1,
        unit: ' ms',
        target: atMost(limit, ' ms'),
      })),
    );
  } finally {
    await vite.close();
  }
}
