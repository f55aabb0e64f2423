import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/e2e/chromium.ts';

import { appPort, mcpPort, mockPort } from './tests/e2e/ports.ts';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  // Measured on a 2-core machine: much of a test is waiting (a stream, a worker, a page load), so a
  // third worker fills the cores (~10% faster than two; a fourth adds little but load).
  workers: 3,
  // A flaky test is fixed, not retried.
  retries: 0,
  // Deadlines, not expectations of speed: every wait is on a condition, and a passing test never
  // waits them out. They are wide so that a slower or busy machine (a shared 2-core runner) passes
  // as a quiet one does; a speed target belongs in `npm run bench`.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    launchOptions: chromiumLaunchOptions(),
    // Recording a trace costs every test (~15% of the suite's time) to help the few that fail:
    // off, and `npx playwright test --trace=retain-on-failure` when a failure needs one. A failed
    // test still leaves a screenshot and its error context (the page's accessibility snapshot).
    trace: 'off',
    screenshot: 'only-on-failure',
    permissions: ['clipboard-read', 'clipboard-write'],
    // The app's service worker answers its own files from a cache, out of page.route's reach:
    // only the offline tests (offline.spec.ts) let it run.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'app', testIgnore: /hostile-.*\.spec\.ts/ },
    // Bounded work on hostile input, measured as the longest main-thread task in CPU time from a
    // browser trace (tests/e2e/long-tasks.ts): what another worker's browser or a busy machine
    // adds to a task's wall time is not counted, so these run beside the others. A project of
    // their own, to run them alone: npx playwright test --project 'hostile input'.
    { name: 'hostile input', testMatch: /hostile-.*\.spec\.ts/ },
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
    {
      // Real MCP servers (official SDK), one per transport, era, CORS and OAuth case: tools/mcp-servers/README.md.
      command: `node tools/mcp-servers/cli.mjs --port ${mcpPort} --max-lifetime 3600`,
      url: `http://127.0.0.1:${mcpPort}/__control/requests`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
