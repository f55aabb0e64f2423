import type { Page } from '@playwright/test';
import { violations } from './axe.ts';
import {
  ChatPage,
  dismissToasts,
  expect,
  importConversation,
  mockConfig,
  mockKey,
  settingsPanel,
  test,
} from './fixtures.ts';
import { languageModelRecord, scriptLanguageModel } from './scripted-language-model.ts';

/** 'On this device' as stored under ai-chat-config: nothing to set but the provider. */
const deviceConfig = { provider: 'device', apiKey: '', model: 'built-in', temperature: 0.7, maxTokens: 800 };

/**
 * A browser without the Prompt API (Firefox, Safari, an older Chrome). This Chromium has the API
 * (it answers 'unavailable': no model comes with it), so the global is taken away first.
 */
async function withoutPromptApi(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (window as { LanguageModel?: unknown }).LanguageModel;
  });
}

test('feature absent: a browser without the Prompt API is not offered the model', async ({ page }) => {
  await withoutPromptApi(page);
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const provider = settingsPanel(page).getByLabel('Provider');
  await expect(provider.locator('option', { hasText: 'Claude' })).toHaveCount(1);
  await expect(provider.locator('option', { hasText: 'On this device' })).toHaveCount(0);
  // A device connection remembered from elsewhere is not in the model picker either.
  await page.evaluate(() => {
    const device = { provider: 'device', apiKey: '', model: 'built-in', temperature: 0.7, maxTokens: 800 };
    localStorage.setItem('ai-chat-connections', JSON.stringify({ device }));
  });
  await page.reload();
  await chat.newConversation();
  await page.getByRole('button', { name: 'Model: gpt-4o-mini' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose a model' });
  await expect(picker.getByText('gpt-4o-mini').first()).toBeVisible();
  await expect(picker.getByText('On this device')).toHaveCount(0);
});

test('feature absent: a configuration saved elsewhere with On this device loads and says why it cannot answer', async ({
  page,
}) => {
  await withoutPromptApi(page);
  const chat = new ChatPage(page);
  await chat.open(deviceConfig);
  const panel = settingsPanel(page);
  await expect(panel.getByLabel('Provider')).toHaveValue('device');
  await expect(
    panel
      .getByLabel('Provider')
      .locator('option', { hasText: 'On this device (not available in this browser)' }),
  ).toHaveCount(1);
  await expect(panel.getByRole('status').filter({ hasText: 'Not available in this browser' })).toBeVisible();
  await expect(panel.getByLabel('API Key')).toHaveCount(0);
  await chat.newConversation();
  await chat.send('Hello?');
  await expect(page.getByTestId('failure-reason')).toContainText(
    'On this device is not available in this browser',
  );
  await expect(chat.messages('user')).toHaveText(/Hello\?/);
});

test('downloadable: Download starts only on the click, shows its progress, then Ready', async ({ page }) => {
  await scriptLanguageModel(page, { availability: 'downloadable', progress: [0, 0.42, 1], progressMs: 1500 });
  // Each step of the download stays 1.5 s, long enough to be seen on a busy machine; the test moves
  // the page's clock on to the next one once it has seen it, instead of waiting the 4.5 s out.
  await page.clock.install();
  const chat = new ChatPage(page);
  await chat.open();
  const panel = settingsPanel(page);
  await panel.getByLabel('Provider').selectOption({ label: 'On this device' });
  // No key, no address, no test: the model's status instead.
  await expect(panel.getByLabel('API Key')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Test connection' })).toHaveCount(0);
  await expect(panel.getByRole('slider')).toHaveCount(0);
  await expect(panel.getByRole('status').filter({ hasText: 'not on this device yet' })).toBeVisible();
  await expect(panel.getByText(/does not say how large the download is.*about 22 GB free/)).toBeVisible();
  expect((await languageModelRecord(page)).creates).toHaveLength(0);
  expect(await violations(page)).toEqual([]);

  await panel.getByRole('button', { name: 'Download' }).click();
  const bar = panel.getByRole('progressbar', { name: 'Model download' });
  await expect(bar).toBeVisible();
  await page.clock.fastForward(1500);
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await page.clock.fastForward(1500);
  await expect(bar).toHaveAttribute('aria-valuenow', '42');
  await expect(panel.getByRole('status')).toHaveText('Downloading the model: 42%');
  await page.clock.fastForward(1500);
  await expect(panel.getByRole('status')).toHaveText('Ready');
  await expect(bar).toHaveCount(0);

  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(chat.toast('Configuration saved')).toBeVisible();
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({ provider: 'device', model: 'built-in', apiKey: '' });
});

test('first run: "Use the model in this browser" comes first, downloads on that click, and a conversation opens', async ({
  page,
}) => {
  await scriptLanguageModel(page, { availability: 'downloadable', progress: [0, 1], progressMs: 500 });
  const chat = new ChatPage(page);
  await chat.open();
  const ways = page
    .getByRole('region', { name: 'Connect a provider' })
    .getByRole('list', { name: 'Ways to start' });
  await expect(ways.getByRole('button')).toHaveText([
    'Use the model in this browser',
    'Find models on this computer',
    'Add an API key',
  ]);
  expect((await languageModelRecord(page)).creates).toHaveLength(0);
  await ways.getByRole('button', { name: 'Use the model in this browser' }).click();
  await expect(chat.composer).toBeFocused();
  await expect(settingsPanel(page).getByRole('status')).toHaveText('Ready');
  expect((await languageModelRecord(page)).creates.length).toBeGreaterThan(0);
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({ provider: 'device' });
});

test('unavailable: says the hardware or the browser is the reason, with no Download', async ({ page }) => {
  await scriptLanguageModel(page, { availability: 'unavailable' });
  const chat = new ChatPage(page);
  await chat.open(deviceConfig);
  const panel = settingsPanel(page);
  await expect(panel.getByRole('status')).toContainText(
    "Either the hardware does not meet the model's needs, or the browser has turned its model off",
  );
  await expect(panel.getByRole('button', { name: 'Download' })).toHaveCount(0);
});

test('a reply streams in; the request carries the system prompt first and the history; Stop keeps it, marked stopped', async ({
  page,
}) => {
  await scriptLanguageModel(page, {
    availability: 'available',
    reply: ['Bonjour', ' from', ' this', ' device', ' and more'],
    chunkMs: 150,
    holdAfter: 4,
  });
  const chat = new ChatPage(page);
  await chat.open(deviceConfig);
  // A conversation with history: system, 'hi', a reply (written by another provider).
  await importConversation(page, 'Hello there');
  await dismissToasts(page);
  await chat.send('Say something');
  await expect(chat.messages('assistant').last()).toContainText('Bonjour from this device');
  await expect(page.getByTestId('streaming-cursor')).toBeVisible();
  await chat.stopButton.click();
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Bonjour from this device');
  await expect(reply).toContainText('Stopped');
  await expect(reply).not.toContainText('and more');

  const record = await languageModelRecord(page);
  expect(record.aborted).toBe(1);
  expect(record.creates.at(-1)?.initialPrompts).toEqual([
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello there' },
  ]);
  expect(record.prompts.at(-1)).toBe('Say something');

  await page.reload();
  await expect(chat.messages('assistant').last()).toContainText('Bonjour from this device');
  // The model picker offers the browser's model where the browser has it.
  await page.getByRole('button', { name: 'Model: built-in' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Choose a model' }).getByText('On this device'),
  ).toBeVisible();
});

test('a conversation longer than the context window is explained, and kept', async ({ page }) => {
  await scriptLanguageModel(page, { availability: 'available', quota: { requested: 5210, quota: 4096 } });
  const chat = new ChatPage(page);
  await chat.open(deviceConfig);
  await chat.newConversation();
  await chat.send('A very long question');
  const reason =
    "The conversation is longer than the model's context window of 4,096 tokens (it needs 5,210): start a new conversation, or shorten this one.";
  await expect(chat.toast('Error calling On this device API')).toContainText(reason);
  await dismissToasts(page);
  await expect(page.getByTestId('failure-reason')).toContainText(reason);
  await expect(chat.messages('user')).toHaveText(/A very long question/);
  await page.reload();
  await expect(chat.messages('user')).toHaveText(/A very long question/);
});
