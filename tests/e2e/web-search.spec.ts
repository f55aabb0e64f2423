import type { Page } from '@playwright/test';
import {
  expect,
  mockConfig,
  mockKey,
  openDataDialog,
  recordedRequests,
  test,
  type ChatPage,
  type ProviderId,
} from './fixtures.ts';

/**
 * The providers' own web search, against the mock's `search` scenarios: with the search on, each
 * provider answers about the tallest mountain citing three pages, in its own wire format (OpenAI's
 * url_citation annotations, Claude's citations, Gemini's grounding supports in bytes, Groq's
 * compound search results); without it, the mock echoes.
 */

const everest = 'Mount Everest: The Highest Mountain on Earth';
const maunaKea = 'Mauna Kea, Tallest from Base to Peak';

function searchToggle(page: Page) {
  return page.getByRole('button', { name: 'Search the web' });
}

async function searchedReply(chat: ChatPage, provider: ProviderId, scenario = 'search') {
  const key = mockKey(scenario);
  const config =
    provider === 'groq'
      ? { ...mockConfig(provider, key), model: 'groq/compound' }
      : mockConfig(provider, key);
  await chat.open(config);
  await chat.newConversation();
  if (provider !== 'groq') {
    await expect(searchToggle(chat.page)).toHaveAttribute('aria-pressed', 'false');
    await searchToggle(chat.page).click();
    await expect(searchToggle(chat.page)).toHaveAttribute('aria-pressed', 'true');
  } else {
    // Compound models search unasked: nothing to switch.
    await expect(searchToggle(chat.page)).toHaveCount(0);
  }
  await chat.send('What is the tallest mountain?');
  return key;
}

for (const provider of ['openai', 'claude', 'gemini', 'groq'] as const) {
  test(`${provider}: a searched answer shows its searches, numbered markers and sources, and keeps them over a reload`, async ({
    chat,
    page,
  }) => {
    await searchedReply(chat, provider);
    const reply = chat.messages('assistant').last();
    await expect(reply).toContainText('Mount Everest');
    await expect(reply).toContainText('Searched the web: tallest mountain in the world');

    // Gemini names its pages by their domain.
    const firstSource = provider === 'gemini' ? 'example.com' : everest;
    const sources = reply.getByRole('region', { name: 'Sources' });
    await expect(sources.getByRole('link', { name: firstSource, exact: true })).toHaveAttribute(
      'href',
      /^https:\/\/(example\.com\/mountains\/everest|vertexaisearch\.cloud\.google\.com\/)/,
    );
    // Groq's compound results cite no span: its pages are listed, with no markers in the text.
    if (provider !== 'groq') {
      const marker = reply.getByRole('link', { name: new RegExp(`^Source 1: `) }).first();
      await expect(marker).toHaveText('[1]');
      await expect(marker).toHaveAttribute('target', '_blank');
      await expect(marker).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      await marker.focus();
      await expect(page.getByRole('tooltip').filter({ visible: true })).toBeVisible();
      await expect(reply.getByTestId('citation-marker')).toHaveCount(provider === 'openai' ? 3 : 4);
    }
    if (provider === 'claude') await expect(reply.getByTestId('reply-stats')).toContainText('2 web searches');

    await page.reload();
    const again = chat.messages('assistant').last();
    await expect(
      again.getByRole('region', { name: 'Sources' }).getByRole('link', { name: firstSource, exact: true }),
    ).toBeVisible();
    if (provider !== 'groq') await expect(again.getByTestId('citation-marker').first()).toHaveText('[1]');
  });
}

test('the switch changes the request: off, the reply is plain; on, the search tool goes with it', async ({
  chat,
}) => {
  const key = mockKey('search');
  await chat.open(mockConfig('openai', key));
  await chat.newConversation();
  await chat.send('Plain?');
  await expect(chat.messages('assistant').last()).toContainText('Echo: Plain?');
  await searchToggle(chat.page).click();
  await chat.send('What is the tallest mountain?');
  await expect(chat.messages('assistant').last().getByRole('region', { name: 'Sources' })).toBeVisible();
  const requests = await recordedRequests(key);
  const bodies = requests.map((request) => JSON.stringify(request.body));
  expect(bodies[0]).not.toContain('web_search');
  expect(requests.at(-1)?.path).toBe('/v1/responses');
  expect(bodies.at(-1)).toContain('"type":"web_search"');
});

test('Gemini: the search suggestions are shown as given, in a frame that runs nothing', async ({ chat }) => {
  await searchedReply(chat, 'gemini');
  const frame = chat.messages('assistant').last().locator('iframe[title="Google Search suggestions"]');
  await expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
  await expect(frame.contentFrame().getByRole('link').first()).toHaveAttribute('target', '_blank');
});

test('Claude: a search that failed says so, and the answer goes on', async ({ chat }) => {
  await searchedReply(chat, 'claude', 'search-failed');
  const reply = chat.messages('assistant').last();
  await expect(reply).toContainText(
    "Search failed: Chimborazo farthest point from Earth's centre (max_uses_exceeded)",
  );
  await expect(reply).toContainText('which summit is farthest from Earth');
});

test('Claude: an organisation with web search off gets one sentence naming the setting', async ({ chat }) => {
  await searchedReply(chat, 'claude', 'search-disabled');
  await expect(chat.page.getByText(/Console/).first()).toBeVisible();
});

test('a searched answer exports its sources, and an import brings them back', async ({ chat, page }) => {
  await searchedReply(chat, 'claude');
  await expect(chat.messages('assistant').last().getByRole('region', { name: 'Sources' })).toBeVisible();
  await openDataDialog(page, 'Export');
  const text = await page.getByTestId('export-text').inputValue();
  expect(text).toContain('"web"');
  expect(text).toContain(maunaKea);
});

test('no switch where the model has no search of its own (Azure)', async ({ chat }) => {
  await chat.open(mockConfig('azure', mockKey('search')));
  await chat.newConversation();
  await expect(chat.page.getByRole('button', { name: /^Tools/ })).toBeVisible();
  await expect(searchToggle(chat.page)).toHaveCount(0);
});
