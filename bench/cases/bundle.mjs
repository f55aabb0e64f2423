// @ts-check
/**
 * Case 4: what the first load costs on the wire. First load = the scripts and stylesheets that
 * index.html references (module script, modulepreload links, stylesheet links) plus every chunk
 * those scripts import statically, transitively. Lazy = every other .js (and .css) in assets/.
 * Sizes are gzip (zlib level 9, as `gzip -9`) in kB of 1000 bytes, like Vite's build report.
 */

import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { atMost } from '../report.mjs';

/** @param {Buffer | string} content */
const gzipKB = (content) => gzipSync(content, { level: 9 }).length / 1000;

/** Static imports in a minified ES module: `import{a}from"./x.js"`, `import"./y.js"`; not `import("./z.js")`. */
const staticImport = /(?:^|[;\s}])import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;

/**
 * @typedef {{ file: string, gzipKB: number }} Asset
 * @typedef {object} BundleResult
 * @property {number} firstLoadJsKB
 * @property {number} firstLoadCssKB
 * @property {number} lazyJsKB
 * @property {number} lazyCssKB
 * @property {Asset[]} firstLoad
 * @property {Asset[]} lazy
 */

/**
 * @param {string} outDir The build's output folder.
 * @returns {Promise<BundleResult>}
 */
export async function measureBundle(outDir) {
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  /** @type {Set<string>} */
  const first = new Set();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (match[1]) first.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href && /\brel="(modulepreload|stylesheet)"/.test(tag)) first.add(href);
  }
  // Follow static imports from the entry scripts.
  const queue = [...first].filter((file) => file.endsWith('.js'));
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.pop());
    const code = await readFile(join(outDir, file), 'utf8');
    for (const match of code.matchAll(staticImport)) {
      const target = posix.join(posix.dirname(file), match[1] ?? '');
      if (!first.has(target)) {
        first.add(target);
        queue.push(target);
      }
    }
  }
  const firstFiles = new Set([...first].map((file) => posix.normalize(file.replace(/^\//, ''))));

  const assetsDir = join(outDir, 'assets');
  const files = (await readdir(assetsDir)).filter((file) => /\.(js|css)$/.test(file)).sort();
  /** @type {Asset[]} */
  const firstLoad = [];
  /** @type {Asset[]} */
  const lazy = [];
  for (const name of files) {
    const file = `assets/${name}`;
    const asset = { file, gzipKB: gzipKB(await readFile(join(assetsDir, name))) };
    (firstFiles.has(file) ? firstLoad : lazy).push(asset);
  }
  /** @param {Asset[]} list @param {string} ext */
  const total = (list, ext) => list.filter((a) => a.file.endsWith(ext)).reduce((sum, a) => sum + a.gzipKB, 0);
  return {
    firstLoadJsKB: total(firstLoad, '.js'),
    firstLoadCssKB: total(firstLoad, '.css'),
    lazyJsKB: total(lazy, '.js'),
    lazyCssKB: total(lazy, '.css'),
    firstLoad,
    lazy: lazy.sort((a, b) => b.gzipKB - a.gzipKB),
  };
}

/**
 * The table (one build: median, min and max are the same figure).
 * @param {import('../report.mjs').CaseContext} ctx
 */
export async function bundleCase(ctx) {
  const bundle = await measureBundle(ctx.outDir);
  const largest = bundle.lazy
    .slice(0, 5)
    .map((asset) => `${asset.file.replace(/^assets\//, '')} ${asset.gzipKB.toFixed(1)}`)
    .join(', ');
  ctx.report.table(
    'Case 4: first load and lazy chunks (gzip, kB)',
    [
      {
        key: 'bundle.firstLoadJsKB',
        label: `first-load JS (${bundle.firstLoad.filter((a) => a.file.endsWith('.js')).length} files)`,
        values: [bundle.firstLoadJsKB],
        unit: ' kB',
        target: atMost(170, ' kB'),
      },
      {
        key: 'bundle.firstLoadCssKB',
        label: 'first-load CSS',
        values: [bundle.firstLoadCssKB],
        unit: ' kB',
      },
      {
        key: 'bundle.lazyJsKB',
        label: `lazy JS (${bundle.lazy.filter((a) => a.file.endsWith('.js')).length} chunks)`,
        values: [bundle.lazyJsKB],
        unit: ' kB',
      },
      { key: 'bundle.lazyCssKB', label: 'lazy CSS', values: [bundle.lazyCssKB], unit: ' kB' },
    ],
    [
      `first load: ${bundle.firstLoad.map((a) => `${a.file.replace(/^assets\//, '')} ${a.gzipKB.toFixed(1)}`).join(', ')}`,
      `largest lazy: ${largest || 'none'}`,
    ],
  );
}
