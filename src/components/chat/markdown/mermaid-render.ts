import DOMPurify from 'dompurify';
import mermaid from 'mermaid';

/**
 * Draws a Mermaid diagram (this module and Mermaid load on the first diagram). Mermaid runs with
 * `securityLevel: 'strict'` (no click handlers or links, labels sanitized) and labels as SVG
 * text; its SVG is sanitized once more and then shown as an image, which runs nothing and loads
 * nothing.
 */

export type DiagramResult = { svg: string } | { error: string };

let renders = 0;

export async function renderDiagram(source: string, dark: boolean): Promise<DiagramResult> {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme: dark ? 'dark' : 'default',
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    // A syntax error is ours to show: Mermaid would otherwise add its own error picture to the page.
    suppressErrorRendering: true,
  });
  try {
    renders += 1;
    const { svg } = await mermaid.render(`mermaid-diagram-${renders}`, source);
    return { svg: DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true } }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
