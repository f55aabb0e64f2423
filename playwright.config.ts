import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium.ts';

import { appPort, mockPort } from './tests/e2e/ports.ts';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
    permissions: ['clipboard-read', 'clipboard-write'],
    // The app's service worker answers its own files from a cache, out of page.route's reach:
    // only the offline tests (offline.spec.ts) let it run.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'app', testIgnore: /hostile-.*\.spec\.ts/ },
    // Bounded work is measured as main-thread long tasks: these run last, one at a time, so that
    // what they measure is the page's own work and not the other worker's browser on the same cores.
    { name: 'hostile input', testMatch: /hostile-.*\.spec\.ts/, dependencies: ['app'], workers: 1 },
  ],
  webServer: [
    {
      // The production build (npm test builds it first), served like any static host with SPA fallback.
      command: `npx vite preview --host 127.0.0.1 --port ${appPort} --strictPort`,
      url: `http://127.0.0.1:${appPort}/`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The loopback mock of the five provider APIs; stops by itself after an hour at most.
      command: `node tools/mock-providers/cli.mjs --port ${mockPort} --max-lifetime 3600`,
      url: `http://127.0.0.1:${mockPort}/__mock/requests`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
