// @ts-check
/**
 * Runs in the diagram frame (see plugin.ts): draws each Mermaid source the app sends and sends
 * back the SVG or the parser's message. Mermaid's own bundle is loaded before this script.
 */

/** @type {{ initialize(config: object): void, render(id: string, text: string): Promise<{ svg: string }> }} */
const renderer = Reflect.get(globalThis, 'mermaid');

/** @type {boolean | undefined} */
let initializedDark;
let renders = 0;

/** @param {{ id: number, source: string, dark: boolean }} request */
async function draw({ id, source, dark }) {
  if (initializedDark !== dark) {
    renderer.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: dark ? 'dark' : 'default',
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      // A syntax error is the app's to show: Mermaid would otherwise draw its own error picture.
      suppressErrorRendering: true,
    });
    initializedDark = dark;
  }
  try {
    renders += 1;
    const { svg } = await renderer.render(`diagram-${renders}`, source);
    parent.postMessage({ id, svg }, '*');
  } catch (error) {
    parent.postMessage({ id, error: error instanceof Error ? error.message : String(error) }, '*');
  }
}

// One diagram at a time: a theme set for the next one must not change one still being drawn.
let queue = Promise.resolve();
addEventListener('message', (event) => {
  if (event.source !== parent || self.origin !== 'null') return;
  queue = queue.then(() => draw(event.data));
});

// Without Mermaid (its bundle failed to load) the app is told at once, not left waiting. Opened
// any other way than sandboxed (an opaque origin), it draws nothing for anyone.
if (self.origin === 'null') parent.postMessage(renderer ? { ready: true } : { unavailable: true }, '*');
