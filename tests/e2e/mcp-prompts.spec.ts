import { expect, mockConfig, mockKey, seedStorage, test } from './fixtures.ts';
import { mcpUrl } from './ports.ts';

/**
 * An MCP server's prompts in the '/' list (docs/prompts.md#mcp-prompts): the real test server of
 * tools/mcp-servers (its prompts in prompts.mjs), under a tag of its own so that the requests this
 * test made can be read back apart from the other workers'.
 */

const path = '/legacy/mcp/slash-prompts';

interface RecordedMcpRequest {
  rpc: string[];
  body: { params?: { name?: string; arguments?: Record<string, string> } } | null;
}

async function promptGets(): Promise<unknown[]> {
  const response = await fetch(`${mcpUrl}/__control/requests?path=${encodeURIComponent(path)}`);
  const requests = (await response.json()) as RecordedMcpRequest[];
  return requests
    .filter((request) => request.rpc.includes('prompts/get'))
    .map((request) => ({ name: request.body?.params?.name, arguments: request.body?.params?.arguments }));
}

test("'/' lists a connected server's prompts after the saved ones, marked with the server; chosen by keyboard, its argument asked for, its text inserted", async ({
  chat,
  page,
}) => {
  const now = new Date().toISOString();
  await seedStorage(page, {
    'ai-chat-config': JSON.stringify(mockConfig('openai', mockKey('ok'))),
    'ai-chat-mcp-servers': JSON.stringify([
      { id: 'mcp-docs', name: 'Docs server', url: `${mcpUrl}${path}`, auth: 'none', enabled: true },
    ]),
    'ai-chat-prompts': JSON.stringify([
      { id: 'p1', title: 'Summary checklist', body: 'Check the summary.', createdAt: now, updatedAt: now },
    ]),
  });
  await chat.open();
  await chat.newConversation();
  await chat.composer.focus();
  await page.keyboard.type('/summ');

  const options = page.getByRole('listbox', { name: 'Prompts' }).getByRole('option');
  // The server connects as the conversation opens (its tools are counted); its prompts follow.
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toHaveAccessibleName('Summary checklist');
  const served = options.nth(1);
  await expect(served).toHaveAccessibleName('Summarize a topic — from Docs server');
  await expect(served).toHaveAccessibleDescription(
    'Asks for a summary of a topic, in a style if one is given.',
  );
  await page.keyboard.press('ArrowDown');
  await expect(served).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');

  const form = page.getByRole('dialog', { name: 'Fill in Summarize a topic' });
  const topic = form.getByRole('textbox', { name: 'topic' });
  await expect(topic).toBeFocused();
  await expect(topic).toHaveAccessibleDescription('What to summarize.');
  // The required argument must be filled in; the optional one may stay empty (and is not sent).
  await page.keyboard.press('Enter');
  await expect(form.getByText('topic must be filled in.')).toBeVisible();
  await expect(topic).toBeFocused();
  await page.keyboard.type('tides');
  await page.keyboard.press('Enter');

  await expect(form).toHaveCount(0);
  await expect(chat.composer).toHaveValue(
    'Summarize tides.\n\nOf course: a summary of tides follows (style: (not sent)).',
  );
  await expect(chat.composer).toBeFocused();
  expect(await promptGets()).toEqual([{ name: 'summarize', arguments: { topic: 'tides' } }]);

  // A prompt of text and a picture: only its text goes in, and a toast says what was left out.
  await chat.composer.fill('');
  await page.keyboard.type('/describe');
  await expect(options).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(chat.composer).toHaveValue('Describe this picture.');
  await expect(
    chat.toast('Only the prompt’s text is inserted: 1 picture and 1 resource left out.'),
  ).toBeVisible();
});
