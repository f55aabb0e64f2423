import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelList, recogniseServer } from '../../src/domain/local-servers.ts';
import { startFakeLocalServers, type FakeServers } from './fake-local-servers.mjs';

const origin = 'https://chat.example';

describe('the fake local servers', () => {
  let fakes: FakeServers;

  beforeAll(async () => {
    fakes = await startFakeLocalServers([
      { kind: 'ollama', cors: [origin] },
      { kind: 'lmstudio' },
      { kind: 'llamacpp' },
      { kind: 'vllm' },
    ]);
  });
  afterAll(() => fakes.close());

  function baseUrl(index: number): string {
    const server = fakes.servers[index];
    if (!server) throw new Error(`no server ${index}`);
    return server.baseUrl;
  }

  it('list models in each server’s own shape, which the app tells apart', async () => {
    const kinds = [];
    for (const index of [0, 1, 2, 3]) {
      const json: unknown = await (await fetch(`${baseUrl(index)}/models`)).json();
      expect(readModelList(json)?.length).toBeGreaterThan(0);
      kinds.push(recogniseServer(json));
    }
    expect(kinds).toEqual(['ollama', 'lmstudio', 'llamacpp', 'vllm']);
  });

  it('answer CORS as the real servers do by default, or as told', async () => {
    const allowOf = async (index: number, from: string) =>
      (await fetch(`${baseUrl(index)}/models`, { headers: { origin: from } })).headers.get(
        'access-control-allow-origin',
      );
    expect(await allowOf(0, origin)).toBe(origin);
    expect(await allowOf(0, 'http://localhost:3000')).toBe('http://localhost:3000');
    expect(
      (await fetch(`${baseUrl(0)}/models`, { headers: { origin: 'https://other.example' } })).status,
    ).toBe(403);
    expect(await allowOf(1, origin)).toBeNull();
    expect(await allowOf(2, origin)).toBe(origin);
    expect(await allowOf(3, origin)).toBe('*');

    const preflight = await fetch(`${baseUrl(0)}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('stream a chat completion in OpenAI’s SSE, and refuse a model they do not have', async () => {
    const response = await fetch(`${baseUrl(0)}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        model: 'llama3.2:latest',
        stream: true,
        messages: [{ role: 'user', content: 'Hello there' }],
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const text = frames
      .slice(0, -1)
      .map(
        (frame) => JSON.parse(frame.slice('data: '.length)) as { choices: { delta: { content?: string } }[] },
      )
      .map(({ choices }) => choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe('Ollama says: Hello there');

    const unknown = await fetch(`${baseUrl(0)}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'nope', messages: [] }),
    });
    expect(unknown.status).toBe(404);
    expect(fakes.servers[0]?.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
  });

  it('stop by themselves after their lifetime', async () => {
    const brief = await startFakeLocalServers([{ kind: 'lmstudio' }], { maxLifetimeMs: 50 });
    const url = `${brief.servers[0]?.baseUrl}/models`;
    expect((await fetch(url)).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(url)).rejects.toThrow();
    await brief.close();
  });
});
