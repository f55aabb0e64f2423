/**
 * The Content-Security-Policy of the built app, injected as a <meta> tag into index.html at build
 * time (the Vite dev server needs inline scripts, so it is not applied there).
 * - script-src 'self': no inline, eval'd or remote script, whatever a model reply contains.
 * - connect-src allows any https host and loopback: the user's provider or their own base URL.
 * - img-src allows https so a remote image the user chose to load can show.
 * - style-src needs 'unsafe-inline': Radix positions popovers with inline styles.
 * - frame-src 'self': the HTML preview document (public/preview.html) and the diagram frame
 *   (diagram.html), each with its own policy. A source cannot name a path without naming the
 *   host, unknown until deployed, so the rest of this origin is allowed too: nothing else here is
 *   ever framed, and no other origin can be.
 * - media-src blob: only the speech the app itself made (read aloud) plays; no media from any
 *   address, whatever a reply links to.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https: http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "frame-src 'self'",
  "child-src 'none'",
  "worker-src 'self'",
  "manifest-src 'self'",
  'media-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
