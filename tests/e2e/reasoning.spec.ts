import type { Page } from '@playwright/test';
import {
  expect,
  exportSnapshot,
  importFile,
  mockConfig,
  mockKey,
  recordedRequests,
  test,
} from './fixtures.ts';
import { mockUrl } from './ports.ts';

/** Thinking shown live and kept, sent back where the provider needs it; each reply's figures. */

function reasoningToggle(page: Page) {
  return page
    .getByTestId('message')
    .last()
    .getByRole('button', { name: /^(Thinking…|Thought for \d+ s)$/ });
}

/** The thinking's text, named by its toggle. */
function reasoningRegion(page: Page) {
  return page
    .getByTestId('message')
    .last()
    .getByRole('region', { name: /^(Thinking…|Thought for \d+ s)$/ });
}

async function setSystemPrompt(page: Page, prompt: string) {
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await page.getByRole('textbox', { name: 'System prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The figures the mock reports for a request: the same body asked again without streaming. */
async function mockUsage(path: string, key: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${mockUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ...(body as object), stream: false }),
  });
  expect(response.ok, `${key}: ${response.status}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

const cases = [
  { provider: 'claude', model: 'claude-opus-4-8', thought: 'Reading the question' },
  { provider: 'openai', model: 'gpt-5.4', thought: 'Reading the question' },
  { provider: 'gemini', model: 'gemini-2.5-flash', thought: 'Reading the question' },
  { provider: 'groq', model: 'qwen/qwen3-32b', thought: 'Reading the question' },
] as const;

for (const { provider, model, thought } of cases) {
  test(`${provider}: thinking streams live, collapses to its duration, and survives a reload`, async ({
    chat,
    page,
  }) => {
    const key = mockKey('slow-thinking');
    await chat.open({ ...mockConfig(provider, key), model });
    await chat.newConversation();
    await chat.send('Why is the sky blue?');

    // Live: open under 'Thinking…', the text growing, no answer yet.
    const toggle = reasoningToggle(page);
    await expect(toggle).toHaveText('Thinking…');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const region = reasoningRegion(page);
    await expect(region).toContainText(thought);

    // The answer starts: the thinking folds away to its duration.
    await expect(toggle).toHaveText(/^Thought for \d+ s$/, { timeout: 20_000 });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await chat.waitForReplyDone();
    const reply = chat.messages('assistant');
    await expect(reply).toContainText('Echo: Why is the sky blue?');
    await expect(region).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(region).toContainText(thought);

    await page.reload();
    const after = reasoningToggle(page);
    await expect(after).toHaveText(/^Thought for \d+ s$/);
    await after.click();
    await expect(reasoningRegion(page)).toContainText(thought);
    await expect(chat.messages('assistant')).toContainText('Echo: Why is the sky blue?');
  });
}

test("Claude's second turn sends the signed and redacted thinking back unchanged; Copy copies the answer", async ({
  chat,
  page,
}) => {
  const key = mockKey('thinking');
  await chat.open({ ...mockConfig('claude', key), model: 'claude-opus-4-8', maxTokens: 4096 });
  await chat.newConversation();
  await chat.ask('First');
  await expect(page.getByTestId('reasoning')).toHaveCount(1);
  await reasoningToggle(page).click();
  await expect(reasoningRegion(page)).toContainText('redacted');

  await chat.ask('Second');
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: Second');
  await expect(chat.toast(/Error calling/)).toHaveCount(0);
  const [first, second] = await recordedRequests(key);
  expect(first?.body).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' } });
  const turn = (second?.body as { messages: { role: string; content: unknown }[] }).messages[1];
  expect(turn?.role).toBe('assistant');
  expect(turn?.content).toEqual([
    {
      type: 'thinking',
      thinking: expect.stringContaining('Reading the question'),
      signature: expect.any(String),
    },
    { type: 'redacted_thinking', data: expect.any(String) },
    { type: 'text', text: expect.stringContaining('Echo: First') },
  ]);

  const reply = chat.messages('assistant').first();
  await reply.hover();
  await reply.getByRole('button', { name: 'Copy message' }).click();
  await expect(chat.toast('Message copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^Echo: First/);
  expect(copied).not.toContain('Reading the question');
});

test('switching to another model mid-conversation sends only the text', async ({ chat, page }) => {
  const key = mockKey('thinking');
  await chat.open({ ...mockConfig('claude', key), model: 'claude-opus-4-8', maxTokens: 4096 });
  await chat.newConversation();
  await chat.ask('First');
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  await panel.getByLabel('Model', { exact: true }).selectOption('claude-sonnet-4-6');
  await panel.getByRole('button', { name: 'Save Configuration' }).click();
  await chat.ask('Second');
  const [, second] = (await recordedRequests(key)).filter((request) => request.method === 'POST');
  expect(second?.body).toMatchObject({ model: 'claude-sonnet-4-6' });
  const turn = (second?.body as { messages: { content: unknown }[] }).messages[1];
  expect(typeof turn?.content).toBe('string');
});

test('OpenAI: an unverified organisation gets its reply without summaries, told once, remembered', async ({
  chat,
}) => {
  const key = mockKey('unverified');
  await chat.open({ ...mockConfig('openai', key), model: 'gpt-5.4' });
  await chat.newConversation();
  await chat.ask('First');
  const first = chat.messages('assistant').first();
  await expect(first).toContainText('Echo: First');
  await expect(first).toContainText('Reasoning summaries need a verified OpenAI organisation');
  await expect(chat.toast(/Error calling/)).toHaveCount(0);

  await chat.ask('Second');
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: Second');
  await expect(chat.messages('assistant').nth(1)).not.toContainText('verified OpenAI organisation');
  const bodies = (await recordedRequests(key)).map((request) => request.body as Record<string, unknown>);
  expect(bodies.map((body) => (body.reasoning as { summary?: string } | undefined)?.summary)).toEqual([
    'auto',
    undefined,
    undefined,
  ]);
  // The second turn sends the first reply's encrypted reasoning back before its text.
  expect((bodies[2]?.input as { type?: string }[]).map((item) => item.type ?? 'message')).toEqual([
    'message',
    'reasoning',
    'message',
    'message',
  ]);
});

test('the footer shows the figures the provider reported, and the header how full the context is', async ({
  chat,
}) => {
  const key = mockKey('thinking');
  await chat.open({ ...mockConfig('openai', key), model: 'gpt-5.4' });
  await chat.newConversation();
  await chat.ask('Count me');
  const [request] = await recordedRequests(key);
  const json = await mockUsage('/v1/responses', key, request?.body, { authorization: `Bearer ${key}` });
  const usage = json.usage as {
    input_tokens: number;
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
  };
  const footer = chat.messages('assistant').getByTestId('reply-stats');
  await expect(footer).toContainText(`${usage.input_tokens} in`);
  await expect(footer).toContainText(
    `${usage.output_tokens} out (${usage.output_tokens_details.reasoning_tokens} reasoning)`,
  );
  await expect(footer).toContainText(/[\d.]+ s to first token/);
  await expect(footer).toContainText(/[\d.]+ tokens\/s/);

  const meter = chat.page.getByRole('meter', { name: 'Context window used' });
  // gpt-5.4 reads 400,000 tokens: a short chat rounds to 0%.
  await expect(meter).toHaveText('Context 0%');
});

test('a reply cut off at the token limit says so and Continue extends the same reply', async ({ chat }) => {
  await chat.open(mockConfig('gemini', mockKey('length')));
  await chat.newConversation();
  await chat.ask('Write a lot');
  const footer = chat.messages('assistant').getByTestId('reply-stats');
  await expect(footer).toContainText('cut off at the token limit');
  await footer.getByRole('button', { name: 'Continue' }).click();
  await chat.waitForReplyDone();
  // The mock echoes the request's last turn: the hidden 'continue' one, written into the same reply.
  await expect(chat.messages('assistant')).toContainText(/Echo: Write.*Echo: Continue/);
  await expect(chat.messages('assistant')).toHaveCount(1);
  await expect(chat.messages('user')).toHaveCount(1);
});

test("'Reasoning effort' offers only the model's values and is sent with the next message", async ({
  chat,
  page,
}) => {
  const key = mockKey('ok');
  await chat.open({ ...mockConfig('openai', key), model: 'gpt-5.4' });
  await chat.newConversation();
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  const effort = page.getByRole('combobox', { name: 'Reasoning effort' });
  await expect(effort.getByRole('option')).toHaveText([
    'Model default',
    'Off',
    'Low',
    'Medium',
    'High',
    'Extra high',
  ]);
  await effort.selectOption({ label: 'Extra high' });
  await page.getByRole('button', { name: 'Save' }).click();
  await chat.ask('Think hard');
  const [request] = await recordedRequests(key);
  expect(request?.body).toMatchObject({ reasoning: { effort: 'xhigh', summary: 'auto' } });

  // A model that does not reason offers no effort.
  await page
    .getByRole('region', { name: 'AI Provider Configuration' })
    .getByLabel('Model', { exact: true })
    .selectOption('gpt-4');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await page.getByRole('button', { name: 'Conversation settings' }).click();
  await expect(page.getByRole('combobox', { name: 'Reasoning effort' })).toHaveCount(0);
});

test('thinking travels with the reply through export and import; Copy of the conversation leaves it out', async ({
  chat,
  page,
}) => {
  await chat.open({ ...mockConfig('gemini', mockKey('thinking')), model: 'gemini-2.5-flash' });
  await chat.newConversation();
  await chat.ask('Keep my thoughts');
  await expect(reasoningToggle(page)).toHaveText(/^Thought for \d+ s$/);

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(chat.toast('Conversation copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('Echo: Keep my thoughts');
  expect(copied).not.toContain('Reading the question');

  const exported = await exportSnapshot(page);
  expect(exported).toContain('"reasoning"');
  expect(exported).toContain('Reading the question');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(chat.messages()).toHaveCount(0);
  await importFile(page, JSON.parse(exported));
  await reasoningToggle(page).click();
  await expect(reasoningRegion(page)).toContainText('Reading the question');
  await expect(chat.messages('assistant')).toContainText('Echo: Keep my thoughts');
});

test('a long Claude conversation is read from the prompt cache: the footer shows the cached tokens', async ({
  chat,
}) => {
  const key = mockKey('ok');
  await chat.open(mockConfig('claude', key));
  await chat.newConversation();
  // A long system prompt makes the prefix worth caching; the mock echoes only the last question.
  await setSystemPrompt(chat.page, 'All work and no play makes a long prompt. '.repeat(120));
  await chat.ask('Once');
  await chat.ask('And again');
  const bodies = (await recordedRequests(key)).map((request) => request.body as Record<string, unknown>);
  expect(bodies.map((body) => body.cache_control)).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral' }]);
  await expect(chat.messages('assistant').nth(1).getByTestId('reply-stats')).toContainText(
    /\(\d[\d,]* cached\)/,
  );
});

test('the header warns when the last request filled 80% of the context window', async ({ chat, page }) => {
  // gpt-4 reads 8192 tokens; the mock counts a token per word here, so 7000 words fill 85%.
  await chat.open({ ...mockConfig('openai', mockKey('ok')), model: 'gpt-4' });
  await chat.newConversation();
  await setSystemPrompt(page, 'w '.repeat(7000));
  await chat.ask('How full?');
  const meter = page.getByRole('meter', { name: 'Context window used' });
  await expect(meter).toHaveText(/^Context (8\d|9\d)% full$/);
  await expect(meter).toHaveAttribute('aria-valuetext', /close to what the model can read/);
});
