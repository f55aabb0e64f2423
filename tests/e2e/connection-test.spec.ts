import type { Page } from '@playwright/test';
import { expect, mockConfig, mockKey, test } from './fixtures.ts';
import { appPort } from './ports.ts';

const appOrigin = `http://127.0.0.1:${appPort}`;

/** 'Test connection' checks the drafted settings and says in one sentence what is wrong and how to fix it. */

async function testWith(page: Page, config: Record<string, unknown>) {
  await page.addInitScript((value) => localStorage.setItem('ai-chat-config', value), JSON.stringify(config));
  await page.goto('/');
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByRole('button', { name: 'Test connection' }).click();
  return panel.getByRole('status');
}

test('a working key: the models it can use are counted', async ({ page }) => {
  // The mock lists eleven models, one of them an embedding model that cannot chat.
  await expect(await testWith(page, mockConfig('openai', mockKey('ok')))).toHaveText(
    'Connected: 10 models available to this key.',
  );
});

test('Azure: the deployment is asked, and an unknown one is named', async ({ page }) => {
  await expect(await testWith(page, mockConfig('azure', mockKey('ok')))).toHaveText(
    'Connected: the deployment “gpt-4o-test” answered.',
  );
  const status = await testWith(page, mockConfig('azure', mockKey('http-404')));
  await expect(status).toHaveText(
    /^There is no deployment named “gpt-4o-test” at 127\.0\.0\.1:\d+: check the deployment name and the endpoint\.$/,
  );
});

test('a bad key says where to get a new one', async ({ page }) => {
  await expect(await testWith(page, mockConfig('groq', 'not-a-known-key'))).toHaveText(
    'Groq refused the key: check it, or create a new one at console.groq.com/keys.',
  );
});

test('CORS refused: Anthropic names its organisation setting; a compatible server its allowed origins', async ({
  page,
}) => {
  await expect(await testWith(page, mockConfig('claude', mockKey('no-cors')))).toContainText(
    'refused a request from this page (CORS). Browser (CORS) access may be disabled for your organization in the Anthropic Console settings',
  );
  await expect(await testWith(page, mockConfig('openai', mockKey('no-cors')))).toContainText(
    `allow the origin ${appOrigin} in its settings (for Ollama set OLLAMA_ORIGINS=${appOrigin}`,
  );
});

test('an unreachable host, and a result cleared once the settings change', async ({ page }) => {
  const status = await testWith(page, {
    ...mockConfig('openai', mockKey('ok')),
    baseUrl: 'http://127.0.0.1:9',
  });
  await expect(status).toHaveText(
    'Could not reach 127.0.0.1:9: check the address, your connection, and that the server is running.',
  );
  await page.getByRole('region', { name: 'AI Provider Configuration' }).getByLabel('API Key').fill('other');
  await expect(status).toHaveText('');
});
