import type { Page } from '@playwright/test';
import { violations } from './axe.ts';
import { HeldStream } from './held-stream.ts';
import {
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  seedStorage,
  test,
  type ChatPage,
  type ProviderId,
} from './fixtures.ts';

/** Ask several models at once: columns, Stop and Retry per column, continue-with, fuse, reload, phone tabs. */

/** The app with a key for each of these providers (the first one the saved configuration). */
async function openWith(chat: ChatPage, keys: Partial<Record<ProviderId, string>>) {
  const configs = Object.entries(keys).map(([provider, key]) => mockConfig(provider as ProviderId, key));
  await openWithConnections(chat, configs);
}

/** The app with these connections remembered, the first one the saved configuration. */
async function openWithConnections(chat: ChatPage, configs: Record<string, unknown>[]) {
  const connections = Object.fromEntries(configs.map((config) => [config.provider as string, config]));
  await seedStorage(chat.page, {
    'ai-chat-config': JSON.stringify(configs[0]),
    'ai-chat-connections': JSON.stringify(connections),
  });
  await chat.open();
  await chat.newConversation();
}

/** 'Compare' in the composer: adds these models (provider group, model) to the current one. */
async function compare(page: Page, models: [group: string, model: string][]) {
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Compare models' });
  for (const [group, model] of models)
    await picker
      .getByRole('group', { name: group })
      .getByRole('button', { name: model, exact: true })
      .click();
  await picker.getByRole('button', { name: `Compare ${models.length + 1} models` }).click();
  await expect(page.getByRole('button', { name: `Compare: ${models.length + 1} models` })).toBeVisible();
}

function turn(page: Page) {
  return page.getByRole('group', { name: 'Compared replies' });
}

function column(page: Page, name: string) {
  return turn(page).getByRole('region', { name, exact: true });
}

test('three providers at once: one fails with Retry in its column, one is stopped, one answers; continuing with it folds the columns', async ({
  chat,
  page,
}) => {
  const openai = mockKey('ok');
  const claude = mockKey('slow');
  await openWith(chat, { openai, claude, gemini: 'not-a-key' });
  await compare(page, [
    ['Claude', 'claude-haiku-4-5'],
    ['Gemini', 'gemini-2.5-flash'],
  ]);
  await chat.send('Hello all');

  // Side by side, in the order chosen, each named by its model.
  await expect(turn(page).getByRole('region')).toHaveCount(3);
  await expect(turn(page).getByRole('heading')).toHaveText([
    'gpt-4o-mini',
    'claude-haiku-4-5',
    'gemini-2.5-flash',
  ]);
  await expect(column(page, 'gpt-4o-mini')).toContainText('Echo: Hello all');
  await expect(column(page, 'gpt-4o-mini').getByTestId('compare-figures')).toContainText('to first token');
  const failed = column(page, 'gemini-2.5-flash');
  await expect(failed).toContainText('Failed:');
  await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
  // Claude is still streaming (its live figures say so): its own Stop stops it alone.
  const slow = column(page, 'claude-haiku-4-5');
  await expect(slow.getByTestId('compare-figures')).toContainText('tokens');
  await slow.getByRole('button', { name: 'Stop' }).click();
  await expect(slow).toContainText('Stopped: the reply is incomplete.');
  await chat.waitForReplyDone();
  // One request per model, each to its own API, at once.
  expect((await recordedRequests(openai)).filter((request) => request.method === 'POST')).toHaveLength(1);
  expect((await recordedRequests(claude)).filter((request) => request.method === 'POST')).toHaveLength(1);

  // Retry asks Gemini again, in the same place (the key is still wrong: it fails again there).
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(turn(page).getByRole('heading')).toHaveText([
    'gpt-4o-mini',
    'claude-haiku-4-5',
    'gemini-2.5-flash',
  ]);
  await expect(column(page, 'gemini-2.5-flash').getByRole('button', { name: 'Retry' })).toBeVisible();

  // Every control of a column is reached by keyboard.
  await column(page, 'gpt-4o-mini').getByRole('button', { name: 'Continue with this one' }).focus();
  await page.keyboard.press('Enter');
  await expect(turn(page)).toHaveCount(0);
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Echo: Hello all');
  // The others stay as its versions; the conversation asks that model alone from now on.
  await expect(reply.getByText(/^[123] \/ 3$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Compare', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Model: gpt-4o-mini' })).toBeVisible();
  await chat.ask('Just you');
  await expect(turn(page)).toHaveCount(0);
  await expect(chat.messages('assistant').last()).toContainText('Echo: Just you');
});

test('a reload mid-compare keeps both partial replies and the compare set; the next message compares again, and Fuse merges the replies', async ({
  chat,
  page,
  held,
}) => {
  // Groq's replies are held too: cut short by the reload in the first turn, ended at once in the
  // second (a reply streamed to its end at the slow scenario's pace took 15 s of this test).
  const heldGroq = await HeldStream.start();
  try {
    const fuser = mockKey('ok');
    await openWithConnections(chat, [
      held.config(),
      { ...mockConfig('groq', 'held-key'), baseUrl: heldGroq.url },
      mockConfig('claude', fuser),
    ]);
    await compare(page, [['Groq', 'llama-3.3-70b-versatile']]);
    await chat.send('Tell me a fact');
    const first = await held.nextReply();
    first.send('Held so far');
    const firstGroq = await heldGroq.nextReply();
    firstGroq.send('Groq so far');
    await expect(column(page, 'gpt-4o-mini')).toContainText('Held so far');
    await expect(column(page, 'llama-3.3-70b-versatile')).toContainText('Groq so far');

    await page.reload();
    await expect(turn(page).getByRole('region')).toHaveCount(2);
    await expect(column(page, 'gpt-4o-mini')).toContainText('Held so far');
    await expect(column(page, 'gpt-4o-mini')).toContainText('Interrupted');
    await expect(column(page, 'llama-3.3-70b-versatile')).toContainText('Groq so far');
    await expect(column(page, 'llama-3.3-70b-versatile')).toContainText('Interrupted');
    await expect(page.getByRole('button', { name: 'Compare: 2 models' })).toBeVisible();

    // Still comparing: the next message goes to both.
    await chat.send('Another');
    const second = await held.nextReply();
    second.send('Second answer');
    second.end();
    const secondGroq = await heldGroq.nextReply();
    secondGroq.send('Groq answer');
    secondGroq.end();
    await chat.waitForReplyDone();
    await expect(turn(page)).toHaveCount(2);
    const latest = turn(page).last();
    await expect(latest.getByRole('region', { name: 'gpt-4o-mini' })).toContainText('Second answer');
    await expect(latest.getByRole('region', { name: 'llama-3.3-70b-versatile' })).toContainText(
      'Groq answer',
    );

    // Fuse, by Claude: the request has the question and each reply labelled by its model.
    await latest.getByRole('button', { name: 'Fuse' }).click();
    await page
      .getByRole('dialog', { name: 'Fuse the replies' })
      .getByRole('group', { name: 'Claude' })
      .getByRole('button', { name: 'claude-haiku-4-5', exact: true })
      .click();
    const fused = latest.getByRole('region', { name: 'Fused by claude-haiku-4-5' });
    await expect(fused).toContainText('Echo:');
    await chat.waitForReplyDone();
    const [request] = (await recordedRequests(fuser)).filter((recorded) => recorded.method === 'POST');
    const sent = JSON.stringify(request?.body);
    expect(sent).toContain('Another');
    expect(sent).toContain('model=\\"gpt-4o-mini\\"');
    expect(sent).toContain('Second answer');
    expect(sent).toContain('model=\\"llama-3.3-70b-versatile\\"');
    expect(sent).toContain('Groq answer');
    // Its sources are links to their columns.
    await fused.getByRole('button', { name: 'llama-3.3-70b-versatile' }).click();
    await expect(latest.getByRole('region', { name: 'llama-3.3-70b-versatile' })).toBeFocused();
  } finally {
    await heldGroq.stop();
  }
});

test('on a phone each model is a tab; the compared turn has no WCAG A/AA violations', async ({
  chat,
  page,
}) => {
  await openWith(chat, { openai: mockKey('ok'), groq: mockKey('ok') });
  await page.setViewportSize({ width: 390, height: 844 });
  await compare(page, [['Groq', 'llama-3.3-70b-versatile']]);
  await chat.ask('Phone question');
  const tabs = turn(page).getByRole('tab');
  await expect(tabs).toHaveText(['gpt-4o-mini', 'llama-3.3-70b-versatile']);
  await expect(turn(page).getByRole('tabpanel')).toContainText('Echo: Phone question');
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(turn(page).getByRole('tabpanel').getByRole('region')).toHaveAccessibleName(
    'llama-3.3-70b-versatile',
  );
  expect(await violations(page, '[data-testid="compare-turn"]')).toEqual([]);
});
