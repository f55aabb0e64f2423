import katex from 'katex';

/**
 * Typesets formulas with KaTeX off the main thread: loading KaTeX and laying out a formula both
 * take long enough to stall a streaming reply. The HTML comes back as KaTeX wrote it (`trust`
 * off, so no \href, \url or \includegraphics); a formula it cannot parse comes back as its
 * source, underlined, in the text's colour (red fails contrast on dark).
 */

export interface TypesetRequest {
  key: string;
  tex: string;
  display: boolean;
}

/** `html` null: KaTeX failed in a way other than a parse error; the source is shown. */
export interface TypesetResponse {
  key: string;
  html: string | null;
}

self.addEventListener('message', (event: MessageEvent<TypesetRequest>) => {
  const { key, tex, display } = event.data;
  let html: string | null = null;
  try {
    html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      strict: 'ignore',
      errorColor: 'inherit',
      output: 'htmlAndMathml',
    });
  } catch (error) {
    console.error('KaTeX could not typeset a formula', error);
  }
  self.postMessage({ key, html } satisfies TypesetResponse);
});
