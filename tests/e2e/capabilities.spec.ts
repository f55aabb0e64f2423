import { expect, mockConfig, mockKey, recordedRequests, test } from './fixtures.ts';

/** Requests built from what the model can do; the panel says what a model ignores; a refused field is dropped once. */

test('a reasoning model is asked through the Responses API without sampling settings; the panel greys them out', async ({
  chat,
  page,
}) => {
  const key = mockKey('ok');
  await chat.open({ ...mockConfig('openai', key), model: 'o4-mini' });
  const panel = page.getByRole('region', { name: 'AI Provider Configuration' });
  for (const label of ['Temperature', 'Top P', 'Frequency Penalty', 'Presence Penalty']) {
    const slider = panel.getByRole('slider', { name: label });
    await expect(slider).toHaveAttribute('aria-disabled', 'true');
    await expect(slider).toHaveAccessibleDescription(
      'Not sent: o4-mini does not accept it (reasoning model).',
    );
  }
  await expect(panel.getByRole('slider', { name: 'Max Tokens' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );

  await chat.newConversation();
  await chat.send('Think hard');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Echo: Think hard');
  await expect(chat.messages('assistant').getByTestId('message-model')).toHaveText('o4-mini');

  const [request] = await recordedRequests(key);
  expect(request?.path).toBe('/v1/responses');
  // Max Tokens is the answer's; the reasoning gets room on top (8192 at the default effort).
  expect(request?.body).toMatchObject({ model: 'o4-mini', max_output_tokens: 800 + 8192, stream: true });
  for (const field of ['max_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'])
    expect(request?.body).not.toHaveProperty(field);

  // Back to a model of the spec's list: its sliders apply again.
  await panel.getByLabel('Model', { exact: true }).selectOption('gpt-4');
  await expect(panel.getByRole('slider', { name: 'Temperature' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
});

test('a 400 naming a field the model refuses: dropped, sent again, said in the reply, remembered', async ({
  chat,
}) => {
  const key = mockKey('reasoning-model');
  await chat.open({ ...mockConfig('claude', key), model: 'claude-next-preview' });
  await chat.newConversation();
  await chat.send('First');
  await chat.waitForReplyDone();
  const reply = chat.messages('assistant');
  await expect(reply).toContainText('Echo: First');
  await expect(reply).toContainText('Sent again without temperature, which this model does not accept.');
  await expect(chat.toast(/Error calling/)).toHaveCount(0);

  await chat.send('Second');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant').nth(1)).toContainText('Echo: Second');
  await expect(chat.messages('assistant').nth(1)).not.toContainText('Sent again');
  const bodies = (await recordedRequests(key)).map((request) => request.body as Record<string, unknown>);
  expect(bodies.map((body) => 'temperature' in body)).toEqual([true, false, false]);

  // The notice is kept with the reply.
  await chat.page.reload();
  await expect(chat.messages('assistant').first()).toContainText('Sent again without temperature');
});
