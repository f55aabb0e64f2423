import type { Frame, Page, Request } from '@playwright/test';
import { ChatPage, expect, importConversation, mockConfig, test } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/**
 * HTML and SVG code blocks run in a sandboxed preview document. These previews are hostile: each
 * tries to reach the network, the app's data, the app's page or a new window, and writes what it
 * managed into its own page, where the test reads it.
 */
const probes = `<!doctype html>
<html><body>
<h1>Probe page</h1>
<pre id="results"></pre>
<img src="https://evil.example/img">
<link rel="stylesheet" href="https://evil.example/style.css">
<script src="https://evil.example/script.js"></script>
<div style="background: url(https://evil.example/bg.png)">styled</div>
<iframe src="https://evil.example/frame"></iframe>
<script>
  const results = {};
  const attempt = async (name, run) => {
    try {
      const value = await run();
      results[name] = 'reached: ' + String(value).slice(0, 60);
    } catch (error) {
      results[name] = 'blocked';
    }
  };
  const loads = (make) => new Promise((resolve, reject) => {
    const target = make();
    target.onopen = target.onload = () => resolve('open');
    target.onerror = () => reject(new Error('refused'));
  });
  (async () => {
    await attempt('fetch', () => fetch('https://evil.example/fetch').then((r) => r.status));
    await attempt('fetch this host', () => fetch('/').then((r) => r.status));
    await attempt('fetch the provider', () => fetch(${JSON.stringify(`${mockUrl}/v1/models`)}).then((r) => r.status));
    await attempt('xhr', () => loads(() => { const x = new XMLHttpRequest(); x.open('GET', 'https://evil.example/xhr'); x.send(); return x; }));
    await attempt('websocket', () => loads(() => new WebSocket('wss://evil.example/socket')));
    await attempt('event source', () => loads(() => new EventSource('https://evil.example/events')));
    await attempt('worker', () => loads(() => new Worker('data:text/javascript,postMessage(1)')));
    await attempt('webrtc', () => new RTCPeerConnection({ iceServers: [{ urls: 'stun:evil.example:3478' }] }).createDataChannel('x').label);
    await attempt('webrtc from a child frame', () => { const child = document.body.appendChild(document.createElement('iframe')); return new child.contentWindow.RTCPeerConnection({ iceServers: [{ urls: 'stun:evil.example:3478' }] }).createDataChannel('y').label; });
    await attempt('local storage', () => localStorage.getItem('ai-chat-config'));
    await attempt('session storage', () => sessionStorage.length);
    await attempt('indexed db', () => indexedDB.open('ai-chat').readyState);
    await attempt('cookie', () => document.cookie);
    await attempt('parent page', () => parent.document.title);
    await attempt('parent storage', () => parent.localStorage.getItem('ai-chat-config'));
    await attempt('top navigation', () => { top.location.href = 'https://evil.example/top'; return top.location.href; });
    await attempt('popup', () => { const opened = window.open('https://evil.example/popup'); if (!opened) throw new Error('none'); return 'window'; });
    // A beacon is sent later, when the policy refuses it: the refusal is its outcome.
    await attempt('beacon', () => new Promise((resolve, reject) => {
      addEventListener('securitypolicyviolation', (event) => { if (event.blockedURI.includes('/beacon')) reject(new Error('refused')); });
      if (!navigator.sendBeacon('https://evil.example/beacon', 'x')) reject(new Error('refused'));
    }));
    document.getElementById('results').textContent = JSON.stringify(results);
    document.body.dataset.done = 'true';
  })();
</script>
</body></html>`;

const leaver = `<p>Leaving</p>
<form id="f" action="https://evil.example/form" method="post"><input name="k" value="v"></form>
<script>
  try { document.getElementById('f').submit(); } catch {}
  location.href = 'https://evil.example/self-navigation';
</script>`;

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle id="dot" cx="30" cy="30" r="20" fill="teal"/><script>document.getElementById('dot').setAttribute('data-ran', 'yes')</script></svg>`;

const homecoming = `<script>location.href = '/';</script>`;

const reply = `Home:\n\n\`\`\`html\n${homecoming}\n\`\`\`\n\nProbe:\n\n\`\`\`html\n${probes}\n\`\`\`\n\nLeaver:\n\n\`\`\`html\n${leaver}\n\`\`\`\n\nIcon:\n\n\`\`\`svg\n${svg}\n\`\`\`\n\nThe end.`;

/**
 * What answered (a response reached the page or a frame), what the browser refused by policy,
 * and every popup; evil.example answers anything that gets out.
 */
async function watch(page: Page): Promise<{ answered: string[]; refused: string[]; popups: string[] }> {
  const answered: string[] = [];
  const refused: string[] = [];
  const popups: string[] = [];
  page.context().on('response', (response) => answered.push(response.url()));
  page.context().on('requestfailed', (request: Request) => {
    if (request.failure()?.errorText === 'csp') refused.push(request.url());
  });
  page.context().on('page', (opened) => popups.push(opened.url()));
  await page
    .context()
    .route('https://evil.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>evil</p>' }),
    );
  return { answered, refused, popups };
}

function previewFrames(page: Page): Frame[] {
  return page.frames().filter((frame) => frame !== page.mainFrame());
}

async function openPreview(page: Page, index: number): Promise<void> {
  const button = page.getByRole('button', { name: 'Preview' }).nth(index);
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

test('a hostile HTML preview runs its scripts but reaches no network, storage, page or window', async ({
  page,
}) => {
  const seen = await watch(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', 'secret-key-123'));
  await importConversation(page, reply);
  await expect(page.getByRole('button', { name: 'Preview' })).toHaveCount(4);
  // Nothing runs before the reader asks.
  await expect(page.locator('iframe')).toHaveCount(0);

  await openPreview(page, 1);
  const frame = page.frameLocator('iframe[title="Preview"]');
  await expect(frame.locator('body[data-done="true"]')).toBeAttached();
  await expect(frame.getByRole('heading', { name: 'Probe page' })).toBeVisible();
  const results = JSON.parse((await frame.locator('#results').textContent()) ?? '{}') as Record<
    string,
    string
  >;
  expect(Object.keys(results)).toHaveLength(18);
  for (const [name, outcome] of Object.entries(results))
    expect(`${name}: ${outcome}`).toBe(`${name}: blocked`);

  expect(seen.answered.filter((url) => url.includes('evil.example'))).toEqual([]);
  expect(seen.answered.filter((url) => url.startsWith(mockUrl))).toEqual([]);
  // The markup's own loads were asked for and refused by the preview's policy.
  expect(seen.refused).toEqual(
    expect.arrayContaining(
      ['img', 'style.css', 'script.js', 'bg.png'].map((name) => `https://evil.example/${name}`),
    ),
  );
  expect(seen.popups).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/');
  // The preview is its own opaque-origin document, framed without allow-same-origin.
  const iframe = page.locator('iframe[title="Preview"]');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts');
  expect(new URL((await iframe.getAttribute('src')) ?? '', page.url()).pathname).toBe('/preview.html');
  expect(await previewFrames(page)[0]?.evaluate(() => origin)).toBe('null');
  // The app's key is still there, untouched.
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-config'))).toContain('secret-key-123');
});

test('a preview cannot navigate itself or submit a form to another site', async ({ page }) => {
  const seen = await watch(page);
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, reply);
  await openPreview(page, 2);
  // The app's frame-src refuses the navigation: the frame ends on the browser's error page.
  await expect.poll(() => previewFrames(page)[0]?.url() ?? '').toMatch(/^chrome-error:/);
  expect(seen.answered.filter((url) => url.includes('evil.example'))).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/');
});

test('an SVG preview draws and runs inside the sandbox; closing it removes the frame', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, reply);
  await openPreview(page, 3);
  const dot = page.frameLocator('iframe[title="Preview"]').locator('#dot');
  await expect(dot).toHaveAttribute('data-ran', 'yes');
  await expect(dot).toBeVisible();
  await page.getByRole('button', { name: 'Preview' }).nth(3).click();
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('a preview that loads the app into itself gets a line of text, not the app', async ({ page }) => {
  // As on a host that serves its files to any origin (GitHub Pages does): the app's scripts then
  // load even into the preview's opaque origin, and the app itself must refuse to run there.
  await page.route('**/assets/**', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, reply);
  await openPreview(page, 0);
  const frame = page.frameLocator('iframe[title="Preview"]');
  await expect(frame.getByText('BYOK Chat does not run inside a frame.')).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Conversations' })).toHaveCount(0);
});

test("the app's policy frames only its own preview document", async ({ page }) => {
  await page.goto('/');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("frame-src 'self'");
  const preview = await page.request.get('/preview.html');
  const own =
    /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(await preview.text())?.[1] ?? '';
  for (const directive of [
    "default-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ])
    expect(own).toContain(directive);
  expect(own).not.toMatch(/https?:|'self'|\*/);
});
