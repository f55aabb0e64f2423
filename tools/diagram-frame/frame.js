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

addEventListener('message', async (event) => {
  if (event.source !== parent) return;
  /** @type {{ id: number, source: string, dark: boolean }} */
  const { id, source, dark } = event.data;
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
});

// Without Mermaid (its bundle failed to load) the app is told at once, not left waiting.
parent.postMessage(renderer ? { ready: true } : { unavailable: true }, '*');
