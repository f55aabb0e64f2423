import { startFakeLocalServers, type FakeServers } from '../../tools/local-servers/fake-local-servers.mjs';
import { ChatPage, expect, mockConfig, mockKey, settingsPanel, test } from './fixtures.ts';
import { appPort } from './ports.ts';

/**
 * 'Find local models' against fake servers on the real ports: Ollama allowing this page, LM Studio
 * without CORS, llama.cpp as it ships (every origin); Jan's 1337 and vLLM's 8000 left empty. One
 * worker holds the ports, so this file runs serially; a port already taken on this machine fails
 * beforeAll, naming it.
 */
test.describe.configure({ mode: 'serial' });

const appOrigin = `http://127.0.0.1:${appPort}`;
let fakes: FakeServers;

test.beforeAll(async () => {
  fakes = await startFakeLocalServers([
    { kind: 'ollama', port: 11434, cors: [appOrigin] },
    { kind: 'lmstudio', port: 1234, cors: false },
    { kind: 'llamacpp', port: 8080 },
  ]);
});

test.afterAll(async () => {
  await fakes?.close();
});

test('finds Ollama and llama.cpp and adds them as endpoints, gives LM Studio’s CORS fix, and chats through Ollama', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  const panel = settingsPanel(page);

  // Before any request, what Chrome may ask.
  await expect(
    panel.getByText(
      'Chrome may ask to let this site access other apps and services on this device: choose Allow.',
      {
        exact: false,
      },
    ),
  ).toBeVisible();
  expect(fakes.servers.flatMap(({ requests }) => requests)).toEqual([]);

  await panel.getByRole('button', { name: 'Find local models' }).click();
  await expect(
    panel.getByText('Found Ollama (3 models), llama.cpp (1 model): added as endpoints.'),
  ).toBeVisible();
  await expect(
    panel.getByText(
      'LM Studio (port 1234) answered but refused this page (CORS). In LM Studio, turn on Developer → Server settings → Enable CORS, or start the server with lms server start --cors.',
    ),
  ).toBeVisible();
  await expect(panel.getByText('No model server answered', { exact: false })).toHaveCount(0);

  const provider = panel.getByLabel('Provider');
  await expect(provider.locator('option', { hasText: 'LM Studio' })).toHaveCount(0);
  await provider.selectOption({ label: 'llama.cpp' });
  await expect(panel.getByLabel('Base URL')).toHaveValue('http://localhost:8080/v1');
  await expect(panel.getByLabel('Model', { exact: true })).toHaveValue('gemma-3-4b-it-Q4_K_M.gguf');

  await provider.selectOption({ label: 'Ollama' });
  await expect(panel.getByLabel('Base URL')).toHaveValue('http://localhost:11434/v1');
  const model = panel.getByLabel('Model', { exact: true });
  // The live list is there at once, the embedding model not chosen.
  await expect(model).toHaveValue('llama3.2:latest');
  await expect(model.locator('option', { hasText: 'qwen3:8b' })).toHaveCount(1);
  await panel.getByRole('button', { name: 'Save Configuration' }).click();

  await chat.newConversation();
  await expect(chat.composer).toHaveAttribute('placeholder', 'Type a message... (Using Ollama)');
  await chat.send('Hello local');
  await chat.waitForReplyDone();
  await expect(chat.messages('assistant')).toContainText('Ollama says: Hello local');
  const posts = fakes.servers[0]?.requests.filter(({ method }) => method === 'POST') ?? [];
  expect(posts.map(({ path, body }) => [path, (body as { model: string }).model])).toEqual([
    ['/v1/chat/completions', 'llama3.2:latest'],
  ]);

  // Looking again adds nothing twice.
  await panel.getByRole('button', { name: 'Find local models' }).click();
  await expect(
    panel.getByText('Found Ollama (3 models), llama.cpp (1 model): already among your endpoints.'),
  ).toBeVisible();
  await expect(provider.locator('option', { hasText: 'Ollama' })).toHaveCount(1);
});

test('first run: the ways to start, in order; "Find models on this computer" starts a conversation on the server found', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const card = page.getByRole('region', { name: 'Connect a provider' });
  // This browser's model cannot run here (no model ships with this Chromium): two ways, not three.
  await expect(card.getByRole('list', { name: 'Ways to start' }).getByRole('button')).toHaveText([
    'Find models on this computer',
    'Add an API key',
  ]);
  await card.getByRole('button', { name: 'Add an API key' }).click();
  await expect(card.getByLabel('API Key')).toBeFocused();

  await card.getByRole('button', { name: 'Find models on this computer' }).click();
  await expect(chat.composer).toBeFocused();
  await expect(page.getByRole('region', { name: 'Connect a provider' })).toHaveCount(0);
  await chat.ask('Hello from the first run');
  await expect(chat.messages('assistant')).toContainText('Hello from the first run');
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('ai-chat-config'))) ?? '{}');
  expect(stored).toMatchObject({ provider: 'custom', name: 'Ollama', baseUrl: 'http://localhost:11434/v1' });
});
