import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';
import { encodePng } from '../png.mjs';

/**
 * The installable, offline app: a web app manifest with its icons, and a service worker
 * (sw.js) that precaches every file of the build, so the app opens and shows every conversation
 * with no network. Written here rather than with Workbox: the worker needs three behaviours
 * (precache per version, the shell for any page, nothing else touched), and a build step that
 * lists the files is a few lines; workbox-build would add Babel, Rollup 2 and Terser to the
 * install for them. The page side (update prompt) is src/app/service-worker.ts.
 */

const name = 'BYOK Chat';
const themeColor = '#4f46e5';
const workerTemplate = readFileSync(new URL('./sw.js', import.meta.url), 'utf8');

/** The icon: a white speech bubble on indigo. */
function icon(size: number): Buffer {
  return encodePng(
    size,
    size,
    (x, y) => {
      const u = x / size;
      const v = y / size;
      // A rounded bubble with a tail at its lower left.
      const dx = (u - 0.5) / 0.32;
      const dy = (v - 0.46) / 0.24;
      const bubble = dx * dx + dy * dy <= 1;
      const tail = v > 0.6 && v < 0.8 && u > 0.28 && u < 0.42 && u - 0.28 < (0.8 - v) * 0.7;
      return bubble || tail ? [255, 255, 255, 255] : [79, 70, 229, 255];
    },
    { channels: 4 },
  );
}

const icons = [192, 512].map((size) => ({ size, fileName: `icon-${size}.png` }));

const manifest = JSON.stringify(
  {
    name,
    short_name: name,
    description:
      'Chat with OpenAI, Azure OpenAI, Claude, Gemini and Groq with your own key, in your browser.',
    start_url: '.',
    scope: '.',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: themeColor,
    icons: icons.map(({ size, fileName }) => ({
      src: fileName,
      sizes: `${size}x${size}`,
      type: 'image/png',
      purpose: 'any maskable',
    })),
  },
  null,
  2,
);

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
  } catch {
    return [];
  }
}

export function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' },
      { tag: 'meta', attrs: { name: 'theme-color', content: themeColor }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: `/${icons[0]?.fileName}` }, injectTo: 'head' },
    ],
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: manifest });
      for (const { size, fileName } of icons) this.emitFile({ type: 'asset', fileName, source: icon(size) });
      const version = createHash('sha256');
      const files: string[] = [];
      for (const [fileName, output] of Object.entries(bundle)) {
        // KaTeX ships each font three ways; browsers that run this app take the woff2 one.
        if (fileName.endsWith('.map') || /\.(ttf|woff)$/.test(fileName)) continue;
        files.push(fileName);
        version.update(fileName).update(output.type === 'chunk' ? output.code : output.source);
      }
      for (const path of filesUnder(publicDir)) {
        const fileName = relative(publicDir, path).split('\\').join('/');
        files.push(fileName);
        version.update(fileName).update(readFileSync(path));
      }
      const source = workerTemplate
        .replace("'__PRECACHE__'", JSON.stringify(JSON.stringify(files.sort())))
        .replace('__VERSION__', version.digest('hex').slice(0, 16));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
