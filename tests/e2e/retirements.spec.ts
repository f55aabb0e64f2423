import type { Page } from '@playwright/test';
import { expect, mockConfig, mockKey, recordedRequests, test, type ChatPage } from './fixtures.ts';

/**
 * Models that still exist: current models offered first, retired ones marked and last, shutdown
 * days shown, and a one-click way off a model that is gone. The mock's `retired` key answers as the
 * providers did on 2026-11-26; the page's clock is set to that day.
 */

async function openOn(page: Page, chat: ChatPage, config: Record<string, unknown>) {
  await page.clock.setFixedTime(new Date('2026-11-26T12:00:00Z'));
  await chat.open(config);
}

test('the picker lists current models first and retired ones marked and last; the header warns of a shutdown within 30 days', async ({
  chat,
  page,
}) => {
  await openOn(page, chat, { ...mockConfig('openai', mockKey('retired')), model: 'o3' });
  await chat.newConversation();
  await expect(page.getByRole('status').filter({ hasText: 'o3 retires on 2026-12-11' })).toBeVisible();

  await page.getByRole('button', { name: 'Model: o3' }).click();
  const group = page.getByRole('group', { name: 'OpenAI' });
  const o3 = group.getByRole('button', { name: 'o3', exact: true });
  await expect(o3).toHaveAccessibleDescription(/^retires on 2026-12-11/);
  await expect(group.getByRole('button', { name: 'gpt-3.5-turbo', exact: true })).toHaveAccessibleDescription(
    /^retired/,
  );
  const names = await group
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) => [button.getAttribute('aria-label'), button.textContent?.includes('retired ·')]),
    );
  expect(names[0]).toEqual(['gpt-5.5', false]);
  const firstRetired = names.findIndex(([, retired]) => retired);
  expect(firstRetired).toBeGreaterThan(names.findIndex(([name]) => name === 'o3'));
  expect(names.slice(firstRetired).every(([, retired]) => retired)).toBe(true);
  expect(names.slice(firstRetired).map(([name]) => name)).toEqual(
    expect.arrayContaining(['gpt-4-turbo-preview', 'gpt-4', 'gpt-3.5-turbo', 'o4-mini']),
  );
});

test("the panel offers the recommended model when the configured one is not in the provider's list", async ({
  chat,
  page,
}) => {
  await openOn(page, chat, { ...mockConfig('openai', mockKey('retired')), model: 'gpt-3.5-turbo' });
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(panel.getByText('gpt-3.5-turbo is not in the list of models your key can use')).toBeVisible();
  // Retired models stay choosable, marked, in their own group.
  await expect(panel.getByRole('option', { name: 'gpt-3.5-turbo (retired)' })).toHaveCount(1);

  await panel.getByRole('button', { name: 'Use gpt-5.5' }).click();
  await expect(panel.getByLabel('Model', { exact: true })).toHaveValue('gpt-5.5');
  // Nothing is saved without the user's Save.
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored.model).toBe('gpt-3.5-turbo');
});

for (const [provider, retired, recommended] of [
  ['openai', 'gpt-3.5-turbo', 'gpt-5.5'],
  ['groq', 'llama-3.3-70b-versatile', 'openai/gpt-oss-120b'],
] as const) {
  test(`${provider}: a turn that failed on a retired model offers to switch to ${recommended} and retry`, async ({
    chat,
    page,
  }) => {
    const key = mockKey('retired');
    await openOn(page, chat, { ...mockConfig(provider, key), model: retired });
    await chat.newConversation();
    await chat.send('Hello there');
    await expect(page.getByText(`has no model ${retired}: it does not exist or was retired.`)).toBeVisible();
    await expect(chat.messages('assistant')).toHaveCount(0);

    await page.getByRole('button', { name: `Switch to ${recommended} and retry` }).click();
    await chat.waitForReplyDone();
    await expect(chat.messages('assistant')).toContainText('Echo: Hello there');
    await expect(page.getByRole('button', { name: `Model: ${recommended}` })).toBeVisible();
    const sent = (await recordedRequests(key)).filter((request) => request.method === 'POST');
    expect(sent.map(({ body }) => (body as { model?: string }).model)).toEqual([retired, recommended]);
    await expect(page.getByText('it does not exist or was retired')).toHaveCount(0);
  });
}
