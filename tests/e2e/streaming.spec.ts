import {
  ChatPage,
  expect,
  mockConfig,
  mockKey,
  recordedRequests,
  test,
  type ProviderId,
} from './fixtures.ts';

const expectedPayload: Record<ProviderId, (body: Record<string, unknown>) => void> = {
  openai: (body) => {
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.7,
      max_tokens: 800,
      top_p: 0.95,
      frequency_penalty: 0,
      presence_penalty: 0,
      stream: true,
    });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hello there' },
    ]);
  },
  azure: (body) => {
    expect(body).toMatchObject({ model: 'gpt-4o-test', max_tokens: 800, top_p: 0.95, stream: true });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hello there' },
    ]);
  },
  claude: (body) => {
    expect(body).toMatchObject({
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      system: 'You are a helpful assistant.',
      stream: true,
    });
    expect(body.messages).toEqual([{ role: 'user', content: 'Hello there' }]);
  },
  gemini: (body) => {
    expect(body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
      systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
      generationConfig: { temperature: 0.7, topK: 40, topP: 0.95, maxOutputTokens: 800 },
    });
  },
  groq: (body) => {
    expect(body).toMatchObject({
      model: 'llama-3.3-70b-versatile',
      temperature: 0.7,
      max_tokens: 800,
      top_p: 0.95,
      stream: true,
    });
    expect(body).not.toHaveProperty('frequency_penalty');
  },
};

const expectedPath: Record<ProviderId, RegExp> = {
  openai: /^\/v1\/chat\/completions$/,
  azure: /^\/openai\/deployments\/gpt-4o-test\/chat\/completions$/,
  claude: /^\/v1\/messages$/,
  gemini: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/,
  groq: /^\/openai\/v1\/chat\/completions$/,
};

for (const provider of Object.keys(expectedPayload) as ProviderId[]) {
  test(`${provider}: a reply streams in and the request carries the spec's payload`, async ({ page }) => {
    const chat = new ChatPage(page);
    const key = mockKey('ok');
    await chat.open(mockConfig(provider, key));
    await chat.newConversation();
    await chat.send('Hello there');

    await expect(chat.messages('user')).toHaveText(/Hello there/);
    await expect(chat.messages('assistant')).toContainText('Echo: Hello there');
    await chat.waitForReplyDone();
    await expect(chat.composer).toHaveValue('');

    const requests = (await recordedRequests(key)).filter((request) => request.method === 'POST');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.path).toMatch(expectedPath[provider]);
    expectedPayload[provider](request?.body as Record<string, unknown>);

    // The second turn sends the whole history, the first reply included.
    await chat.send('And again');
    await chat.waitForReplyDone();
    await expect(chat.messages('assistant').nth(1)).toContainText('Echo: And again');
    const second = (await recordedRequests(key)).filter((request) => request.method === 'POST')[1];
    expect(JSON.stringify(second?.body)).toContain('Echo: Hello there');
  });
}
