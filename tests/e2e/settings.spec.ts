import { ChatPage, expect, mockKey, test } from './fixtures.ts';
import { mockUrl } from './ports.ts';

const notice =
  'Please configure your AI provider settings in the panel on the right to start using the application.';

test('defaults, the notice, and saving a configuration through the panel', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page.getByText(notice)).toBeVisible();
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await expect(panel.getByLabel('Provider')).toHaveValue('openai');
  await expect(panel.getByLabel('Model')).toHaveValue('gpt-3.5-turbo');
  await expect(panel.getByLabel('API Key')).toHaveAttribute('type', 'password');

  await chat.newConversation();
  await expect(chat.composer).toHaveAttribute('placeholder', 'Type a message... (Using OpenAI)');
  // Without a key nothing is sent and the draft stays.
  await chat.send('Hello');
  await expect(chat.toast('Please configure OpenAI settings first')).toBeVisible();
  await expect(chat.composer).toHaveValue('Hello');

  await panel.getByLabel('Provider').selectOption('groq');
  await expect(panel.getByLabel('Model')).toHaveValue('mixtral-8x7b-32768');
  // Nothing applies before Save.
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');
  await panel.getByLabel('API Key').fill(mockKey('ok'));
  await panel.getByText('Advanced').click();
  await panel.getByLabel('Base URL').fill(mockUrl);
  await panel.getByLabel('Model').selectOption('llama-3.3-70b-versatile');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(chat.toast('Configuration saved')).toBeVisible();
  await expect(page.getByText(notice)).toHaveCount(0);
  await expect(page.getByTestId('provider-badge')).toHaveText('Groq');
  await expect(chat.composer).toHaveAttribute('placeholder', 'Type a message... (Using Groq)');

  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({ provider: 'groq', model: 'llama-3.3-70b-versatile', topP: 0.95 });

  await chat.composer.press('Enter');
  await expect(chat.messages('assistant')).toContainText('Echo: Hello');
});

test('switching provider resets to its defaults, keeping key, temperature and max tokens', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('API Key').fill('my-key');
  await panel.getByLabel('Provider').selectOption('claude');
  await expect(panel.getByLabel('Model')).toHaveValue('claude-3-opus-20240229');
  await expect(panel.getByLabel('API Key')).toHaveValue('my-key');
  await expect(panel.getByRole('slider', { name: 'Max Tokens' })).toHaveAttribute('aria-valuemax', '4096');
  await expect(panel.getByRole('slider', { name: 'Top P' })).toHaveCount(0);

  await panel.getByLabel('Provider').selectOption('gemini');
  await expect(panel.getByLabel('Model')).toHaveValue('gemini-pro');
  await expect(panel.getByRole('slider', { name: 'Top K' })).toHaveAttribute('aria-valuenow', '40');
  await expect(panel.getByRole('slider', { name: 'Frequency Penalty' })).toHaveCount(0);

  await panel.getByLabel('Provider').selectOption('azure');
  await expect(panel.getByLabel('Model')).toHaveCount(0);
  await expect(panel.getByLabel('API Version')).toHaveValue('2023-05-15');
  await expect(panel.getByLabel('Endpoint')).toHaveValue('');
  await expect(panel.getByRole('slider', { name: 'Presence Penalty' })).toHaveAttribute(
    'aria-valuemin',
    '-2',
  );
  await expect(panel.getByRole('slider', { name: 'Temperature' })).toHaveAttribute('aria-valuemax', '2');
  await expect(panel.getByLabel('API Key')).toHaveValue('my-key');
});

test('the panel collapses and expands', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page.getByRole('button', { name: 'Collapse settings' }).click();
  await expect(page.getByRole('heading', { name: 'AI Provider Configuration' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand settings' }).click();
  await expect(page.getByRole('heading', { name: 'AI Provider Configuration' })).toBeVisible();
});

test('theme: follows the system, toggles, and persists under "theme"', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
});

test('once a key is saved, the model picker offers the live list and accepts any model id', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('API Key').fill(mockKey('ok'));
  await panel.getByText('Advanced').click();
  await panel.getByLabel('Base URL').fill(mockUrl);
  await panel.getByRole('button', { name: 'Save Configuration' }).click();

  const model = panel.getByLabel('Model');
  // gpt-4.1-mini comes only from the mock's /v1/models; embeddings are not offered.
  await expect(model.locator('option', { hasText: 'gpt-4.1-mini' })).toHaveCount(1);
  await expect(model.locator('option', { hasText: 'text-embedding-3-small' })).toHaveCount(0);
  // gpt-3.5-turbo-16k is in the built-in list but not the live one: the panel warns.
  await model.selectOption('gpt-3.5-turbo-16k');
  await expect(
    panel.getByText('gpt-3.5-turbo-16k is not in the list of models your key can use'),
  ).toBeVisible();

  await model.selectOption({ label: 'Other model id…' });
  await panel.getByLabel('Model id').fill('my-fine-tune');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored.model).toBe('my-fine-tune');
});
