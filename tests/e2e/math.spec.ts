import { richReply } from '../../tools/mock-providers/markdown.mjs';
import { ChatPage, expect, importConversation, importReplies, pageIdle, test } from './fixtures.ts';

/** Math in replies: the four delimiters models write, KaTeX in a worker started on first use, never unsafe. */

const reply = [
  '## Formulas',
  '',
  'Inline: $e^{i\\pi} + 1 = 0$ and \\(a^2 + b^2 = c^2\\).',
  '',
  '$$',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '$$',
  '',
  '\\[',
  '\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}',
  '\\]',
  '',
  'A price stays a price: it costs $5 and $10.',
  '',
  'Broken: $\\frac{1}{$ and a link attempt $\\href{javascript:alert(1)}{click}$.',
].join('\n');

test('formulas in all four forms render with KaTeX; prices, broken formulas and links stay text', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const mathWorker = page.waitForRequest(/typeset-math\.worker-.*\.js$/);
  await chat.open();
  await importConversation(page, reply);
  await mathWorker;
  const message = chat.messages('assistant');
  // Two inline and two display formulas, and the \href one typeset without its link (KaTeX's
  // `trust` is off); the MathML keeps each formula's source for readers.
  await expect(message.locator('.katex')).toHaveCount(5);
  await expect(message.locator('.katex-display')).toHaveCount(2);
  await expect(message.locator('annotation[encoding="application/x-tex"]').first()).toHaveText(
    'e^{i\\pi} + 1 = 0',
  );
  await expect(message.locator('.katex-display annotation')).toHaveText([
    '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
    '\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}',
  ]);
  await expect(message).toContainText('it costs $5 and $10.');
  // A formula KaTeX cannot parse shows its source, not an error box.
  await expect(message.locator('.katex-error').first()).toContainText('\\frac{1}{');
  await expect(message.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(message.locator('a')).toHaveCount(0);
});

test('a reply without formulas does not fetch the math renderer', async ({ page }) => {
  const chat = new ChatPage(page);
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  await chat.open();
  await importConversation(page, '## Plain\n\nNo formulas here, only **markdown** and a price of $5.');
  await expect(chat.messages('assistant').locator('h2')).toHaveText('Plain');
  // The markdown renderer is in; had the block asked for math, its worker request would precede this.
  await pageIdle(page);
  expect(fetched.filter((url) => /typeset-math|katex/i.test(url))).toEqual([]);
});

test('while a reply streams, a formula not yet closed shows as text and a diagram as its code; then both render', async ({
  page,
  held,
}) => {
  const chat = new ChatPage(page);
  await chat.open(held.config());
  await chat.newConversation();
  await chat.send('Show me math');
  const stream = await held.nextReply();
  const text = richReply();
  const reply = chat.messages('assistant');
  // Held inside the first formula: its source, as written so far.
  const opened = '$\\sum_{k=1}^{1} k = \\frac{1';
  const inFormula = text.indexOf(opened) + opened.length;
  const inFence = text.indexOf('B -->|yes|');
  expect(inFormula).toBeGreaterThan(opened.length);
  expect(inFence).toBeGreaterThan(inFormula);
  stream.send(text.slice(0, inFormula));
  await expect(reply).toContainText(`Inline 1: ${opened}`);
  await expect(reply.locator('.katex')).toHaveCount(0);
  // Held inside the first diagram's fence: the formulas before it are typeset, the fence is code.
  stream.send(text.slice(inFormula, inFence));
  await expect(reply.locator('pre').filter({ hasText: 'graph TD' })).toHaveCount(1);
  await expect(reply.locator('.katex')).toHaveCount(8);
  await expect(reply.getByRole('img', { name: 'Diagram' })).toHaveCount(0);
  stream.send(text.slice(inFence));
  stream.end();
  await chat.waitForReplyDone();
  await expect(reply.locator('.katex')).toHaveCount(20);
  await expect(reply.locator('.katex-display')).toHaveCount(10);
  await expect(reply.getByRole('img', { name: 'Diagram' })).toHaveCount(2);
  await expect(reply).toContainText('A price is not a formula: $5 and $10.');
});

test('when the math renderer cannot load, formulas show as written and the next one tries again', async ({
  page,
  context,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await importReplies(page, [
    '**No** formula yet.',
    'Euler: $e^{i\\pi} + 1 = 0$\n\n$$\n\\frac{1}{3}\n$$',
    'Again: $a^2$',
  ]);
  // The markdown renderer is loaded, the math renderer not yet; then the network goes.
  await expect(chat.messages('assistant').locator('strong')).toHaveText('No');
  await context.setOffline(true);
  await chat.rows.filter({ hasText: 'Reply 2' }).click();
  const message = chat.messages('assistant');
  await expect(message).toContainText('Euler: $e^{i\\pi} + 1 = 0$');
  await expect(message).toContainText('$$\n\\frac{1}{3}\n$$', { useInnerText: true });
  await expect(message.locator('.katex')).toHaveCount(0);
  // Back online: a new formula starts the renderer again.
  await context.setOffline(false);
  await chat.rows.filter({ hasText: 'Reply 3' }).click();
  await expect(chat.messages('assistant').locator('.katex')).toHaveCount(1);
});
