import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

/**
 * The React artifact frame: a document of its own where a component a model wrote is transpiled
 * (Sucrase), run and rendered (React 19), styled by the Tailwind browser runtime, with lucide-react
 * and recharts to import. The app frames it with sandbox="allow-scripts": its origin is opaque, so
 * the code reaches none of the app's storage, cookies or DOM, and the app's `frame-src 'self'`
 * keeps it from navigating itself elsewhere. Its policy gives it no network at all; it is the only
 * page of the app that may eval (Sucrase's output runs through `new Function`).
 *
 * Its scripts are classic ones, as the diagram frame's are: an opaque origin loads module scripts
 * only from a host that answers CORS requests. The frame's own script is bundled here, in a build
 * of its own (one IIFE file with React, the two libraries and Sucrase); the Tailwind runtime is
 * the package's own prebuilt file. None of it is part of the app's bundle or its first load; the
 * service worker precaches all of it with the rest of the build, so the frame works offline.
 */

const require = createRequire(import.meta.url);
const tailwindFile = require.resolve('@tailwindcss/browser');
const tailwindVersion = (require('@tailwindcss/browser/package.json') as { version: string }).version;
const entry = fileURLToPath(new URL('./frame/main.ts', import.meta.url));
const frameSources = [
  fileURLToPath(new URL('./frame/', import.meta.url)),
  fileURLToPath(new URL('../../src/components/artifacts/react-frame/protocol.ts', import.meta.url)),
];

/** Where the frame is, under the app's base. */
export const artifactFramePath = 'artifact.html';
// Named by version, so a cached copy is never another runtime than the page expects.
const tailwindPath = `assets/tailwindcss-browser-${tailwindVersion}.js`;

/** Light and dark as the app has them: dark is the `dark` class on <html>, not a media query. */
const tailwindSource = `@custom-variant dark (&:where(.dark, .dark *));
@layer base {
  html { color-scheme: light; }
  html.dark { color-scheme: dark; }
  body { @apply bg-white text-gray-900 dark:bg-gray-950 dark:text-gray-100; }
}`;

/**
 * The one inline script: it compiles the component's code for the bundle. In an opaque origin,
 * the page's scripts from URLs count as cross-origin, and so does code they compile: the browser
 * hides its errors from 'error' events ("Script error.", no error object, no line) and drops its
 * unhandled rejections. Code compiled by an inline script is the page's own, and its errors come
 * through whole. main.ts takes this function and removes it before any component runs.
 */
const compilerScript = 'self.artifactCompile = (parameters, body) => new Function(...parameters, body);';
const compilerHash = createHash('sha256').update(compilerScript).digest('base64');

const policy = [
  "default-src 'none'",
  // 'self' is this page's scripts (the Tailwind runtime and the frame's bundle), the hash the one
  // inline script above; 'unsafe-eval' runs the transpiled component.
  `script-src 'self' 'unsafe-eval' 'sha256-${compilerHash}'`,
  // React and recharts set inline styles; the Tailwind runtime writes a <style> element.
  "style-src 'self' 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  "connect-src 'none'",
  "media-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "manifest-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "webrtc 'block'",
].join('; ');

function frameDocument(scriptPath: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${policy}" />
    <meta name="referrer" content="no-referrer" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Artifact</title>
    <style type="text/tailwindcss">
${tailwindSource}
    </style>
    <script>${compilerScript}</script>
    <script src="${tailwindPath}"></script>
    <script defer src="${scriptPath}"></script>
  </head>
  <body></body>
</html>
`;
}

/** The frame's script: one classic (IIFE) file, minified, React in its production build. */
async function buildFrameScript(): Promise<string> {
  const output = await build({
    configFile: false,
    envDir: false,
    publicDir: false,
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      modulePreload: false,
      rolldownOptions: {
        input: entry,
        // lucide-react marks its modules "use client", which means nothing in a page like this.
        onLog(level, log, handler) {
          if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
        },
        output: { format: 'iife', entryFileNames: 'artifact-frame.js', codeSplitting: false },
      },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs)
    if ('output' in result)
      for (const chunk of result.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  throw new Error('artifact-frame: the frame build gave no script');
}

export function artifactFrame(): Plugin {
  let script: Promise<string> | undefined;
  let building = false;
  const frameScript = () => (script ??= buildFrameScript());
  return {
    name: 'artifact-frame',
    configResolved(config) {
      building = config.command === 'build';
    },
    configureServer(server) {
      const devScriptPath = 'assets/artifact-frame.js';
      // Built on first use, again after its sources change: the dev server has no HMR for it.
      server.watcher.on('change', (file) => {
        if (frameSources.some((source) => file.startsWith(source))) script = undefined;
      });
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        if (path.endsWith(`/${artifactFramePath}`)) {
          response.setHeader('Content-Type', 'text/html; charset=utf-8');
          response.end(frameDocument(devScriptPath));
        } else if (path.endsWith(`/${tailwindPath}`)) {
          response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          response.end(readFileSync(tailwindFile));
        } else if (path.endsWith(`/${devScriptPath}`)) {
          frameScript().then(
            (code) => {
              response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
              response.end(code);
            },
            (error: unknown) => next(error),
          );
        } else next();
      });
    },
    buildStart() {
      // Started with the app's build, awaited when its files are written.
      if (building) void frameScript().catch(() => undefined);
    },
    async generateBundle() {
      const code = await frameScript();
      const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
      const scriptPath = `assets/artifact-frame-${hash}.js`;
      this.emitFile({ type: 'asset', fileName: scriptPath, source: code });
      this.emitFile({ type: 'asset', fileName: tailwindPath, source: readFileSync(tailwindFile) });
      this.emitFile({ type: 'asset', fileName: artifactFramePath, source: frameDocument(scriptPath) });
    },
  };
}
