// @ts-check
/**
 * Fails when the JavaScript the first page load needs (the entry script and the modules it
 * preloads, gzip) exceeds the budget. Lazy chunks (markdown, highlighting) don't count.
 * Usage: node tools/check-bundle-size.mjs [distDir]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** 170 kB of 1000 bytes, as the bench and Vite's build report count. */
const budgetBytes = 170 * 1000;
const dist = process.argv[2] ?? 'dist';
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstLoad = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');

let total = 0;
for (const file of firstLoad) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${file}: ${(size / 1000).toFixed(1)} kB gzip`);
}
const verdict = total <= budgetBytes ? 'within' : 'OVER';
console.log(
  `First-load JS: ${(total / 1000).toFixed(1)} kB gzip, ${verdict} the ${budgetBytes / 1000} kB budget`,
);
if (firstLoad.length === 0 || total > budgetBytes) process.exit(1);
