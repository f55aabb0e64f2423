import { violations } from './axe.ts';
import type { Page } from '@playwright/test';
import {
  expect,
  mockConfig,
  mockKey,
  settingsPanel,
  test,
  type ChatPage,
  type ProviderId,
} from './fixtures.ts';
import { mockPort } from './ports.ts';

/**
 * Tool calling in a reply, against the mock's `tools` scenario: with tools offered, the model calls
 * the first one with the user's text as its first string argument (here the code 'Run JavaScript'
 * runs), then answers 'Tool results: NAME: CONTENT' once the results come back.
 */

/** Turns 'Run JavaScript' (the built-in tools) on for the open conversation, in the Tools popover. */
async function turnOnJavaScript(page: Page) {
  await page.getByRole('button', { name: 'Tools: off' }).click();
  const popover = page.getByRole('dialog', { name: 'Tools' });
  await expect(popover).toContainText('Run JavaScript');
  const builtIn = popover.getByRole('switch', { name: 'Built-in' });
  await expect(builtIn).toHaveAttribute('aria-checked', 'false');
  await builtIn.click();
  await expect(builtIn).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Tools: 1 on' })).toBeVisible();
}

async function openWithTools(chat: ChatPage, provider: ProviderId = 'openai') {
  await chat.open(mockConfig(provider, mockKey('tools')));
  await chat.newConversation();
  await turnOnJavaScript(chat.page);
}

function approval(page: Page) {
  return page.getByRole('group', { name: 'Allow run_javascript to run?' });
}

/** The last reply's tool card toggles: the card of each call, by its one line. */
function toolCards(chat: ChatPage) {
  return chat.messages('assistant').last().getByTestId('tool-card');
}

for (const provider of ['openai', 'azure', 'claude', 'gemini', 'groq'] as const) {
  test(`${provider}: a call allowed once runs, its card opens to the arguments and result, and a reload keeps it`, async ({
    chat,
    page,
  }) => {
    await openWithTools(chat, provider);
    await chat.send('return 6 * 7');

    const asking = approval(page);
    await expect(asking).toBeVisible();
    await expect(asking).toContainText('From Built-in');
    await expect(asking).toContainText('"code": "return 6 * 7"');
    const allowOnce = asking.getByRole('button', { name: 'Allow once' });
    await expect(allowOnce).toBeFocused();
    await expect(asking.getByRole('button', { name: 'Always allow run_javascript' })).toBeVisible();
    await expect(asking.getByRole('button', { name: 'Deny' })).toBeVisible();
    await expect(chat.stopButton).toBeVisible();
    await allowOnce.click();

    await chat.waitForReplyDone();
    const reply = chat.messages('assistant').last();
    await expect(reply).toContainText('Tool results: run_javascript: Returned: 42');
    const card = reply.getByRole('button', { name: /^Used run_javascript \(Built-in\)$/ });
    await expect(card).toHaveAttribute('aria-expanded', 'false');
    await expect(toolCards(chat)).not.toContainText('Returned: 42');
    await card.click();
    await expect(card).toHaveAttribute('aria-expanded', 'true');
    await expect(toolCards(chat)).toContainText('"code": "return 6 * 7"');
    await expect(toolCards(chat)).toContainText('Returned: 42');
    // The card comes before the answer that used its result.
    const steps = reply.getByTestId('reply-step');
    await expect(steps).toHaveCount(2);
    await expect(steps.first().getByTestId('tool-card')).toHaveCount(1);
    await expect(steps.last()).toContainText('Tool results: run_javascript: Returned: 42');

    await page.reload();
    const again = chat.messages('assistant').last();
    await expect(again).toContainText('Tool results: run_javascript: Returned: 42');
    const reloaded = again.getByRole('button', { name: /^Used run_javascript/ });
    await reloaded.click();
    await expect(again.getByTestId('tool-card')).toContainText('Returned: 42');
    await expect(page.getByRole('button', { name: 'Tools: 1 on' })).toBeVisible();
  });
}

test('Deny: the model is told the user declined, and the reply goes on', async ({ chat, page }) => {
  await openWithTools(chat);
  await chat.send('return 1');
  await approval(page).getByRole('button', { name: 'Deny' }).click();
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Tool results: run_javascript: The user declined this call.');
  const card = reply.getByRole('button', { name: 'Used run_javascript (Built-in), declined' });
  await expect(card).toContainText('Declined');
});

test('Always allow: the next call runs without asking, and Settings lists it until revoked', async ({
  chat,
  page,
}) => {
  await openWithTools(chat);
  await chat.send('return 2');
  await approval(page).getByRole('button', { name: 'Always allow run_javascript' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: run_javascript: Returned: 2');

  // Nothing asks: the reply would wait for an answer otherwise.
  await chat.ask('return 3');
  await expect(chat.messages('assistant').last()).toContainText('Tool results: run_javascript: Returned: 3');
  await expect(approval(page)).toHaveCount(0);

  const panel = settingsPanel(page);
  const allowed = panel.getByRole('list', { name: 'Always allowed tools' });
  await expect(allowed).toContainText('run_javascript (Built-in)');
  await expect(panel.getByRole('spinbutton', { name: 'Tool steps per reply' })).toHaveValue('10');
  await panel.getByRole('button', { name: 'Revoke run_javascript' }).click();
  await expect(allowed).toHaveCount(0);
  await expect(panel).toContainText('None: every tool call asks first.');

  // Revoked: the next call asks again.
  await chat.send('return 4');
  await approval(page).getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: run_javascript: Returned: 4');
});

test('code has no network: a fetch fails, and the card says the call failed', async ({ chat, page }) => {
  await openWithTools(chat);
  await chat.send(`return await fetch('http://127.0.0.1:${mockPort}/__mock/requests').then((r) => r.status)`);
  await approval(page).getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText('Tool results: run_javascript: Error:');
  const card = reply.getByRole('button', { name: 'Used run_javascript (Built-in), failed' });
  await expect(card).toContainText('Failed');
  await card.click();
  await expect(reply.getByTestId('tool-card')).toContainText('fetch');
  await expect(reply.getByTestId('tool-card')).not.toContainText('Returned:');
});

test('code that never ends is stopped at the time limit', async ({ chat, page }) => {
  // The page's clock runs in real time, but the test moves it on to the limit: waiting it out
  // took 10 s with the loop keeping a core busy all along (the suite's costliest test).
  await page.clock.install();
  await openWithTools(chat);
  await chat.send('while (true) {}');
  await approval(page).getByRole('button', { name: 'Allow once' }).click();
  const running = chat
    .messages('assistant')
    .last()
    .getByRole('button', { name: /^Running run_javascript…/ });
  await expect(running).toBeVisible();
  // The loop holds its worker: the code's frame stays until the limit ends it.
  const runner = page.locator('iframe[src$="js-runner.html"]');
  await expect(runner).toHaveCount(1);
  await page.clock.fastForward(10_000);
  await expect(chat.messages('assistant').last()).toContainText(
    'Tool results: run_javascript: Error: Stopped after 10 s.',
  );
  await expect(runner).toHaveCount(0);
  await chat.waitForReplyDone();
  await expect(
    chat
      .messages('assistant')
      .last()
      .getByRole('button', { name: /failed$/ }),
  ).toBeVisible();
});

test('Stop while a call waits for approval leaves the reply stopped, and the next message works', async ({
  chat,
  page,
}) => {
  await openWithTools(chat);
  await chat.send('return 5');
  await expect(approval(page)).toBeVisible();
  await chat.stopButton.click();
  await chat.waitForReplyDone();
  const stopped = chat.messages('assistant').last();
  await expect(stopped).toContainText('Stopped: the reply is incomplete.');
  await expect(approval(page)).toHaveCount(0);
  await expect(
    stopped.getByRole('button', { name: 'Used run_javascript (Built-in), not run' }),
  ).toBeVisible();

  await chat.send('return 6');
  await approval(page).getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').last()).toContainText('Tool results: run_javascript: Returned: 6');
});

test('a model that takes no tools: the control says so and nothing is offered', async ({ chat, page }) => {
  const key = mockKey('tools');
  await chat.open({ ...mockConfig('openai', key), model: 'gpt-5-chat-latest' });
  await chat.newConversation();
  await page.getByRole('button', { name: 'Tools are off for gpt-5-chat-latest' }).click();
  const popover = page.getByRole('dialog', { name: 'Tools' });
  await expect(popover).toContainText('this model takes no tools');
  await popover.getByRole('switch', { name: 'Built-in' }).click();
  await expect(popover.getByRole('switch', { name: 'Built-in' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await chat.ask('return 7');
  await expect(chat.messages('assistant').last()).toContainText('Echo: return 7');
  await expect(toolCards(chat)).toHaveCount(0);
});

test('the approval card, an open tool card and the Tools popover have no WCAG A/AA violations', async ({
  chat,
  page,
}) => {
  await openWithTools(chat);
  await chat.send('return 6 * 7');
  await expect(approval(page)).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await approval(page).getByRole('button', { name: 'Allow once' }).click();
  await chat.waitForReplyDone();
  await chat
    .messages('assistant')
    .last()
    .getByRole('button', { name: /^Used run_javascript/ })
    .click();
  await page.getByRole('button', { name: 'Tools: 1 on' }).click();
  await expect(page.getByRole('dialog', { name: 'Tools' })).toContainText('Run JavaScript');
  expect(await violations(page)).toEqual([]);
});
