import { readFile } from 'node:fs/promises';
import {
  expect,
  importFile,
  mockConfig,
  mockKey,
  sampleConversation,
  seedStorage,
  test,
  type ChatPage,
} from './fixtures.ts';
import { mockUrl } from './ports.ts';

/**
 * Artifacts: code blocks of replies opened in a panel beside the chat. The mock's `ok` scenario
 * echoes the question, so each reply holds the blocks the test sends. Where how the reply arrived
 * is not the point (a streamed reply opens in the panel in the first test), the replies are put in
 * place by an import: a long block echoed back streams for seconds.
 */

/** A fenced block (the mock's echo puts 'Echo: ' before the text and its count after it). */
const fence = (info: string, code: string) => `\`\`\`${info}\n${code}\n\`\`\``;
const reply = (...blocks: string[]) => `Here:\n\n${blocks.join('\n\n')}\n\nThat is all.`;
const ask = (chat: ChatPage, ...blocks: string[]) => chat.ask(reply(...blocks));

/**
 * The app configured for the mock, with conversations of these replies put in place by an import
 * (name, replies), the first one open.
 */
async function startWith(chat: ChatPage, conversations: [name: string, replies: string[]][]) {
  await chat.open(mockConfig('openai', mockKey('ok')));
  await importFile(chat.page, {
    version: '2.0',
    conversations: conversations.map(([name, replies], index) =>
      sampleConversation(
        `artifacts-${index}`,
        name,
        replies.map((text, turn): [string, string] => [`Question ${turn + 1}`, text]),
      ),
    ),
    activeConversationId: 'artifacts-0',
  });
  const [[, replies] = ['', []]] = conversations;
  await expect(chat.messages('assistant').last()).toContainText(replies.at(-1)?.slice(-12) ?? '');
}

async function start(chat: ChatPage) {
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
}

function panel(chat: ChatPage, title: string) {
  return chat.page.getByRole('complementary', { name: title });
}

test('an HTML artifact opens beside the chat, renders in the sandbox, downloads, and closes with Escape', async ({
  chat,
  page,
}) => {
  await start(chat);
  await ask(chat, fence('html title="Landing page"', '<h1>Hello from the panel</h1>'));
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const landing = panel(chat, 'Landing page');
  await expect(landing.getByRole('heading', { name: 'Landing page' })).toBeVisible();
  await expect(landing.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
  await expect(landing.frameLocator('iframe[title="Preview"]').getByRole('heading')).toHaveText(
    'Hello from the panel',
  );
  await landing.getByRole('tab', { name: 'Code' }).click();
  await expect(landing.getByRole('tabpanel')).toContainText('<h1>Hello from the panel</h1>');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    landing.getByRole('button', { name: 'Download Landing page.html' }).click(),
  ]);
  expect(await readFile(await download.path(), 'utf8')).toBe('<h1>Hello from the panel</h1>');

  await page.keyboard.press('Escape');
  await expect(landing).toHaveCount(0);
});

test('the same artifact over three replies has three versions, with the changes between them', async ({
  chat,
}) => {
  await startWith(chat, [
    [
      'Counter',
      ['One', 'Two', 'Three'].map((word) =>
        reply(fence('html title="Counter"', `<p>Count</p>\n<h1>${word}</h1>`)),
      ),
    ],
  ]);
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const counter = panel(chat, 'Counter');
  await expect(counter.getByTestId('artifact-version')).toHaveText('3 / 3');
  await counter.getByRole('button', { name: 'Previous version' }).click();
  await expect(counter.getByTestId('artifact-version')).toHaveText('2 / 3');
  await expect(counter.frameLocator('iframe[title="Preview"]').getByRole('heading')).toHaveText('Two');
  await counter.getByRole('tab', { name: 'Changes' }).click();
  await expect(counter.getByTestId('artifact-change-count')).toHaveText(
    '1 line added, 1 removed since the previous version.',
  );
  await expect(counter.locator('[data-change="removed"]')).toContainText('<h1>One</h1>');
  await expect(counter.locator('[data-change="added"]')).toContainText('<h1>Two</h1>');
  await counter.getByRole('button', { name: 'Previous version' }).click();
  await expect(counter.getByRole('button', { name: 'Previous version' })).toBeDisabled();
  await expect(counter.getByRole('tab', { name: 'Changes' })).toBeDisabled();
});

test('Markdown, Mermaid, SVG and long code open as their kind', async ({ chat }) => {
  // A conversation each (the list shows the messages in view only).
  await startWith(chat, [
    ['Markdown', [reply(fence('markdown', '# Release notes\n\n- **Faster** search'))]],
    ['Mermaid', [reply(fence('mermaid', 'graph TD; A-->B'))]],
    [
      'SVG',
      [
        reply(
          fence(
            'svg',
            '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><title>Dot</title><circle cx="20" cy="20" r="10"/></svg>',
          ),
        ),
      ],
    ],
    [
      'Long code',
      [reply(fence('python', Array.from({ length: 18 }, (_, index) => `print(${index})`).join('\n')))],
    ],
    ['Short code', [reply(fence('python', 'print(1)'))]],
  ]);
  const open = async (name: string) => {
    const row = chat.rows.filter({ hasText: name });
    await row.click();
    await expect(row).toHaveAttribute('data-active', 'true');
    const shown = chat.messages('assistant').last();
    await expect(shown).toContainText('That is all.');
    await expect(shown.getByRole('button', { name: 'Open in panel' })).toHaveCount(1);
    await shown.getByRole('button', { name: 'Open in panel' }).click();
  };

  await open('Markdown');
  await expect(panel(chat, 'Release notes').getByRole('tabpanel').locator('strong')).toHaveText('Faster');

  await open('Mermaid');
  await expect(panel(chat, 'Diagram').getByRole('img', { name: 'Diagram' })).toBeVisible({ timeout: 20_000 });

  await open('SVG');
  await expect(panel(chat, 'Dot').frameLocator('iframe[title="Preview"]').locator('circle')).toHaveCount(1);

  await open('Long code');
  const code = panel(chat, 'python code');
  // Code has no preview: it opens on its code.
  await expect(code.getByRole('tab', { name: 'Preview' })).toHaveCount(0);
  await expect(code.getByRole('tabpanel')).toContainText('print(17)');
  // A short block of code is no artifact.
  await chat.rows.filter({ hasText: 'Short code' }).click();
  await expect(chat.messages('assistant').last()).toContainText('print(1)');
  await expect(chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' })).toHaveCount(
    0,
  );
});

test('the panel follows the conversation: another conversation closes it', async ({ chat, page }) => {
  await start(chat);
  await ask(chat, fence('html title="Page"', '<h1>Hi</h1>'));
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  await expect(panel(chat, 'Page')).toBeVisible();
  await chat.newConversation();
  await expect(panel(chat, 'Page')).toHaveCount(0);
  await expect(page.getByRole('separator', { name: 'Resize the artifact panel' })).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the panel is a full-screen sheet with a back button', async ({ chat, page }) => {
    await seedStorage(page, { 'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))) });
    await page.goto('/');
    await page.getByRole('button', { name: 'New Conversation' }).click();
    await ask(chat, fence('html title="Phone page"', '<h1>Small</h1>'));
    await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
    const sheet = page.getByRole('dialog', { name: 'Phone page' });
    await expect(sheet).toBeVisible();
    const box = await sheet.boundingBox();
    expect(box?.width).toBe(390);
    await sheet.getByRole('button', { name: 'Back to the chat' }).click();
    await expect(sheet).toHaveCount(0);
  });
});

test('a React artifact runs offline in its sandbox: state, icons, charts and Tailwind, in a frame loaded ahead', async ({
  chat,
  page,
}) => {
  const component = [
    "import { useState } from 'react';",
    "import { Check } from 'lucide-react';",
    "import { BarChart, Bar } from 'recharts';",
    '',
    'export default function Counter() {',
    '  const [count, setCount] = useState(0);',
    '  return (',
    '    <div className="rounded bg-blue-500 p-4 text-white">',
    '      <Check aria-label="done" />',
    '      <button onClick={() => setCount(count + 1)}>Clicked {count}</button>',
    '      <BarChart width={200} height={100} data={[{ v: 1 }, { v: 3 }]}><Bar dataKey="v" /></BarChart>',
    '    </div>',
    '  );',
    '}',
  ].join('\n');
  await startWith(chat, [['Counter', [reply(fence('tsx', component))]]]);
  // While the reply is on screen a frame loads ahead, hidden; opening moves that document whole.
  const ahead = page.locator('iframe[title="React preview, loaded ahead"]');
  await expect(ahead.contentFrame().locator('#artifact-content')).toBeAttached();
  const aheadFrame = await (await ahead.elementHandle())?.contentFrame();
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const counter = panel(chat, 'Counter');
  const frame = counter.frameLocator('iframe[title="React preview"]');
  await expect(frame.locator('#artifact-content')).toBeAttached();
  const placed = await (
    await counter.locator('iframe[title="React preview"]').elementHandle()
  )?.contentFrame();
  expect(placed).toBe(aheadFrame);
  await frame.getByRole('button', { name: 'Clicked 0' }).click();
  await expect(frame.getByRole('button', { name: 'Clicked 1' })).toBeVisible();
  await expect(frame.locator('svg.lucide-check')).toHaveCount(1);
  await expect(frame.locator('.recharts-bar-rectangle')).toHaveCount(2);
  // Tailwind's class became a style inside the frame.
  await expect(frame.locator('div.bg-blue-500')).toHaveCSS('padding-top', '16px');
});

test("a failing React artifact shows its error with its line, and 'Ask to fix' sends it", async ({
  chat,
}) => {
  await start(chat);
  await ask(
    chat,
    fence(
      'tsx',
      "import _ from 'lodash';\n\nexport default function Broken() {\n  return <p>{_.shuffle([1])}</p>;\n}",
    ),
  );
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const broken = panel(chat, 'Broken');
  const alert = broken.getByRole('alert');
  await expect(alert).toContainText('Line 1: Cannot import "lodash"');
  await alert.getByRole('button', { name: 'Ask to fix' }).click();
  await expect(chat.messages('user').last()).toContainText(
    'The React component fails with this error, please fix it:',
  );
  await expect(chat.messages('user').last()).toContainText('Cannot import "lodash"');
});

test("an edit run in the preview and saved as a version is the user's, and stays over a reload", async ({
  chat,
  page,
}) => {
  await start(chat);
  await ask(chat, fence('html title="Page"', '<h1>One</h1>'));
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const pagePanel = panel(chat, 'Page');
  await pagePanel.getByRole('tab', { name: 'Code' }).click();
  const editor = pagePanel.getByRole('textbox', { name: 'Code of Page' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('<h1>Mine</h1>');
  await expect(pagePanel.getByText('Edited, not saved')).toBeVisible();
  await pagePanel.getByRole('button', { name: 'Run' }).click();
  await expect(pagePanel.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
  await expect(pagePanel.frameLocator('iframe[title="Preview"]').getByRole('heading')).toHaveText('Mine');
  await pagePanel.getByRole('tab', { name: 'Code' }).click();
  await pagePanel.getByRole('button', { name: 'Save as version' }).click();
  await expect(pagePanel.getByTestId('artifact-version')).toHaveText('2 / 2');
  await expect(pagePanel).toContainText('your version');

  await page.reload();
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const again = panel(chat, 'Page');
  await expect(again.getByTestId('artifact-version')).toHaveText('1 / 2');
  await again.getByRole('button', { name: 'Next version' }).click();
  await expect(again).toContainText('your version');
  await expect(again.frameLocator('iframe[title="Preview"]').getByRole('heading')).toHaveText('Mine');
});

test('a hostile React artifact runs, but reaches no network, storage, page or window', async ({
  chat,
  page,
}) => {
  const answered: string[] = [];
  const popups: string[] = [];
  page.on('requestfinished', (request) => answered.push(request.url()));
  page.on('popup', (popup) => popups.push(popup.url()));
  const probe = [
    "import { useEffect, useState } from 'react';",
    '',
    'export default function Probe() {',
    '  const [results, setResults] = useState(null);',
    '  useEffect(() => {',
    '    const found = {};',
    '    const attempt = async (name, run) => {',
    "      try { found[name] = 'reached: ' + String(await run()).slice(0, 40); } catch { found[name] = 'blocked'; }",
    '    };',
    '    const loads = (make) => new Promise((resolve, reject) => {',
    "      const target = make(); target.onload = target.onopen = () => resolve('open'); target.onerror = () => reject(new Error('no'));",
    '    });',
    '    (async () => {',
    "      await attempt('fetch', () => fetch('https://evil.example/fetch').then((r) => r.status));",
    `      await attempt('fetch the provider', () => fetch('${mockUrl}/v1/models').then((r) => r.status));`,
    "      await attempt('fetch this host', () => fetch('/').then((r) => r.status));",
    "      await attempt('image', () => loads(() => { const image = new Image(); image.src = 'https://evil.example/img'; return image; }));",
    "      await attempt('websocket', () => loads(() => new WebSocket('wss://evil.example/socket')));",
    "      await attempt('local storage', () => localStorage.getItem('ai-chat-config'));",
    "      await attempt('indexed db', () => indexedDB.open('ai-chat').readyState);",
    "      await attempt('cookie', () => document.cookie);",
    "      await attempt('parent page', () => parent.document.title);",
    "      await attempt('top navigation', () => { top.location.href = 'https://evil.example/top'; return top.location.href; });",
    "      await attempt('popup', () => { const opened = window.open('https://evil.example/popup'); if (!opened) throw new Error('none'); return 'window'; });",
    '      setResults(found);',
    '    })();',
    '  }, []);',
    "  return <pre id=\"results\" data-done={results ? 'true' : 'false'}>{JSON.stringify(results)}</pre>;",
    '}',
  ].join('\n');
  await startWith(chat, [['Probe', [reply(fence('jsx', probe))]]]);
  await chat.messages('assistant').last().getByRole('button', { name: 'Open in panel' }).click();
  const frame = panel(chat, 'Probe').frameLocator('iframe[title="React preview"]');
  await expect(frame.locator('#results[data-done="true"]')).toBeAttached();
  const results = JSON.parse((await frame.locator('#results').textContent()) ?? '{}') as Record<
    string,
    string
  >;
  expect(Object.keys(results)).toHaveLength(11);
  for (const [name, outcome] of Object.entries(results))
    expect(`${name}: ${outcome}`).toBe(`${name}: blocked`);
  expect(
    answered.filter((url) => url.includes('evil.example') || url.startsWith(`${mockUrl}/v1/models`)),
  ).toEqual([]);
  expect(popups).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/');
  await expect(panel(chat, 'Probe').locator('iframe')).toHaveAttribute('sandbox', 'allow-scripts');
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-config'))).toContain('"apiKey"');
});
