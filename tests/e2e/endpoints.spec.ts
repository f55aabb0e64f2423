import type { Page } from '@playwright/test';
import { ChatPage, expect, mockConfig, mockKey, recordedRequests, settingsPanel, test } from './fixtures.ts';
import { appPort, mockUrl } from './ports.ts';

/**
 * OpenAI-compatible endpoints beside the five providers: a local server (the mock's Ollama, which
 * needs no key and takes its scenario from the base URL) added, tested, used, pinned and removed.
 */

async function addEndpoint(page: Page, name: string, baseUrl: string) {
  const panel = settingsPanel(page);
  await panel.getByLabel('Provider').selectOption({ label: 'Add OpenAI-compatible endpoint…' });
  await panel.getByLabel('Name').fill(name);
  await panel.getByLabel('Base URL').fill(baseUrl);
}

test('a keyless local server: added, tested, saved, sent to without a key, its live models picked, then removed', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const scenario = mockKey('ok');
  const baseUrl = `${mockUrl}/local/${scenario}/v1`;
  await chat.open(mockConfig('openai', mockKey('ok')));
  const panel = settingsPanel(page);

  await addEndpoint(page, 'Ollama', baseUrl);
  await expect(panel.getByText('Optional: most local servers need none.')).toBeVisible();
  await expect(panel.getByText('Advanced')).toHaveCount(0);
  await panel.getByRole('textbox', { name: 'Model id' }).fill('llama3.2:latest');
  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByRole('status')).toHaveText('Connected: 3 models available.');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();

  const badge = page.getByTestId('provider-badge');
  await expect(badge).toHaveText('Ollama');
  await chat.newConversation();
  await expect(chat.composer).toHaveAttribute('placeholder', 'Type a message... (Using Ollama)');
  await chat.send('Hello local');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Echo: Hello local');

  // Its live list is offered in the picker, grouped under its name.
  await page.getByRole('button', { name: 'Model: llama3.2:latest' }).click();
  await page.getByRole('group', { name: 'Ollama' }).getByRole('button', { name: 'qwen3:8b' }).click();
  await chat.send('Again');
  await chat.waitForReplyDone();

  const posts = (await recordedRequests(scenario)).filter((request) => request.method === 'POST');
  expect(posts.map((request) => [request.path, (request.body as { model: string }).model])).toEqual([
    [`/local/${scenario}/v1/chat/completions`, 'llama3.2:latest'],
    [`/local/${scenario}/v1/chat/completions`, 'qwen3:8b'],
  ]);
  for (const request of posts) expect(request.headers).not.toHaveProperty('authorization');

  // The panel goes back to OpenAI (its key remembered); the pinned conversation stays on Ollama.
  await panel.getByLabel('Provider').selectOption({ label: 'OpenAI' });
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(badge).toHaveText('Ollama');
  await page.reload();
  await expect(badge).toHaveText('Ollama');

  await panel.getByLabel('Provider').selectOption({ label: 'Ollama' });
  await expect(panel.getByLabel('Base URL')).toHaveValue(baseUrl);
  await panel.getByRole('button', { name: 'Remove endpoint' }).click();
  await expect(panel.getByLabel('Provider').locator('option', { hasText: 'Ollama' })).toHaveCount(0);
  await expect(panel.getByLabel('Provider')).toHaveValue('openai');
});

test('a local server that does not allow this origin: Test connection names OLLAMA_ORIGINS', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await addEndpoint(page, 'Ollama', `${mockUrl}/local/${mockKey('no-cors')}/v1`);
  await settingsPanel(page).getByRole('textbox', { name: 'Model id' }).fill('llama3.2:latest');
  await settingsPanel(page).getByRole('button', { name: 'Test connection' }).click();
  await expect(settingsPanel(page).getByRole('status')).toContainText(
    `refused a request from this page (CORS): allow the origin http://127.0.0.1:${appPort} in its settings (for Ollama set OLLAMA_ORIGINS=http://127.0.0.1:${appPort} before ollama serve`,
  );
});
