import { chromiumLaunchOptions } from './chromium.ts';
import { expect, mockConfig, mockKey, test } from './fixtures.ts';

/**
 * The microphone refused: this file's browser has a fake microphone but no fake permission prompt,
 * and a headless browser answers the prompt no, as a user who blocked the site does.
 */
const launch = chromiumLaunchOptions();
test.use({ launchOptions: { ...launch, args: [...launch.args, '--use-fake-device-for-media-stream'] } });

test('a microphone the browser refuses: said in one sentence, with the fix', async ({ chat, page }) => {
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await page.getByRole('button', { name: 'Dictate' }).click();
  const bar = page.getByRole('group', { name: 'Dictation' });
  await expect(bar.getByRole('alert')).toHaveText(
    /blocked for this site: allow it in the site’s settings.*then try again\./,
  );
  await bar.getByRole('button', { name: 'Close' }).click();
  await expect(bar).toHaveCount(0);
});
