import { ChatPage, expect, mockKey, test } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** A new user's first minute: the first-run card, a key of another provider held back. */

test('from a fresh start, the card connects a compatible server by its base URL alone and the first reply streams', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  // The spec's empty state stays, with the card beside it.
  await expect(page.getByRole('heading', { name: 'No Conversation Selected' })).toBeVisible();
  const card = page.getByRole('region', { name: 'Connect a provider' });
  // The recommended model comes preselected, not the spec's retired default.
  await expect(card.getByLabel('Model')).toHaveValue('gpt-5.5');

  await card.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible server (Ollama, LM Studio…)' });
  await card.getByLabel('Base URL').fill(`${mockUrl}/local/${mockKey('ok')}/v1`);
  // Without a model, saving is refused with the reason.
  await card.getByRole('button', { name: 'Save and start chatting' }).click();
  await expect(card.getByRole('alert')).toContainText('choose a model');

  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toHaveText('Connected: 3 models available.');
  await expect(card.getByLabel('Model')).not.toHaveValue('__custom__');
  await card.getByRole('button', { name: 'Save and start chatting' }).click();

  await expect(card).toHaveCount(0);
  await expect(chat.composer).toBeFocused();
  await chat.composer.fill('Hello local');
  await chat.composer.press('Enter');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Echo: Hello local');
});

test('a key of another provider is held back until the user says to use it', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('API Key').fill('sk-proj-first-key-of-openai');
  await panel.getByLabel('Provider').selectOption('claude');
  await expect(panel.getByRole('alert')).toContainText('This looks like an OpenAI key');

  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByRole('status')).toContainText('it was not sent to Claude');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByTestId('provider-badge')).toHaveText('OpenAI');

  await panel.getByRole('button', { name: 'Use it anyway' }).click();
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByTestId('provider-badge')).toHaveText('Claude');
  await expect(panel.getByRole('alert')).toHaveCount(0);
});
