import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { contentSecurityPolicy } from './src/app/content-security-policy.ts';
import { artifactFrame } from './tools/artifact-frame/plugin.ts';
import { diagramFrame } from './tools/diagram-frame/plugin.ts';
import { serviceWorker } from './tools/service-worker/plugin.ts';

/** Puts the CSP into the built index.html so it holds on any static host. */
function cspMetaTag(): Plugin {
  return {
    name: 'csp-meta-tag',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

/**
 * A worker has no DOM: where a package's browser build needs one, a worker takes its plain build.
 * (decode-named-character-reference decodes HTML entities with a DOM element in browsers; the
 * markdown worker parses with it.)
 */
function domFreeWorkerBuilds(): Plugin {
  const plainBuilds: Record<string, string> = {
    'decode-named-character-reference': fileURLToPath(
      new URL('./node_modules/decode-named-character-reference/index.js', import.meta.url),
    ),
  };
  return {
    name: 'dom-free-worker-builds',
    enforce: 'pre',
    resolveId: (source) => plainBuilds[source] ?? null,
  };
}

const appModules = /\/src\/(app|domain|hooks|lib|providers\/registry|state|storage)\//;
/** Radix's shared primitives and their scroll-lock and focus helpers. */
const dialogPrimitives =
  /\/node_modules\/(@radix-ui\/(primitive|react-(compose-refs|slot|primitive|context|use-layout-effect|use-effect-event|use-controllable-state|presence|id|use-callback-ref|dismissable-layer|focus-scope|portal|focus-guards))|react-remove-scroll(-bar)?|use-callback-ref|use-sidecar|react-style-singleton|get-nonce|aria-hidden|tslib)\/|\/node_modules\/lucide-react\/dist\/esm\/(createLucideIcon|Icon|defaultAttributes|context|shared\/src\/utils\/[^/]+)\.mjs$/;
const lazyShared =
  /\/src\/(domain\/(export-format|citation-markers|artifacts|line-diff|project-rules|project-validation|prompts|voice-settings|voice-activity|spoken-text|sync-settings|local-servers)|lib\/(fuzzy-match|bounded-text|code-fences|wav)|hooks\/use-throttled-value|storage\/(project-writes|voice-settings-store|sync-store)|state\/(import-limits|kept-secrets|project-commands|project-history|prompt-commands|local-servers))\.ts$/;

export default defineConfig({
  plugins: [react(), tailwindcss(), cspMetaTag(), diagramFrame(), artifactFrame(), serviceWorker()],
  // The first-load budget is checked on gzip size by tools/check-bundle-size.mjs.
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        advancedChunks: {
          // The app's own non-UI modules that lazy chunks share with the first screen go in one
          // chunk: left to itself, Rolldown cut them into ten small ones, whose seams cost 3 kB
          // of the first load (measured: 170.3 kB, 166.9 kB with this group).
          groups: [
            {
              name: 'app',
              // Not the modules only lazy chunks share (the export, citation markers, the
              // palette's matching, artifacts): in 'app' they cost the first load 1.9 kB and more.
              // And the dialog primitives' own modules, which the first screen uses: Rolldown
              // otherwise cut them into a chunk of their own once enough lazy parts shared them
              // (measured: 173.2 kB of first load, 170.x kB with them here).
              test: (id: string) =>
                (appModules.test(id) && !lazyShared.test(id)) || dialogPrimitives.test(id),
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  worker: { plugins: () => [domFreeWorkerBuilds()] },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tools/**/*.test.ts'],
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Much of a test
    // file's time is waiting (servers, sockets, timers), so three fill the two cores (measured:
    // 35 s against 80 s for one).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Deadlines, not expectations of speed (a test that measures speed says so itself): beside
    // other workers a test takes several times as long as alone (a 2 s import test took 5 s).
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
