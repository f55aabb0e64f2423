import { ChatPage, expect, importConversation, test } from './fixtures.ts';

/** Mermaid diagrams in replies: drawn once the fence closes, toggled with their source, inert. */

const flowchart = ['```mermaid', 'graph TD', '  A[Question] --> B{Think}', '  B --> C[Answer]', '```'];
const broken = ['```mermaid', 'graph TD', '  A --> ', '  ]]] nonsense', '```'];
const hostile = [
  '```mermaid',
  'graph TD',
  '  A["<img src=x onerror=window.__xss=1>"] --> B["<script>window.__xss=2</script>"]',
  '  click A "javascript:window.__xss=3"',
  '  click B href "https://evil.example/steal"',
  '```',
];

test('a diagram is drawn, toggles to its source and back; a broken one shows its source and why', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(
    page,
    ['## Flow', '', ...flowchart, '', 'And one that fails:', '', ...broken].join('\n'),
  );
  const reply = chat.messages('assistant');
  const diagrams = reply.getByTestId('mermaid');
  await expect(diagrams).toHaveCount(2);

  const drawn = diagrams.first();
  await expect(drawn.getByRole('img', { name: 'Diagram' })).toBeVisible({ timeout: 20_000 });
  const svg = decodeURIComponent(
    ((await drawn.getByRole('img').getAttribute('src')) ?? '').replace(
      /^data:image\/svg\+xml;charset=utf-8,/,
      '',
    ),
  );
  expect(svg).toContain('Question');
  await drawn.getByRole('button', { name: 'Show source' }).click();
  await expect(drawn.locator('pre')).toContainText('A[Question] --> B{Think}');
  await drawn.getByRole('button', { name: 'Show diagram' }).click();
  await expect(drawn.getByRole('img', { name: 'Diagram' })).toBeVisible();

  const failed = diagrams.nth(1);
  await expect(failed.getByRole('note')).toContainText('The diagram could not be drawn:');
  await expect(failed.locator('pre')).toContainText(']]] nonsense');
  await expect(failed.getByRole('img')).toHaveCount(0);
});

test('a hostile diagram runs nothing, links nowhere and loads nothing', async ({ page }) => {
  const chat = new ChatPage(page);
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1') && !request.url().startsWith('data:'))
      outside.push(request.url());
  });
  await chat.open();
  await importConversation(page, hostile.join('\n'));
  const diagram = chat.messages('assistant').getByTestId('mermaid');
  // Drawn, or refused as a syntax error: either way nothing of it may run.
  await expect(diagram.getByRole('img', { name: 'Diagram' }).or(diagram.getByRole('note'))).toBeVisible({
    timeout: 20_000,
  });
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(chat.messages('assistant').locator('a')).toHaveCount(0);
  await expect(page.locator('body > svg, body > div[id^="dmermaid"]')).toHaveCount(0);
  expect(outside).toEqual([]);
});

test('diagrams are drawn in a sandboxed frame of their own, which cannot reach the app', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importConversation(page, ['## Flow', '', ...flowchart].join('\n'));
  await expect(chat.messages('assistant').getByRole('img', { name: 'Diagram' })).toBeVisible({
    timeout: 20_000,
  });
  const element = page.locator('iframe[title="Diagram renderer"]');
  await expect(element).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(element).toHaveAttribute('aria-hidden', 'true');
  const frame = page.frames().find((candidate) => candidate.url().endsWith('/diagram.html'));
  expect(frame).toBeDefined();
  const reach = await frame?.evaluate(() => {
    const attempt = (probe: () => unknown) => {
      try {
        probe();
        return 'reached';
      } catch {
        return 'blocked';
      }
    };
    return {
      origin: window.origin,
      parentDocument: attempt(() => window.parent.document.title),
      storage: attempt(() => window.localStorage.length),
      cookies: attempt(() => document.cookie),
    };
  });
  expect(reach).toEqual({
    origin: 'null',
    parentDocument: 'blocked',
    storage: 'blocked',
    cookies: 'blocked',
  });
});

test('when the diagram renderer cannot load, the source shows with why, and a later diagram is drawn', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await page.route('**/diagram.html', (route) => route.abort('internetdisconnected'));
  await chat.open();
  await importConversation(page, ['## Flow', '', ...flowchart].join('\n'));
  const diagram = chat.messages('assistant').getByTestId('mermaid');
  await expect(diagram.getByRole('note')).toHaveText(
    'The diagram could not be drawn: The diagram renderer could not load (offline?).',
    { timeout: 20_000 },
  );
  await expect(diagram.locator('pre')).toContainText('A[Question] --> B{Think}');

  await page.unroute('**/diagram.html');
  await importConversation(
    page,
    ['## Again', '', ...flowchart.slice(0, -1), '  C --> D[Done]', '```'].join('\n'),
  );
  await expect(chat.messages('assistant').getByRole('img', { name: 'Diagram' })).toBeVisible({
    timeout: 20_000,
  });
});
