import { expect, test } from '@playwright/test';

test('/ shows the chat screen', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'AI Provider Configuration' })).toBeVisible();
});

test('an unknown path shows the not-found page and logs the path', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/no/such/page?x=1');
  await expect(page.getByRole('heading', { name: '404', level: 1 })).toBeVisible();
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  const home = page.getByRole('link', { name: 'Return to Home' });
  await expect(home).toHaveAttribute('href', '/');
  await expect.poll(() => errors.some((text) => text.includes('/no/such/page'))).toBe(true);
  await home.click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
});

test('the built page carries a strict Content-Security-Policy', async ({ page }) => {
  await page.goto('/');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'none'");
});
