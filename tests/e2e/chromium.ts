import { existsSync } from 'node:fs';

/** Debian's Chromium, never a downloaded one. CHROMIUM_PATH overrides the location. */
export function chromiumLaunchOptions() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}. Install it with ` +
        '`sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core`, ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
}
