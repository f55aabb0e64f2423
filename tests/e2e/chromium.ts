import { chromiumFlags, chromiumPath } from '../../tools/chromium.mjs';

/** Playwright's launch options: Debian's Chromium with the shared flags, and QUIC off. */
export function chromiumLaunchOptions() {
  return { executablePath: chromiumPath(), args: [...chromiumFlags, '--disable-quic'] };
}
