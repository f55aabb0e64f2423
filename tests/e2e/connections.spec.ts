import type { Page } from '@playwright/test';
import { ChatPage, expect, mockConfig, mockKey, recordedRequests, settingsPanel, test } from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** Every provider at once: remembered keys, a model pinned per conversation, Regenerate with another model. */

async function configure(page: Page, provider: string, key: string) {
  const panel = settingsPanel(page);
  await panel.getByLabel('Provider').selectOption({ label: provider });
  await panel.getByLabel('API Key').fill(key);
  await panel.getByText('Advanced').click();
  await panel.getByLabel('Base URL').fill(mockUrl);
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByText('Advanced').click();
}

async function pickModel(page: Page, current: string, search: string, group: string, model: string) {
  await page.getByRole('button', { name: `Model: ${current}` }).click();
  await page.getByRole('textbox', { name: 'Search models' }).fill(search);
  await page.getByRole('group', { name: group }).getByRole('button', { name: model, exact: true }).click();
  await expect(page.getByRole('button', { name: `Model: ${model}` })).toBeVisible();
}

test('two providers and an endpoint configured; conversations pinned to different models; each request goes where its pin says', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const openaiKey = mockKey('ok');
  const claudeKey = mockKey('ok');
  // A local server with authentication switched on (LM Studio can require a token).
  const endpointScenario = mockKey('ok');
  await chat.open(mockConfig('openai', openaiKey));
  const panel = settingsPanel(page);

  await configure(page, 'Claude', claudeKey);
  await panel.getByLabel('Provider').selectOption({ label: 'Add OpenAI-compatible endpoint…' });
  await panel.getByLabel('Name').fill('LM Studio');
  await panel.getByLabel('Base URL').fill(`${mockUrl}/local/${endpointScenario}/v1`);
  await panel.getByLabel('API Key').fill('lm-token');
  await panel.getByRole('textbox', { name: 'Model id' }).fill('gemma3:4b');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  // Back to OpenAI: its key and model are remembered, not replaced by Claude's.
  await panel.getByLabel('Provider').selectOption({ label: 'OpenAI' });
  await expect(panel.getByLabel('API Key')).toHaveValue(openaiKey);
  await panel.getByLabel('Provider').selectOption({ label: 'Claude' });
  await expect(panel.getByLabel('API Key')).toHaveValue(claudeKey);
  await panel.getByLabel('Provider').selectOption({ label: 'OpenAI' });
  await panel.getByRole('button', { name: 'Save Configuration' }).click();

  const badge = page.getByTestId('provider-badge');
  await chat.newConversation();
  await expect(badge).toHaveText('OpenAI');
  await pickModel(page, 'gpt-4o-mini', 'Haiku 4.5', 'Claude', 'claude-haiku-4-5');
  await expect(badge).toHaveText('Claude');
  await expect(chat.composer).toHaveAttribute('placeholder', 'Type a message... (Using Claude)');
  await chat.send('one');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').getByTestId('message-model')).toHaveText('claude-haiku-4-5');

  await chat.newConversation();
  await expect(badge).toHaveText('OpenAI');
  await pickModel(page, 'gpt-4o-mini', '4.1', 'OpenAI', 'gpt-4.1');
  await chat.send('two');
  await chat.waitForReplyDone();

  await chat.newConversation();
  await pickModel(page, 'gpt-4o-mini', 'qwen', 'LM Studio', 'qwen3:8b');
  await expect(badge).toHaveText('LM Studio');
  await chat.send('three');
  await chat.waitForReplyDone();
  const [toEndpoint] = (await recordedRequests(endpointScenario)).filter(
    (request) => request.method === 'POST',
  );
  expect(toEndpoint).toMatchObject({ path: `/local/${endpointScenario}/v1/chat/completions` });
  expect(toEndpoint?.headers.authorization).toBe('Bearer lm-token');
  expect(toEndpoint?.body).toMatchObject({ model: 'qwen3:8b', max_tokens: 4096, temperature: 0.7, top_p: 1 });

  const [toClaude] = (await recordedRequests(claudeKey)).filter((request) => request.method === 'POST');
  expect(toClaude).toMatchObject({ method: 'POST', path: '/v1/messages' });
  expect(toClaude?.headers['x-api-key']).toBe(claudeKey);
  expect(toClaude?.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 4096, temperature: 0.7 });
  const toOpenai = (await recordedRequests(openaiKey)).filter((request) => request.method === 'POST');
  expect(toOpenai).toHaveLength(1);
  expect(toOpenai[0]).toMatchObject({ path: '/v1/chat/completions' });
  expect(toOpenai[0]?.headers.authorization).toBe(`Bearer ${openaiKey}`);
  // Max tokens came along from the Claude draft when the panel switched back (the spec's switch rule).
  expect(toOpenai[0]?.body).toMatchObject({
    model: 'gpt-4.1',
    max_tokens: 4096,
    temperature: 0.7,
    top_p: 0.95,
  });

  // The pins are kept with the conversations.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Model: qwen3:8b' })).toBeVisible();
  await chat.rows.filter({ hasText: 'Conversation 2' }).click();
  await expect(page.getByRole('button', { name: 'Model: gpt-4.1' })).toBeVisible();
  await chat.rows.filter({ hasText: 'Conversation 1' }).click();
  await expect(page.getByRole('button', { name: 'Model: claude-haiku-4-5' })).toBeVisible();
  await expect(badge).toHaveText('Claude');

  // Unpinned, it follows the saved configuration again.
  await page.getByRole('button', { name: 'Model: claude-haiku-4-5' }).click();
  await page.getByRole('button', { name: /^Follow the saved configuration/ }).click();
  await expect(page.getByRole('button', { name: 'Model: gpt-4o-mini' })).toBeVisible();
  await expect(badge).toHaveText('OpenAI');
});

test('Regenerate with another model: a new version beside the first, labelled with its model', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const groqKey = mockKey('ok');
  await chat.open(mockConfig('openai', mockKey('ok')));
  await configure(page, 'Groq', groqKey);
  await settingsPanel(page).getByLabel('Provider').selectOption({ label: 'OpenAI' });
  await settingsPanel(page).getByRole('button', { name: 'Save Configuration' }).click();

  await chat.newConversation();
  await chat.send('Compare us');
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant');
  await expect(reply.getByTestId('message-model')).toHaveText('gpt-4o-mini');

  await reply.hover();
  await reply.getByRole('button', { name: 'Regenerate with…' }).click();
  await page.getByRole('textbox', { name: 'Search models' }).fill('llama-3.3');
  await page
    .getByRole('group', { name: 'Groq' })
    .getByRole('button', { name: 'llama-3.3-70b-versatile' })
    .click();
  await chat.waitForReplyDone();
  await expect(reply.getByTestId('message-model')).toHaveText('llama-3.3-70b-versatile');
  await expect(reply).toContainText('Echo: Compare us');
  await expect(reply.getByText('2 / 2')).toBeVisible();
  // Regenerate with… is for this reply only: the conversation still follows the saved configuration.
  await expect(page.getByRole('button', { name: 'Model: gpt-4o-mini' })).toBeVisible();
  const [toGroq] = (await recordedRequests(groqKey)).filter((request) => request.method === 'POST');
  expect(toGroq?.body).toMatchObject({ model: 'llama-3.3-70b-versatile' });

  await reply.getByRole('button', { name: 'Previous version' }).click();
  await expect(reply.getByTestId('message-model')).toHaveText('gpt-4o-mini');
});

test('with no key saved, the picker says where to add one', async ({ chat, page }) => {
  await chat.open();
  await chat.newConversation();
  await page.getByRole('button', { name: 'Model: gpt-3.5-turbo' }).click();
  await expect(
    page.getByText('Save a key for a provider in the settings panel to choose its models here.'),
  ).toBeVisible();
});
