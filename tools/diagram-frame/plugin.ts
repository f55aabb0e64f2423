import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * The diagram frame: a document of its own where Mermaid draws, framed by the app with
 * sandbox="allow-scripts". Its origin is opaque, and Chromium gives such a frame its own process:
 * Mermaid's layout (tens of milliseconds per diagram) never blocks the chat, and whatever a
 * diagram's source makes Mermaid do cannot touch the app. Its policy allows its two scripts and
 * nothing else: no network, no frames, no workers.
 *
 * Mermaid comes as its single-file classic bundle: an opaque origin could load module scripts
 * only from a host that answers CORS requests, which a static host need not do.
 */

const require = createRequire(import.meta.url);
const mermaidFile = require.resolve('mermaid/dist/mermaid.min.js');
const mermaidVersion = (require('mermaid/package.json') as { version: string }).version;
const frameScript = readFileSync(new URL('./frame.js', import.meta.url), 'utf8');

/** Where the frame is, under the app's base. */
export const diagramFramePath = 'diagram.html';
// Named by version, so a cached copy is never an older Mermaid than the frame expects.
const mermaidPath = `assets/mermaid-${mermaidVersion}.min.js`;

function frameDocument(): string {
  const hash = createHash('sha256').update(frameScript).digest('base64');
  const policy = [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    // Mermaid writes its styles into the SVG and positions its measuring elements inline.
    "style-src 'unsafe-inline'",
    'img-src data:',
    "connect-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${policy}" />
    <meta name="referrer" content="no-referrer" />
    <title>Diagram renderer</title>
    <script src="${mermaidPath}"></script>
    <script>${frameScript}</script>
  </head>
  <body></body>
</html>
`;
}

export function diagramFrame(): Plugin {
  return {
    name: 'diagram-frame',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0] ?? '';
        if (path.endsWith(`/${diagramFramePath}`)) {
          response.setHeader('Content-Type', 'text/html; charset=utf-8');
          response.end(frameDocument());
        } else if (path.endsWith(`/${mermaidPath}`)) {
          response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          response.end(readFileSync(mermaidFile));
        } else next();
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: diagramFramePath, source: frameDocument() });
      this.emitFile({ type: 'asset', fileName: mermaidPath, source: readFileSync(mermaidFile) });
    },
  };
}
