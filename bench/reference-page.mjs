// @ts-check
/* global document, window */
/**
 * The reference page: the floor of what a browser must spend on the stream. It fetches the same
 * mock stream (OpenAI format), parses the server-sent events and appends each text delta, raw, to
 * a <pre>; nothing else (no markdown, no framework, no scrolling).
 */

/**
 * Runs in the page. `window.__benchReferenceStart()` starts the request; `body[data-done]` is set
 * when the body has been read to its end.
 * @param {{ mockUrl: string, apiKey: string }} options
 */
function referenceMain(options) {
  const pre = document.createElement('pre');
  pre.id = 'reference-output';
  document.body.append(pre);

  async function stream() {
    const response = await fetch(`${options.mockUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Write the benchmark reply.' }],
        stream: true,
      }),
    });
    if (!response.ok || !response.body) throw new Error(`Reference request failed: ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        for (const line of buffer.slice(0, end).split('\n')) {
          if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
          const text = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
          if (typeof text === 'string' && text !== '') pre.append(text);
        }
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
    document.body.dataset['done'] = '1';
  }

  /** @type {Window & { __benchReferenceStart?: () => void }} */ (window).__benchReferenceStart = () => {
    stream().catch((/** @type {unknown} */ error) => {
      document.body.dataset['error'] = String(error);
    });
  };
}

/** @param {{ mockUrl: string, apiKey: string }} options */
export function referencePageHtml(options) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Reference stream</title>
<style>
  body { margin: 0; font: 14px/1.6 system-ui, sans-serif; }
  pre { max-width: 48rem; margin: 1rem auto; padding: 0 1rem; white-space: pre-wrap; word-break: break-word; }
</style>
</head>
<body>
<script>(${referenceMain.toString()})(${JSON.stringify(options)});</script>
</body>
</html>
`;
}
