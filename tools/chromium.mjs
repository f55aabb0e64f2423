// @ts-check
import { existsSync } from 'node:fs';

/**
 * Debian's Chromium, never a downloaded one (CHROMIUM_PATH overrides it), and the flags every
 * launch of it here uses (the tests, the bench, the screenshots): no sandbox (a container as
 * root), no GPU, and none of the browser's own background traffic.
 */
export const chromiumFlags = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/** The Chromium binary, or an error that says how to get one. */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(
      `Chromium not found at ${path}. Install it with ` +
        '`sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core`, ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  return path;
}
